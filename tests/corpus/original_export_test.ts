/**
 * The original's own graph export (issue 27 §1): rescile/aws_transit_hub's graph150.json, which
 * the original exported from that repository's data. The corpus holds a later commit of the
 * same module (its `provider` became `platform`), so the rules the export showed are checked on
 * the corpus copy: reference M12 (identity -[""]-> login, six of them), M15 (the globally
 * created resource hangs off the root), type-named properties as lists. Needs --allow-read.
 */
import { assert, assertEquals } from "../_assert.ts";
import { loadCorpus, SKIP_CORPUS } from "./_corpus.ts";
import { buildSources } from "../pipeline/outputs/_support.ts";
import { graphToRescileJson, RESCILE_ROOT_ID } from "../../lib/graph/rescile_json.ts";

Deno.test({
  name:
    "M12/M15 corpus aws_transit_hub: the export holds the original's empty-typed and root edges",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const r = buildSources(await loadCorpus("aws_transit_hub"));
    const out = graphToRescileJson(r.graph, { isGlobal: (x) => r.provenance.isGlobal(x.id) });
    const label = new Map(out.vertices.map((v) => [v.id, v.label]));
    const empty = out.edges.filter((e) => e.label === "" && e.start_id !== RESCILE_ROOT_ID);
    assertEquals(empty.map((e) => `${label.get(e.start_id)}->${label.get(e.end_id)}`), [
      ...Array(6).fill("identity->login"),
    ]);
    const roots = out.edges.filter((e) => e.start_id === RESCILE_ROOT_ID);
    // models/platform.toml has no origin_resource: its platform is created globally.
    assertEquals(roots.map((e) => label.get(e.end_id)), ["platform"]);
    const platform = out.vertices.find((v) => v.label === "platform")!;
    // `region = "{{ ... }}"` names a region created after the platform: a list of its name.
    assertEquals(platform.properties.region, ["eu-central-2"]);
    assertEquals(
      r.graph.getResource("platform", platform.properties.name as string)!
        .properties.region,
      "eu-central-2",
    );
    assert(out.vertices.length === r.graph.resourceCount);
  },
});
