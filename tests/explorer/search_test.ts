// The explorer's server-side search (issue 17, point 2): `searchGraph` and `GET /api/search`.
import { assert, assertEquals } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { MAX_COUNTED_MATCHES, MAX_SEARCH_LIMIT, searchGraph } from "../../lib/api/rest/search.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

function sample(): Graph {
  const g = new Graph();
  g.upsertResource("host", "web", { os: "ubuntu" });
  g.upsertResource("host", "web-1", { os: "ubuntu" });
  g.upsertResource("host", "db-web", { os: "rhel" });
  g.upsertResource("app", "shop", { owner: "team-WEB", tags: ["a", "web"] });
  g.upsertResource("app", "billing", { owner: "finance", note: null });
  g.seal();
  return g;
}

Deno.test("search ranks exact name, name prefix, name substring, then property values", () => {
  const page = searchGraph(sample(), "  Web ");
  assertEquals(page.query, "Web");
  assertEquals(page.items.map((h) => `${h.type}/${h.name}:${h.field}`), [
    "host/web:name",
    "host/web-1:name",
    "host/db-web:name",
    "app/shop:owner",
  ]);
  assertEquals(page.items[3].value, "team-WEB", "the value keeps its case");
  assertEquals(page.total, 4);
  assert(page.total_exact);
});

Deno.test("search matches inside list values and is case-insensitive", () => {
  const g = sample();
  assertEquals(searchGraph(g, "UBUNTU").items.map((h) => h.name), ["web", "web-1"]);
  const list = searchGraph(g, '"web"]');
  assertEquals(list.items.map((h) => `${h.name}:${h.field}`), ["shop:tags"]);
  assertEquals(searchGraph(g, "null").total, 0, "null values are not indexed as text");
});

Deno.test("search filters by type and pages across rank buckets", () => {
  const g = sample();
  assertEquals(searchGraph(g, "web", { type: "app" }).items.map((h) => h.name), ["shop"]);
  assertEquals(searchGraph(g, "web", { type: "nothing" }).total, 0);
  const p1 = searchGraph(g, "web", { limit: 2 });
  const p2 = searchGraph(g, "web", { limit: 2, offset: 2 });
  const p3 = searchGraph(g, "web", { limit: 2, offset: 4 });
  assertEquals([...p1.items, ...p2.items].map((h) => h.name), ["web", "web-1", "db-web", "shop"]);
  assertEquals(p3.items, []);
  assertEquals(p2.total, 4);
});

Deno.test("an empty query lists every resource in type and name order; limits are clamped", () => {
  const g = sample();
  assertEquals(searchGraph(g, "").items.map((h) => `${h.type}/${h.name}`), [
    "app/billing",
    "app/shop",
    "host/db-web",
    "host/web",
    "host/web-1",
  ]);
  assertEquals(searchGraph(g, "", { limit: 0 }).items.length, 1);
  assertEquals(searchGraph(g, "", { limit: 10_000 }).limit, MAX_SEARCH_LIMIT);
});

Deno.test("long property values are cut around the match in the hit", () => {
  const g = new Graph();
  g.upsertResource("doc", "d", { body: "x".repeat(500) + "needle" + "y".repeat(500) });
  const hit = searchGraph(g, "needle").items[0];
  assertEquals(hit.field, "body");
  assert(hit.value.includes("needle") && hit.value.length < 210, hit.value);
});

Deno.test("the scan stops counting at its budget and says the total is a lower bound", () => {
  const g = new Graph();
  for (let i = 0; i < MAX_COUNTED_MATCHES + 10; i++) g.upsertResource("t", `r${i}`);
  g.seal();
  const page = searchGraph(g, "r", { limit: 3, offset: 5 });
  assertEquals(page.total, MAX_COUNTED_MATCHES);
  assertEquals(page.total_exact, false);
  assertEquals(page.items.length, 3);
});

Deno.test("the index of a sealed graph is reused; an unsealed graph is searched afresh", () => {
  const g = new Graph();
  g.upsertResource("t", "a");
  assertEquals(searchGraph(g, "b").total, 0);
  g.upsertResource("t", "b");
  assertEquals(searchGraph(g, "b").total, 1, "no stale index while the graph can change");
});

async function app() {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({
      "assets/host.csv": "name,os\nweb-1,ubuntu\nweb-2,rhel\n",
      "assets/app.csv": "name,host\nshop,web-1\n",
    }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const a = createApp(engine, { features: ["admin_assets"] });
  return (path: string, init?: RequestInit) => a.fetch(new Request(`http://test${path}`, init));
}

Deno.test("GET /api/search answers a page with the generation; bad paging is a 400", async () => {
  const get = await app();
  const res = await get("/api/search?q=web&limit=1&offset=1");
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.items.map((h: { name: string }) => h.name), ["web-2"]);
  assertEquals(body.total, 3);
  assertEquals(body.generation, 1);
  assertEquals(res.headers.get("graphsvc-generation"), "1");
  const typed = await (await get("/api/search?q=web&type=app")).json();
  assertEquals(typed.items.map((h: { field: string }) => h.field), ["host"]);
  for (const bad of ["limit=x", "offset=-1", "limit=0"]) {
    const r = await get(`/api/search?q=a&${bad}`);
    assertEquals(r.status, 400, bad);
    assertEquals(r.headers.get("content-type"), "application/problem+json");
    await r.body?.cancel();
  }
});

Deno.test("read-your-writes: GET /api/search waits for Graphsvc-Min-Generation after a write", async () => {
  const get = await app();
  const write = await get("/api/mutations/host", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "web-3", os: "debian" }),
  });
  assertEquals(write.status, 201);
  const gen = write.headers.get("graphsvc-generation")!;
  await write.body?.cancel();
  const res = await get("/api/search?q=debian", { headers: { "Graphsvc-Min-Generation": gen } });
  const body = await res.json();
  assertEquals(body.items.map((h: { name: string }) => h.name), ["web-3"]);
  assertEquals(String(body.generation), gen);
});
