import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import {
  findPath,
  getNeighbors,
  listResources,
  listResourceTypes,
  ToolInputError,
} from "../../lib/mcp/graph_tools.ts";
import { globalSearch, localSearch, semanticSearch } from "../../lib/mcp/search.ts";

function graph(): Graph {
  const g = new Graph();
  const a = g.upsertResource("host", "web-1", { env: "prod", description: "Frontend web server" });
  const b = g.upsertResource("host", "web-2", { env: "dev", port: 8080 });
  const n = g.upsertResource("network", "dmz", { vlan: 101 });
  const s = g.upsertResource("site", "zurich", { country: "CH" });
  const x = g.upsertResource("site", "far", {});
  g.upsertRelation(a, "network", n);
  g.upsertRelation(b, "network", n);
  g.upsertRelation(n, "site", s);
  g.upsertRelation(x, "peer", s);
  g.seal();
  return g;
}

Deno.test("R71 listResources: exact filter (typed like match_on), paging with next_offset", () => {
  const g = graph();
  assertEquals(listResources(g, { type: "host", filter: { env: "prod" } }).items, [
    { name: "web-1", env: "prod", description: "Frontend web server" },
  ]);
  assertEquals(listResources(g, { type: "host", filter: { port: "8080" } }).total, 1);
  const page = listResources(g, { type: "host", limit: 1 });
  assertEquals([page.total, page.items[0].name, page.next_offset], [2, "web-1", 1]);
  assertThrows(() => listResources(g, { type: "nope" }), ToolInputError);
});

Deno.test("R71 getNeighbors and findPath (undirected by default, directed on request)", () => {
  const g = graph();
  const nb = getNeighbors(g, { type: "network", name: "dmz" });
  assertEquals(nb.outgoing.map((e) => e.name), ["zurich"]);
  assertEquals(nb.incoming.map((e) => e.name).sort(), ["web-1", "web-2"]);
  const p = findPath(g, { type: "host", name: "web-1" }, { type: "site", name: "far" });
  assert(p.found);
  assertEquals(p.path!.map((s) => `${s.relation}:${s.direction}`), [
    "network:out",
    "site:out",
    "peer:in",
  ]);
  const directed = findPath(g, { type: "host", name: "web-1" }, { type: "site", name: "far" }, {
    directed: true,
  });
  assertEquals(directed.found, false);
});

Deno.test("R71 listResourceTypes: counts, keys and relation types with the other end's types", () => {
  const host = listResourceTypes(graph()).find((t) => t.type === "host")!;
  assertEquals(host.count, 2);
  assertEquals(host.properties, ["description", "env", "name", "port"]);
  assertEquals(host.relations.outgoing, { network: ["network"] });
});

Deno.test("R71 semanticSearch: name, description, every word, and typos", () => {
  const g = graph();
  assertEquals(semanticSearch(g, { query: "web-1" }).hits[0].name, "web-1");
  assertEquals(semanticSearch(g, { query: "frontend" }).hits[0].matched, ["description"]);
  assertEquals(semanticSearch(g, { query: "server prod" }).hits.map((h) => h.name), ["web-1"]);
  assertEquals(semanticSearch(g, { query: "zurch" }).hits.map((h) => h.name), ["zurich"]);
  assertThrows(() => semanticSearch(g, { query: "  " }), ToolInputError);
});

Deno.test("R73 localSearch is the depth-2 ego graph; globalSearch aggregates per type", () => {
  const g = graph();
  const local = localSearch(g, { type: "host", name: "web-1" });
  assertEquals(
    local.nodes.map((n) => `${n.name}@${n.distance}`),
    ["web-1@0", "dmz@1", "zurich@2", "web-2@2"],
  );
  assertEquals(local.by_type, { host: 2, network: 1, site: 1 });
  const global = globalSearch(g, {});
  assertEquals(global.totals, { types: 3, resources: 5, relations: 4 });
  const q = globalSearch(g, { query: "vlan" });
  assertEquals(q.types[0].type, "network");
});

Deno.test("R73 globalSearch answers a question about types and counts with every type's count", () => {
  const g = graph();
  const a = globalSearch(g, { query: "Which resource types are there, and how many of each?" });
  assertEquals(a.types.map((t) => [t.type, t.count]), [["host", 2], ["site", 2], ["network", 1]]);
  assert("counts" in a && "summary" in a);
  assertEquals(a.counts, { host: 2, site: 2, network: 1 });
  assertEquals(
    a.summary,
    "3 resource type(s), 5 resource(s), 4 relation(s): 2 host, 2 site, 1 network",
  );
  // A type the question names comes first.
  const n = globalSearch(g, { query: "how many networks?" });
  assertEquals(n.types[0].type, "network");
});
