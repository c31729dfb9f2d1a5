/**
 * Per-snapshot GraphQL state of a derived graph (issue 15: a property-only write must not cost a
 * scan of the whole graph on the first read): the schema model and sorted lists are carried over
 * from the graph it was derived from when the changed resources keep their keys and value kinds,
 * and rebuilt otherwise; either way they describe the derived graph (G4, G11).
 */
import { assert, assertEquals } from "../_assert.ts";
import { Graph, type Properties } from "../../lib/graph/graph.ts";
import { graphState } from "../../lib/api/graphql/snapshot.ts";
import { buildSchemaModel } from "../../lib/api/graphql/model.ts";

function base(): Graph {
  const g = new Graph();
  const web = g.upsertResource("host", "web", { port: "80", env: "prod" });
  g.upsertResource("host", "db", { port: "5432", env: "prod" });
  g.upsertRelation(web, "zone", g.upsertResource("zone", "z"));
  g.seal();
  return g;
}

Deno.test("G4 a derived graph with the same keys and kinds carries the model and sorted lists over", () => {
  const g = base();
  const state = graphState(g);
  const model = state.model;
  const sorted = state.sortedOf("host");
  const web = g.getResource("host", "web")!;
  const d = g.derive(new Map([[web.id, { name: "web", port: "8080", env: "test" }]]));
  const derived = graphState(d);
  assert(derived.model === model, "the model was rebuilt");
  assertEquals(derived.signature, state.signature);
  const list = derived.sortedOf("host");
  assertEquals(list.map((r) => r.name), sorted.map((r) => r.name));
  assert(list.every((r) => d.getResourceById(r.id) === r), "sorted list of the base graph");
  assertEquals(list.find((r) => r.name === "web")!.properties.port, "8080");
  assertEquals(derived.relationAverage("host", "zone"), state.relationAverage("host", "zone"));
});

Deno.test("G11 a derived graph whose changed resource gains a key or a kind gets a new model", () => {
  const g = base();
  const model = graphState(g).model;
  const web = g.getResource("host", "web")!;
  const variants: Properties[] = [
    { name: "web", port: "80", env: "prod", extra: "x" },
    { name: "web", port: 80, env: "prod" },
  ];
  for (const properties of variants) {
    const d = g.derive(new Map([[web.id, properties]]));
    const derived = graphState(d).model;
    assert(derived !== model, JSON.stringify(properties));
    assertEquals(JSON.stringify(derived.types), JSON.stringify(buildSchemaModel(d).types));
  }
});
