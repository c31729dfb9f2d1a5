import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { Graph, GraphError } from "../../lib/graph/graph.ts";

Deno.test("O3 the same (type, name) from several sources merges into one resource", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "web-1", { env: "prod", cpu: 2 });
  const b = g.upsertResource("host", "web-1", { cpu: 4, os: "linux" });
  assert(a === b);
  assertEquals(g.resourceCount, 1);
  assertEquals(a.properties, { name: "web-1", env: "prod", cpu: 4, os: "linux" });
});

Deno.test("O2 name always equals the primary key and cannot be overwritten", () => {
  const g = new Graph();
  const r = g.upsertResource("host", "web-1", { name: "other" });
  assertEquals(r.properties.name, "web-1");
  assertThrows(() => g.setProperty(r, "name", "x"), GraphError);
  g.setProperty(r, "name", "web-1"); // same value is fine
});

Deno.test("O5 one relation per (source, type, target); re-creating merges properties", () => {
  const g = new Graph();
  const a = g.upsertResource("service", "api");
  const b = g.upsertResource("database", "db");
  g.upsertRelation(a, "database", b, { x: 1 });
  g.upsertRelation(a, "database", b, { y: 2 });
  g.upsertRelation(a, "USES", b);
  assertEquals(g.relationCount, 2);
  assertEquals(g.getRelation(a, "database", b)?.properties, { x: 1, y: 2 });
  assertEquals(g.outgoing(a).map((r) => r.type), ["database", "USES"]);
  assertEquals(g.incoming(b, "USES").length, 1);
});

Deno.test("types are case-sensitive and listed sorted; resources sorted by name on demand", () => {
  const g = new Graph();
  g.upsertResource("b", "2");
  g.upsertResource("b", "10");
  g.upsertResource("B", "x");
  g.upsertResource("a", "x");
  assertEquals(g.types(), ["B", "a", "b"]);
  assertEquals(g.resourcesOfSorted("b").map((r) => r.name), ["10", "2"]);
  assertEquals(g.resourcesOf("missing"), []);
});

Deno.test("retype and remove keep the indexes consistent", () => {
  const g = new Graph();
  const a = g.upsertResource("s", "a");
  const b = g.upsertResource("t", "b");
  const c = g.upsertResource("u", "c");
  const r = g.upsertRelation(a, "x", b, { p: 1 });
  const moved = g.retypeRelation(r, "Y", c);
  assertEquals([moved.type, moved.target.name, moved.properties], ["Y", "c", { p: 1 }]);
  assertEquals(g.incoming(b).length, 0);
  assertEquals(g.relationCount, 1);
  g.removeResource(c);
  assertEquals(g.relationCount, 0);
  assertEquals(g.outgoing(a).length, 0);
  assertEquals(g.getResource("u", "c"), undefined);
  assertEquals(g.resourceCount, 2);
});

Deno.test("a sealed graph rejects every mutation", () => {
  const g = new Graph();
  const a = g.upsertResource("s", "a");
  g.seal();
  assertThrows(() => g.upsertResource("s", "b"), GraphError);
  assertThrows(() => g.setProperty(a, "x", 1), GraphError);
  assertThrows(() => g.upsertRelation(a, "x", a), GraphError);
  assertThrows(() => g.removeResource(a), GraphError);
});

Deno.test("graphJson shape: nodes by type then name, edges with endpoints", () => {
  const g = new Graph();
  const s = g.upsertResource("service", "api", { port: 80 });
  const d = g.upsertResource("database", "db");
  g.upsertRelation(s, "database", d, { via: "tcp" });
  assertEquals(g.toJSON(), {
    nodes: [
      { type: "database", name: "db", properties: { name: "db" } },
      { type: "service", name: "api", properties: { name: "api", port: 80 } },
    ],
    edges: [{
      source: { type: "service", name: "api" },
      target: { type: "database", name: "db" },
      type: "database",
      properties: { via: "tcp" },
    }],
  });
});

Deno.test("relations without properties share nothing once one of them is written", () => {
  const g = new Graph();
  const a = g.upsertResource("t", "a");
  const b = g.upsertResource("t", "b");
  const c = g.upsertResource("t", "c");
  const ab = g.upsertRelation(a, "R", b);
  const ac = g.upsertRelation(a, "R", c);
  assertEquals(ab.properties, {});
  g.setRelationProperty(ab, "w", 1);
  g.upsertRelation(a, "R", c, { v: 2 });
  assertEquals([ab.properties, ac.properties], [{ w: 1 }, { v: 2 }]);
  assertEquals(g.upsertRelation(b, "R", c).properties, {});
});

Deno.test("relation lookup stays exact past the fan-out index threshold", () => {
  const g = new Graph();
  const hub = g.upsertResource("hub", "h");
  const targets = Array.from({ length: 40 }, (_, i) => g.upsertResource("t", `t${i}`));
  for (const t of targets) g.upsertRelation(hub, "A", t);
  for (const t of targets.slice(0, 10)) g.upsertRelation(hub, "B", t);
  assertEquals(g.relationCount, 50);
  assert(g.getRelation(hub, "A", targets[39]));
  assert(g.getRelation(hub, "B", targets[9]));
  assertEquals(g.getRelation(hub, "B", targets[10]), undefined);
  g.removeRelation(g.getRelation(hub, "A", targets[5])!);
  assertEquals(g.getRelation(hub, "A", targets[5]), undefined);
  assertEquals(g.outgoing(hub, "A").length, 39);
  g.upsertRelation(hub, "A", targets[5]);
  assertEquals(g.relationCount, 50);
});

Deno.test("resourcesOfSorted keeps its order only while the type's resources stay the same", () => {
  const g = new Graph();
  for (const n of ["c", "a", "b"]) g.upsertResource("t", n);
  g.upsertResource("u", "z");
  const first = g.resourcesOfSorted("t");
  first.reverse(); // a fresh array: changing it changes no later answer
  assertEquals(g.resourcesOfSorted("t").map((r) => r.name), ["a", "b", "c"]);
  g.upsertResource("u", "y"); // another type: the kept order of `t` stays valid
  g.upsertResource("t", "aa");
  assertEquals(g.resourcesOfSorted("t").map((r) => r.name), ["a", "aa", "b", "c"]);
  g.removeResource(g.getResource("t", "b")!);
  assertEquals(g.resourcesOfSorted("t").map((r) => r.name), ["a", "aa", "c"]);
  assertEquals(g.resourcesOfSorted("u").map((r) => r.name), ["y", "z"]);
});
