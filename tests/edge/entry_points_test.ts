// Issue 28 points 1 and 2: mod.ts is the portable core — no Deno adapter and no UI file in its
// import graph —, an app built without `ui` serves the API but not the UI pages, and a write's
// build completes in request-scoped runtimes (waitUntil, or inside the request).
import { assert, assertEquals } from "../_assert.ts";
import {
  createApp,
  createTemplateRenderer,
  defaultPhases,
  type ExecutionContextLike,
  GraphEngine,
  type GraphsvcApp,
  MemoryWorkspace,
} from "../../mod.ts";
import { uiAssets } from "../../ui.ts";

async function engine(): Promise<GraphEngine> {
  const e = new GraphEngine({
    workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await e.rebuild();
  return e;
}

Deno.test("mod.ts imports no Deno adapter, server or embedded UI file", async () => {
  const deno = new URL("../../node_modules/.bin/deno", import.meta.url).pathname;
  const mod = new URL("../../mod.ts", import.meta.url).pathname;
  const out = await new Deno.Command(deno, { args: ["info", "--json", mod], stdout: "piped" })
    .output();
  assert(out.success, "deno info mod.ts failed");
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  const local = info.modules.map((m) => m.specifier).filter((s) => s.startsWith("file:"));
  assert(local.length > 50, "the module graph was read");
  const offending = local.filter((s) =>
    /\/lib\/runtime\/deno\/|\/deno_fs\.ts$|\.gen\.ts$|\/server\.ts$|\/ui\.ts$/.test(s) &&
    !/\/lib\/(mcp|vault)\/server\.ts$/.test(s)
  );
  assertEquals(offending, []);
});

Deno.test("without ui, the API is served and the UI pages answer 404 naming the option", async () => {
  const app = createApp(await engine());
  const q = await app.fetch(
    new Request("http://x/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ host { name } }" }),
    }),
  );
  assertEquals(await q.json(), { data: { host: [{ name: "web-1" }] } });
  assertEquals((await app.fetch(new Request("http://x/api/openapi.json"))).status, 200);
  for (const path of ["/graphiql", "/api/docs", "/explorer", "/explorer/assets/app.js"]) {
    const res = await app.fetch(new Request(`http://x${path}`));
    assertEquals(res.status, 404, path);
    assert((await res.text()).includes("ui: uiAssets"), path);
  }
  const root = await app.fetch(new Request("http://x/"));
  assertEquals(root.status, 200);
  assert((await root.text()).includes('href="/graphiql"'));
});

Deno.test("with ui, GraphiQL, the API docs and the explorer are served", async () => {
  const app = createApp(await engine(), { ui: uiAssets });
  for (const path of ["/graphiql", "/api/docs", "/explorer", "/explorer/assets/app.js", "/"]) {
    const res = await app.fetch(new Request(`http://x${path}`));
    assertEquals(res.status, 200, path);
    await res.body?.cancel();
  }
});

function put(app: GraphsvcApp, ctx?: ExecutionContextLike) {
  return app.fetch(
    new Request("http://x/api/mutations/host/web-1", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "web-1", cpu: "4" }),
    }),
    {},
    ctx,
  );
}

Deno.test("a write's rebuild is handed to the execution context's waitUntil (issue 28 point 2)", async () => {
  const e = await engine();
  // The build is held until the test lets it go: it is certainly running when the answer leaves.
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  e.beforePublish(() => held);
  const app = createApp(e);
  const handed: Promise<unknown>[] = [];
  const res = await put(app, { waitUntil: (p: Promise<unknown>) => handed.push(p) });
  assert(e.busy, "the build still runs after the answer");
  assertEquals(e.current.generation, 1);
  release();
  assertEquals(res.status, 200, await res.clone().text());
  assertEquals(res.headers.get("graphsvc-generation"), "2");
  assertEquals(handed.length, 1);
  await Promise.all(handed);
  assertEquals(e.busy, false);
  assertEquals(e.current.generation, 2);
  // A read hands nothing over: no build runs.
  await (await app.fetch(new Request("http://x/api/resources/host"), {}, {
    waitUntil: (p: Promise<unknown>) => handed.push(p),
  })).body?.cancel();
  assertEquals(handed.length, 1);
});

Deno.test("buildInRequest answers a write once its graph is published", async () => {
  const e = await engine();
  const app = createApp(e, { buildInRequest: true });
  const res = await put(app);
  assertEquals(res.status, 200);
  assertEquals(e.busy, false);
  assertEquals(e.current.generation, 2);
  assertEquals(e.current.graph.getResource("host", "web-1")?.properties.cpu, "4");
});
