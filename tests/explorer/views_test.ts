// The explorer's read models (lib/explorer/views.ts) on small graphs.
import { assertEquals } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { columnsOf, typeTable } from "../../lib/explorer/views.ts";
import { neighbourhood } from "../../lib/explorer/neighbourhood.ts";

function chain(n: number): Graph {
  const g = new Graph();
  let prev = g.upsertResource("n", "n0");
  for (let i = 1; i < n; i++) {
    const next = g.upsertResource("n", `n${i}`, { i, ...(i % 2 ? { odd: true } : {}) });
    g.upsertRelation(prev, i % 2 ? "A" : "B", next);
    prev = next;
  }
  g.seal();
  return g;
}

Deno.test("columns: name first, then keys in first-seen order", () => {
  assertEquals(columnsOf(chain(4), "n"), ["name", "i", "odd"]);
});

Deno.test("table: numbers sort numerically, empty cells last, pages and filters", () => {
  const g = chain(12);
  const asc = typeTable(g, "n", { sort: "i", limit: 3 });
  assertEquals(asc.rows.map((r) => r.name), ["n1", "n2", "n3"]);
  const desc = typeTable(g, "n", { sort: "i", desc: true, limit: 2 });
  assertEquals(desc.rows.map((r) => r.name), ["n0", "n11"], "reversed: the empty cell first");
  const odd = typeTable(g, "n", { filters: { odd: "true" }, offset: 1, limit: 2 });
  assertEquals(odd.total, 6);
  assertEquals(odd.rows.map((r) => r.name), ["n11", "n3"]);
});

Deno.test("neighbourhood: depth 1–3 both directions, label filter, node limit", () => {
  const g = chain(10);
  const ids = (d: number, labels: string[] = [], max = 300) =>
    neighbourhood(g, "n", "n5", d, labels, max)!.nodes.map((n) => n.id);
  assertEquals(ids(1), ["n/n5", "n/n6", "n/n4"]);
  assertEquals(ids(3).length, 7);
  assertEquals(ids(3, ["A"]), ["n/n5", "n/n4"], "n5 -A- n4 only: n5 -B- n6 is not followed");
  const cut = neighbourhood(g, "n", "n5", 3, [], 2)!;
  assertEquals(cut.nodes.length, 2);
  assertEquals(cut.truncated, true);
  assertEquals(neighbourhood(g, "n", "nope", 1), undefined);
});
