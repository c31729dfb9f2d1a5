/**
 * Issue 15, incremental rebuilds: a change of property cells only (same keys, same relation
 * columns) derives the new graph from the previous one (`properties` mode) instead of replaying
 * the asset phase; the result equals a full build and the previous snapshot is untouched.
 */
import { assert, assertEquals } from "../_assert.ts";
import { IncrementalBuilder } from "../../lib/pipeline/incremental/builder.ts";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { Graph } from "../../lib/graph/graph.ts";
import type { Layer, SourceSet } from "../../lib/workspace/sources.ts";

const OPTIONS = { createTemplates: createTemplateRenderer, phases: defaultPhases };

function sources(files: Record<string, string>): SourceSet {
  const data: Layer = {
    id: "data",
    isDataDir: true,
    location: "memory:",
    files: new Map(Object.entries(files)),
  };
  return { modules: [], data };
}

const NETS = "name,cidr\nnet-a,10.0.0.0/24\nnet-b,10.0.1.0/24\n";
const hosts = (web2: string) => `name,port,network\nweb-1,80,net-a\n${web2}\nweb-3,82,net-b\n`;

Deno.test("A15–A18 a property-only edit derives the graph; it equals a full build; the old graph keeps its values", () => {
  const builder = new IncrementalBuilder();
  const first = builder.build(
    sources({ "assets/host.csv": hosts("web-2,81,net-a"), "assets/network.csv": NETS }),
    OPTIONS,
  );
  const next = sources({ "assets/host.csv": hosts("web-2,99,net-a"), "assets/network.csv": NETS });
  const second = builder.build(next, OPTIONS);
  assertEquals(second.mode, "properties", second.reason);
  const full = buildGraph(next, OPTIONS);
  assertEquals(second.result.graph.toJSON(), full.graph.toJSON());
  assertEquals(second.result.issues, full.issues);
  const web2 = second.result.graph.getResource("host", "web-2")!;
  assertEquals(web2.properties, { name: "web-2", port: "99", network: "net-a" });
  // Relations of the derived graph name its own resources, in both directions.
  const [toNet] = second.result.graph.outgoing(web2);
  assert(toNet.source === web2);
  assertEquals(toNet.target.name, "net-a");
  const netA = second.result.graph.getResource("network", "net-a")!;
  assert(second.result.graph.incoming(netA).some((r) => r.source === web2));
  // The previous snapshot is unchanged.
  assertEquals(first.result.graph.getResource("host", "web-2")!.properties.port, "81");
  assert(first.result.graph.getResource("host", "web-2") !== web2);
});

Deno.test("A15–A18 a changed relation column is not a property-only edit (the row is spliced in again)", () => {
  const builder = new IncrementalBuilder();
  builder.build(
    sources({ "assets/host.csv": hosts("web-2,81,net-a"), "assets/network.csv": NETS }),
    OPTIONS,
  );
  const next = sources({ "assets/host.csv": hosts("web-2,81,net-b"), "assets/network.csv": NETS });
  const second = builder.build(next, OPTIONS);
  // The row is replaced and relinked (row_splice.ts), not derived.
  assertEquals(second.mode, "rows", second.reason);
  assertEquals(second.result.graph.toJSON(), buildGraph(next, OPTIONS).graph.toJSON());
});

Deno.test("Graph.derive keeps relation properties and refuses a name change or an unsealed graph", () => {
  const g = new Graph();
  const a = g.upsertResource("host", "a", { port: "80" });
  const z = g.upsertResource("zone", "z");
  g.upsertRelation(a, "zone", z, { weight: 2 });
  let refused = false;
  try {
    g.derive(new Map());
  } catch {
    refused = true;
  }
  assert(refused, "an unsealed graph was derived");
  g.seal();
  const d = g.derive(new Map([[a.id, { name: "a", port: "81" }]]));
  const [rel] = d.outgoing(d.getResource("host", "a")!);
  assertEquals(rel.properties, { weight: 2 });
  assertEquals(d.relationCount, 1);
  assertEquals(d.resourceCount, 2);
  refused = false;
  try {
    g.derive(new Map([[a.id, { name: "b" }]]));
  } catch {
    refused = true;
  }
  assert(refused, "a name change was accepted");
});

Deno.test("A15–A18 a derived resource keeps the previous graph's values of the cells that did not change", () => {
  const builder = new IncrementalBuilder();
  const row = (port: string) =>
    `name,port,env,network\nweb-1,80,prod,net-a\nweb-2,${port},prod,"net-a, net-b"\n`;
  const first = builder.build(
    sources({ "assets/host.csv": row("81"), "assets/network.csv": NETS }),
    OPTIONS,
  );
  const next = sources({ "assets/host.csv": row("99"), "assets/network.csv": NETS });
  const second = builder.build(next, OPTIONS);
  assertEquals(second.mode, "properties", second.reason);
  assertEquals(second.result.graph.toJSON(), buildGraph(next, OPTIONS).graph.toJSON());
  const before = first.result.graph.getResource("host", "web-2")!.properties;
  const after = second.result.graph.getResource("host", "web-2")!.properties;
  assertEquals(after.port, "99");
  assertEquals(before.port, "81");
  // The two-name relation cell is the same list object: no second copy of an unchanged value.
  assertEquals(after.network, ["net-a", "net-b"]);
  assert(after.network === before.network);
});

Deno.test("A15–A18 a changed row is converted with the previous resource's values of its unchanged cells", async () => {
  const { planAssetReplay } = await import("../../lib/pipeline/incremental/asset_replay.ts");
  const row = (port: string, nets: string) =>
    `name,port,network\nweb-1,80,net-a\nweb-2,${port},"${nets}"\nweb-3,82,net-b\n`;
  const before = sources({
    "assets/host.csv": row("81", "net-a, net-b"),
    "assets/network.csv": NETS,
  });
  const prev = buildGraph(before, OPTIONS);
  const old = prev.graph.getResource("host", "web-2")!.properties;
  for (const [port, nets, same] of [["99", "net-a, net-b", true], ["81", "net-b, net-a", false]]) {
    const after = sources({
      "assets/host.csv": row(port as string, nets as string),
      "assets/network.csv": NETS,
    });
    const plan = planAssetReplay(prev, before, after, ["assets/host.csv"]);
    assert(plan.ok);
    const [converted] = plan.blocks.get("host")!.middle;
    assertEquals(converted.properties.port, port);
    assertEquals(converted.properties.network, (nets as string).split(", "));
    // The same list object when the names are the same, in the same order.
    assertEquals(converted.properties.network === old.network, same);
  }
});
