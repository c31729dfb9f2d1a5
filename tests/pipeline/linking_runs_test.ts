/**
 * Repeated auto-link runs over one graph (M60–M64, issue 15): a run visits only resources changed
 * since the last run (the graph's change clock) or with names that did not resolve then, and
 * linking never changes a property's value.
 */
import { assert, assertEquals } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { IssueCollector } from "../../lib/pipeline/issues.ts";
import { autoLink } from "../../lib/pipeline/linking.ts";

const missing = (issues: IssueCollector) =>
  issues.all.filter((i) => i.code === "relation_target_missing").map((i) => i.message);

Deno.test("M63 unresolved names are retried (and warned) in every later run until they resolve", () => {
  const g = new Graph();
  g.upsertResource("db", "a");
  g.upsertResource("svc", "ok", { db: "a" });
  g.upsertResource("svc", "broken", { db: "nope" });
  assertEquals(autoLink(g, new IssueCollector(), { warnMissing: false }), 1);
  const second = new IssueCollector();
  assertEquals(autoLink(g, second), 0);
  assertEquals(missing(second), ["svc 'broken': db = 'nope' names no db"]);
  const third = new IssueCollector();
  autoLink(g, third);
  assertEquals(missing(third).length, 1, "still unresolved: warned again");
  g.upsertResource("db", "nope");
  const fourth = new IssueCollector();
  assertEquals(autoLink(g, fourth), 1);
  assertEquals(missing(fourth), []);
});

Deno.test("M63 a relation removed by a later phase comes back in the next run", () => {
  const g = new Graph();
  const a = g.upsertResource("db", "a");
  const svc = g.upsertResource("svc", "api", { db: "a" });
  assertEquals(autoLink(g, new IssueCollector()), 1);
  g.removeRelation(g.getRelation(svc, "db", a)!);
  assertEquals(autoLink(g, new IssueCollector()), 1);
  assertEquals(g.outgoing(svc).map((r) => r.target.name), ["a"]);
  assertEquals(autoLink(g, new IssueCollector()), 0);
});

Deno.test("M60 linking keeps property values as they are (frozen lists included)", () => {
  const g = new Graph();
  g.upsertResource("db", "a");
  g.upsertResource("db", "b");
  const list = ["a", "b"];
  const frozen = Object.freeze(["b", "a"]) as unknown as string[];
  const x = g.upsertResource("svc", "x", { db: list });
  const y = g.upsertResource("svc", "y", { db: frozen });
  const z = g.upsertResource("svc", "z", { db: " a " });
  assertEquals(autoLink(g, new IssueCollector()), 5);
  assertEquals(x.properties.db, ["a", "b"]);
  assert(x.properties.db === list);
  assertEquals(y.properties.db, ["b", "a"]);
  assertEquals(z.properties.db, " a ");
});
