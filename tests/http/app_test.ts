import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";
import { uiAssets } from "../../ui.ts";

async function setup(files: Record<string, string> = {
  "assets/service.csv": "name,database,port\napi,orders,8080\n",
  "assets/database.csv": "name,engine\norders,postgres\n",
  "assets/sub/zone.csv": "name\ndmz\n",
}) {
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, {
    ui: uiAssets,
    edition: "ce",
    version: "9.9.9",
    features: ["admin_assets"],
  });
  const get = (path: string, init?: RequestInit) =>
    app.fetch(new Request(`http://test${path}`, init));
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await get("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: await res.json() };
  };
  return { engine, workspace, app, get, gql };
}

Deno.test("R1 GET /api/assets lists CSV files relative to assets/, sorted", async () => {
  const { get } = await setup();
  for (const path of ["/api/assets", "/api/assets/"]) {
    const res = await get(path);
    assertEquals(res.status, 200);
    assertEquals(await res.json(), ["database.csv", "service.csv", "sub/zone.csv"]);
  }
});

Deno.test("R2 GET /api/assets/{file}: raw text, sub-paths and unique base names", async () => {
  const { get } = await setup();
  const res = await get("/api/assets/service.csv");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/csv; charset=utf-8");
  assertEquals(await res.text(), "name,database,port\napi,orders,8080\n");
  assertEquals(await (await get("/api/assets/sub/zone.csv")).text(), "name\ndmz\n");
  assertEquals(await (await get("/api/assets/zone.csv")).text(), "name\ndmz\n");
});

Deno.test("R2/R90 unknown and hostile asset names: 404/400 problem documents, never escaping", async () => {
  const { get } = await setup();
  const missing = await get("/api/assets/nope.csv");
  assertEquals(missing.status, 404);
  assertEquals(missing.headers.get("content-type"), "application/problem+json");
  const body = await missing.json();
  assertEquals([body.type, body.status], ["urn:graphsvc:problem:not-found", 404]);
  for (
    const path of [
      "/api/assets/..%2Fmodule.toml",
      "/api/assets/%2E%2E/%2E%2E/etc/passwd.csv",
      "/api/assets/x.txt",
      "/api/assets/a%5Cb.csv",
      "/api/assets/%ZZ",
    ]
  ) {
    const res = await get(path);
    assert([400, 404].includes(res.status), `${path} → ${res.status}`);
    assertEquals(res.headers.get("content-type"), "application/problem+json");
    await res.body?.cancel();
  }
});

Deno.test("R61/R60 engine-info and features", async () => {
  const { get } = await setup();
  const info = await (await get("/api/engine-info")).json();
  assertEquals([info.name, info.edition, info.version, info.is_publishing], [
    "graphsvc",
    "ce",
    "9.9.9",
    false,
  ]);
  assertEquals(info.last_build.status, "ok");
  assertEquals(info.generation, 1);
  assertEquals(await (await get("/api/features")).json(), ["admin_assets", "contracts", "mcp"]);
});

Deno.test("R92 unknown /api path → 404 problem; wrong method → 405 with Allow", async () => {
  const { get } = await setup();
  const res = await get("/api/nothing");
  assertEquals(res.status, 404);
  assertEquals((await res.json()).type, "urn:graphsvc:problem:not-found");
  const wrong = await get("/api/engine-info", { method: "DELETE" });
  assertEquals(wrong.status, 405);
  assertEquals(wrong.headers.get("allow"), "GET, HEAD, OPTIONS");
  await wrong.body?.cancel();
});

Deno.test("G1 GraphQL over POST and GET answers from the current snapshot", async () => {
  const { gql, get } = await setup();
  const { status, body } = await gql(
    "{ service { name port database { node { name engine } } } countNodes countEdges }",
  );
  assertEquals(status, 200);
  assertEquals(body.data.countNodes, 3);
  assertEquals(body.data.countEdges, 1);
  assertEquals(body.data.service[0].database[0].node, { name: "orders", engine: "postgres" });
  const viaGet = await get(`/graphql?query=${encodeURIComponent("{ countResourceTypes }")}`);
  assertEquals((await viaGet.json()).data.countResourceTypes, 3);
});

Deno.test("G21 malformed GraphQL JSON body → 400 problem document", async () => {
  const { get } = await setup();
  const res = await get("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{ not json",
  });
  assertEquals(res.status, 400);
  await res.body?.cancel();
});

Deno.test("GraphQL body size limit → 413 problem", async () => {
  const { get } = await setup();
  const res = await get("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
    body: JSON.stringify({ query: `{ countNodes } #${"x".repeat(2 * 1024 * 1024)}` }),
  });
  assertEquals(res.status, 413);
  await res.body?.cancel();
});

Deno.test("G16 over-deep queries are rejected with a GraphQL error", async () => {
  const { gql } = await setup();
  let q = "name";
  for (let i = 0; i < 20; i++) q = `database { node { service { node { ${q} } } } }`;
  const { body } = await gql(`{ service { ${q} } }`);
  assert(body.errors?.length > 0);
  assert(/depth/i.test(body.errors[0].message), body.errors[0].message);
});

Deno.test("G2 GraphiQL page references only our own asset URLs (no CDN)", async () => {
  const { get } = await setup();
  const res = await get("/graphiql");
  assertEquals(res.status, 200);
  const html = await res.text();
  assert(html.includes("/graphiql/assets/graphiql.min.js"));
  assert(
    !/https?:\/\/(?!test)/.test(html.replace(/http:\/\/www\.w3\.org[^"']*/g, "")),
    "no external URLs",
  );
});

Deno.test("a bad CSV after a good build: the API keeps serving the last good graph", async () => {
  const { engine, workspace, gql, get } = await setup();
  await workspace.writeTextAtomic("assets/service.csv", "name,database\napi,orders,extra\n");
  await engine.rebuild();
  const { body } = await gql("{ countNodes }");
  assertEquals(body.data.countNodes, 3);
  const info = await (await get("/api/engine-info")).json();
  assertEquals(info.last_build.status, "failed");
  assertEquals(info.last_build.errors[0].code, "csv_ragged_row");
  assertEquals(info.last_build.errors[0].line, 2);
});

Deno.test("R50/R51 build stream: a late client gets the last sentinel; a new build streams lines", async () => {
  const { engine, get } = await setup();
  const controller = new AbortController();
  const res = await get("/api/build/stream", { signal: controller.signal });
  assertEquals(res.headers.get("content-type"), "text/event-stream");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const readUntil = async (needle: string) => {
    while (!text.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  };
  await readUntil("BUILD_COMPLETE");
  assert(text.startsWith("data: BUILD_COMPLETE\n\n"));
  text = "";
  engine.requestRebuild();
  await readUntil("BUILD_COMPLETE");
  assert(/data: build 2: /.test(text), text);
  controller.abort();
  await reader.cancel().catch(() => {});
});

Deno.test("G2 GraphiQL static assets are served from node_modules through the reader", async () => {
  const workspace = new MemoryWorkspace({});
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const served: string[] = [];
  const app = createApp(engine, {
    ui: uiAssets,
    readStaticAsset: (path) => {
      served.push(path);
      return Promise.resolve(new TextEncoder().encode("/* js */"));
    },
  });
  const html = await (await app.fetch(new Request("http://test/graphiql"))).text();
  const scripts = [...html.matchAll(/(?:src|href)="(\/graphiql\/assets\/[^"]+)"/g)].map((m) =>
    m[1]
  );
  assert(scripts.length >= 3, html);
  for (const url of scripts) {
    const res = await app.fetch(new Request(`http://test${url}`));
    assertEquals(res.status, 200, url);
    await res.body?.cancel();
  }
  assert(served.every((p) => p.startsWith("graphiql/") || p.startsWith("react")), served.join());
  const missing = await app.fetch(new Request("http://test/graphiql/assets/evil.js"));
  assertEquals(missing.status, 404);
  await missing.body?.cancel();
});
