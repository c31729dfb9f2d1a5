// The compact graph (issue 15): sealing packs the relation lists without changing what readers
// see (O5 creation order, O3 merges), adopted property objects keep upsertResource's key order,
// and the change clock finds the resources changed since a point in time.
import fc from "fast-check";
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { Graph, GraphError, type Relation } from "../../lib/graph/graph.ts";
import { Adjacency } from "../../lib/graph/adjacency.ts";

const ids = (rs: readonly Relation[]) => rs.map((r) => `${r.id}:${r.type}`);

function view(g: Graph) {
  return [...g.resources()].map((r) => ({
    name: `${r.type}/${r.name}`,
    out: ids(g.outgoing(r)),
    in: ids(g.incoming(r)),
    outA: ids(g.outgoing(r, "a")),
    inB: ids(g.incoming(r, "b")),
  }));
}

Deno.test("O5 sealing keeps every resource's relations and their creation order", () => {
  // Random relation creations and removals, some on a hub past the fan-out index threshold.
  const op = fc.tuple(fc.nat(40), fc.constantFrom("a", "b", "c"), fc.nat(40), fc.boolean());
  fc.assert(
    fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      const g = new Graph();
      const rs = Array.from({ length: 41 }, (_, i) => g.upsertResource("n", `r${i}`));
      for (const [s, type, t, remove] of ops) {
        const source = rs[s % 7 === 0 ? 0 : s]; // r0 is a hub
        if (remove) {
          const existing = g.getRelation(source, type, rs[t]);
          if (existing) g.removeRelation(existing);
        } else g.upsertRelation(source, type, rs[t]);
      }
      const before = view(g);
      const relations = [...g.relations()].map((r) =>
        `${r.source.name}-${r.type}-${r.target.name}`
      );
      const json = JSON.stringify(g.toJSON());
      g.seal();
      assertEquals(view(g), before);
      assertEquals(
        [...g.relations()].map((r) => `${r.source.name}-${r.type}-${r.target.name}`),
        relations,
      );
      assertEquals(JSON.stringify(g.toJSON()), json);
      for (const [s, type, t] of ops) {
        const source = rs[s % 7 === 0 ? 0 : s];
        const r = g.getRelation(source, type, rs[t]);
        if (r) assert(r.source === source && r.type === type && r.target === rs[t]);
        assert(
          (r !== undefined) ===
            g.outgoing(source).some((x) => x.type === type && x.target === rs[t]),
        );
      }
    }),
    { numRuns: 200, seed: 15 },
  );
});

Deno.test("O5 a sealed graph answers relation lists as plain arrays and stays read-only", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "a");
  const b = g.upsertResource("host", "b");
  const r = g.upsertRelation(a, "peer", b);
  g.seal();
  assertEquals(g.outgoing(a), [r]);
  assertEquals(g.incoming(b), [r]);
  assertEquals(g.outgoing(b), []);
  assert(g.outgoing(a)[0] === r, "the same relation object after sealing");
  assertThrows(() => g.ensureRelation(b, "peer", a), GraphError);
  assertThrows(() => g.adoptResource("host", "c", { name: "" }), GraphError);
  assertThrows(() => g.removeRelation(r), GraphError);
});

Deno.test("O2/O3 adoptResource keeps upsertResource's property key order and merge rule", () => {
  const rows: Record<string, string>[] = [
    { name: "x", env: "prod", "2024": "y", tier: "1" },
    { env: "dev", name: "ignored", "7": "z" },
  ];
  const copied = new Graph();
  const adopted = new Graph();
  for (const row of rows) {
    copied.upsertResource("host", "web-1", row);
    adopted.adoptResource("host", "web-1", { name: "", ...row });
  }
  const a = copied.getResource("host", "web-1")!;
  const b = adopted.getResource("host", "web-1")!;
  assertEquals(Object.keys(b.properties), Object.keys(a.properties));
  assertEquals(b.properties, a.properties);
  assertEquals(b.properties.name, "web-1");
});

Deno.test("adoptResource hands the object over to a new resource, merges into an existing one", () => {
  const g = new Graph();
  const mine = { name: "", env: "prod" };
  const r = g.adoptResource("host", "a", mine);
  assert(r.properties === mine);
  assertEquals(mine.name, "a");
  const again = { name: "", env: "dev" };
  assert(g.adoptResource("host", "a", again) === r);
  assert(r.properties === mine);
  assertEquals(r.properties, { name: "a", env: "dev" });
  assertThrows(() => g.adoptResource("", "x", { name: "" }), GraphError);
});

Deno.test("ensureRelation creates a relation once and reports whether it did", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "a");
  const b = g.upsertResource("net", "b");
  assert(g.ensureRelation(a, "net", b));
  assert(!g.ensureRelation(a, "net", b));
  assert(g.ensureRelation(a, "NET", b));
  assertEquals(g.relationCount, 2);
  assertEquals(g.outgoing(a).map((r) => r.type), ["net", "NET"]);
  // An empty type is a type (M12: create_resource without relation_type).
  assert(g.ensureRelation(a, "", b));
  assertEquals(g.outgoing(a).map((r) => r.type), ["net", "NET", ""]);
});

Deno.test("resourcesChangedSince: changed or listed resources in id order, removed ones left out", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "a");
  const b = g.upsertResource("host", "b");
  const c = g.upsertResource("host", "c");
  const start = g.clock;
  assertEquals(g.resourcesChangedSince(start), []);
  assertEquals(g.resourcesChangedSince(-1).map((r) => r.name), ["a", "b", "c"]);
  g.setProperty(c, "env", "prod");
  g.upsertRelation(b, "peer", c); // touches both ends
  assertEquals(g.resourcesChangedSince(start).map((r) => r.name), ["b", "c"]);
  assertEquals(g.resourcesChangedSince(start, new Set([a.id])).map((r) => r.name), [
    "a",
    "b",
    "c",
  ]);
  const mid = g.clock;
  g.removeResource(b);
  assertEquals(g.resourcesChangedSince(mid).map((r) => r.name), ["c"]);
  assert(g.version(c) > mid && g.version(a) <= start);
});

Deno.test("Adjacency: exact lists while building, the same lists once packed", () => {
  const values = Array.from({ length: 40 }, (_, id) => ({ id }));
  const adj = new Adjacency<{ id: number }>((id) => values[id]);
  for (const v of values) adj.add(v.id % 3 === 0 ? 5 : v.id % 7, v.id);
  adj.remove(5, 3);
  const before = Array.from({ length: 9 }, (_, id) => adj.get(id).map((v) => v.id));
  adj.pack(9);
  const after = Array.from({ length: 9 }, (_, id) => adj.get(id).map((v) => v.id));
  assertEquals(after, before);
  assertEquals(adj.count(5), before[5].length);
  assertEquals(adj.get(100), []);
  assertEquals(adj.count(100), 0);
});
