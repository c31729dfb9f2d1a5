// Relations kept as numbers until asked for, and linking by name (issue 15): what readers see
// does not change — one object per relation (O5), the same before and after sealing — and
// auto-linking's lookup by name (A20) links once and names no missing resource.
import { assert, assertEquals } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";

Deno.test("O5 a relation is one object wherever it is read, before and after sealing", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "a");
  const b = g.upsertResource("host", "b");
  assert(g.ensureRelation(a, "peer", b));
  g.ensureRelation(b, "peer", a);
  const first = g.outgoing(a)[0];
  assert(g.incoming(b)[0] === first);
  assert(g.getRelation(a, "peer", b) === first);
  assert([...g.relations()][0] === first);
  g.upsertRelation(a, "peer", b, { weight: 2 });
  assertEquals(first.properties, { weight: 2 });
  g.seal();
  assert(g.outgoing(a)[0] === first);
  const second = g.incoming(a)[0];
  assert(g.outgoing(b)[0] === second);
  assertEquals([second.source.name, second.type, second.target.name], ["b", "peer", "a"]);
  assertEquals(second.properties, {});
});

Deno.test("O5 a removed relation is gone from every list and can be created again", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "a");
  const b = g.upsertResource("host", "b");
  const r = g.upsertRelation(a, "peer", b);
  g.removeRelation(r);
  g.removeRelation(r); // twice is harmless
  assertEquals([g.relationCount, [...g.relations()], g.outgoing(a), g.incoming(b)], [
    0,
    [],
    [],
    [],
  ]);
  const again = g.upsertRelation(a, "peer", b);
  assert(again !== r && again.id !== r.id);
  assertEquals([...g.relations()], [again]);
});

Deno.test("A20 linkByName links to the named resource once and returns its own name string", () => {
  const g = new Graph();
  const web = g.upsertResource("host", "web-1");
  const net = g.upsertResource("network", "net-1");
  const cell = "x,net-1".slice(2); // an equal string, not the resource's
  assert(g.linkByName(web, "network", "network", cell) === net.name);
  assertEquals(g.linkByName(web, "network", "network", "net-1"), "net-1");
  assertEquals(g.relationCount, 1);
  assertEquals(g.linkByName(web, "network", "network", "net-2"), undefined);
  assertEquals(g.linkByName(web, "zone", "zone", "z"), undefined);
  assertEquals(g.relationCount, 1);
  const [r] = g.outgoing(web);
  assertEquals([r.type, r.target === net, g.incoming(net)[0] === r], ["network", true, true]);
});

Deno.test("O5 relations past the fan-out index keep one relation per (type, target)", () => {
  const g = new Graph();
  const hub = g.upsertResource("hub", "h");
  const leaves = Array.from({ length: 40 }, (_, i) => g.upsertResource("leaf", `l${i}`));
  for (let round = 0; round < 2; round++) {
    for (const leaf of leaves) g.linkByName(hub, "has", "leaf", leaf.name);
    for (const leaf of leaves) g.ensureRelation(hub, "sees", leaf);
  }
  assertEquals(g.relationCount, 80);
  assertEquals(g.outgoing(hub, "has").map((r) => r.target.name), leaves.map((l) => l.name));
  assert(g.getRelation(hub, "sees", leaves[39])?.target === leaves[39]);
});
