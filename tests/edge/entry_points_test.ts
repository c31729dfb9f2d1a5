// Issue 28 point 1: mod.ts is the portable core — no Deno adapter and no UI file in its import
// graph — and an app built without `ui` serves the API but not the UI pages.
import { assert, assertEquals } from "../_assert.ts";
import {
  createApp,
  createTemplateRenderer,
  defaultPhases,
  GraphEngine,
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
