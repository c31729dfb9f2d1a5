/**
 * Auto-linking (reference M60–M64): convention relations from properties named after types,
 * including repeated runs over one graph (after assets, models, compliance), which only revisit
 * resources that changed or had unresolved names.
 */
import { deepStrictEqual as assertEquals, equal } from "node:assert/strict";
import { Graph } from "../../lib/graph/graph.ts";
import { IssueCollector } from "../../lib/pipeline/issues.ts";
import { autoLink, splitNames } from "../../lib/pipeline/linking.ts";

function edges(g: Graph): string[] {
  return [...g.relations()].map((r) => `${r.source.name}-${r.type}->${r.target.name}`).sort();
}

Deno.test("M60/M61 a property named after a type links each comma item; self-links skipped", () => {
  const g = new Graph();
  g.upsertResource("db", "a");
  g.upsertResource("db", "b");
  g.upsertResource("svc", "api", { db: " a, b ,", name: "api" });
  g.upsertResource("db", "c", { db: "c" });
  const issues = new IssueCollector();
  equal(autoLink(g, issues), 2);
  assertEquals(edges(g), ["api-db->a", "api-db->b"]);
  assertEquals(issues.all, []);
});

Deno.test("M62 splitNames: arrays, numbers, commas, blanks", () => {
  assertEquals(splitNames(["x", 2, { a: 1 } as never, "y, z"]), ["x", "2", "y", "z"]);
  assertEquals(splitNames("  solo "), ["solo"]);
  assertEquals(splitNames(" , "), []);
  assertEquals(splitNames(null), []);
});

Deno.test("M63 a later run links names that resolve only now, and changed values", () => {
  const g = new Graph();
  g.upsertResource("db", "a");
  const svc = g.upsertResource("svc", "api", { db: "a,late" });
  const other = g.upsertResource("svc", "web", { db: "a" });
  const issues = new IssueCollector();
  equal(autoLink(g, issues), 2);
  equal(issues.all.filter((i) => i.code === "relation_target_missing").length, 1);
  // a later phase creates the missing target and changes another value
  g.upsertResource("db", "late");
  g.upsertResource("db", "b");
  g.setProperty(other, "db", "b");
  equal(autoLink(g, issues), 2);
  assertEquals(edges(g), ["api-db->a", "api-db->late", "web-db->a", "web-db->b"]);
  equal(autoLink(g, issues), 0, "nothing left to do");
  equal(g.outgoing(svc).length, 2);
});

Deno.test("M60 a type that appears later turns existing properties into relations", () => {
  const g = new Graph();
  g.upsertResource("svc", "api", { team: "core" });
  equal(autoLink(g, new IssueCollector()), 0);
  g.upsertResource("team", "core");
  equal(autoLink(g, new IssueCollector()), 1);
  assertEquals(edges(g), ["api-team->core"]);
});

Deno.test("M55-M57 retype rules relabel convention relations of their origin type", () => {
  const g = new Graph();
  g.upsertResource("host", "h1");
  g.upsertResource("app", "shop", { db_host: "h1" });
  autoLink(g, new IssueCollector(), {
    retypeRules: [{
      originType: "app",
      propertyKey: "db_host",
      newType: "USES",
      targetType: "host",
    }],
  });
  assertEquals(edges(g), ["shop-USES->h1"]);
});
