/**
 * The original's export shape (issue 27 §1; reference M12, M15, settled on rescile/aws_transit_hub
 * graph150.json): vertices/edges with start_id/end_id, root edges, type-named property lists.
 */
import { assert, assertEquals } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { graphToRescileJson, nameUuid, RESCILE_ROOT_ID } from "../../lib/graph/rescile_json.ts";

function sample() {
  const g = new Graph();
  const sub = g.upsertResource("subscription", "dev", { stage: "dev" });
  const provider = g.upsertResource("provider", "aws", { region: "eu-central-2", b: 1, a: 2 });
  const router = g.upsertResource("router", "r1", { provider: "aws" });
  const region = g.upsertResource("region", "eu-central-2");
  g.upsertRelation(sub, "BASELINE_TEMPLATE", provider, { since: "x" });
  g.upsertRelation(provider, "PROVIDED_BY", router);
  g.upsertRelation(provider, "MANAGED_BY", region);
  g.upsertRelation(sub, "", router);
  return { g, sub, provider, router, region };
}

Deno.test("export shape: vertices {id,label,properties}, edges {id,label,properties,start_id,end_id}", () => {
  const { g, sub } = sample();
  const out = graphToRescileJson(g, { isGlobal: (r) => r.id === sub.id });
  assertEquals(out.vertices.map((v) => v.label), ["subscription", "provider", "router", "region"]);
  const byLabel = new Map(out.vertices.map((v) => [v.label, v]));
  assertEquals(Object.keys(byLabel.get("provider")!.properties), ["a", "b", "name", "region"]);
  // Relations in the graph's order (by source), then the root edges.
  assertEquals(out.edges.map((e) => e.label), [
    "BASELINE_TEMPLATE",
    "PROVIDED_BY",
    "MANAGED_BY",
    "",
    "",
  ]);
  assertEquals(out.edges[0].properties, { since: "x" });
  const root = out.edges.at(-1)!;
  assertEquals([root.start_id, root.end_id], [RESCILE_ROOT_ID, byLabel.get("subscription")!.id]);
  assert(out.vertices.every((v) => v.id !== RESCILE_ROOT_ID), "the root is no vertex");
  const ids = [...out.vertices, ...out.edges].map((x) => x.id);
  assertEquals(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id));
  }
});

Deno.test("type-named properties: a list; earlier resources embedded with their id, others by name", () => {
  const { g } = sample();
  const out = graphToRescileJson(g);
  const byLabel = new Map(out.vertices.map((v) => [v.label, v]));
  // router.provider names a provider created before the router: embedded, keys sorted.
  assertEquals(byLabel.get("router")!.properties.provider, [{
    a: 2,
    b: 1,
    id: byLabel.get("provider")!.id,
    name: "aws",
    region: "eu-central-2",
  }]);
  // provider.region names a region created after the provider: its name, in a list.
  assertEquals(byLabel.get("provider")!.properties.region, ["eu-central-2"]);
  // The graph itself keeps the strings.
  assertEquals(g.getResource("provider", "aws")!.properties.region, "eu-central-2");
});

Deno.test("ids are name-based: two exports of one graph are equal", () => {
  assertEquals(graphToRescileJson(sample().g), graphToRescileJson(sample().g));
  assert(nameUuid("host", "web-1") !== nameUuid("host", "web-2"));
  assertEquals(nameUuid("host", "web-1"), nameUuid("host", "web-1"));
});
