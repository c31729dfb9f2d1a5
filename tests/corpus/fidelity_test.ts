/**
 * Model fidelity on real modules (issue 19 items 5–7): what the corpus builds must not carry
 * artefacts of our own parsing. Needs --allow-read (skipped without the corpus).
 */
import { assert, assertEquals } from "../_assert.ts";
import { loadCorpus, SKIP_CORPUS } from "./_corpus.ts";
import { buildSources } from "../pipeline/outputs/_support.ts";

function corpusTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `corpus fidelity: ${name}`, ignore: SKIP_CORPUS, fn });
}

corpusTest(
  "M21/M60/M5 aws-region actions branch: json_encode lists give unquoted names",
  async () => {
    const r = buildSources(await loadCorpus("aws-region-module__actions-branch"));
    const names = (type: string) =>
      [...r.graph.resources()].filter((x) => x.type === type).map((x) => x.name).sort();
    // models/network.toml: subnets = ["a","b"] for transit via json_encode, gateways
    // ["Salesforce"] / [property.value]; subnet.toml and gateway.toml create_from them.
    assertEquals(names("subnet"), ["transit_subnet_a", "transit_subnet_b"]);
    assertEquals(names("gateway"), ["aws_management_gateway", "aws_salesforce_gateway"]);
    for (const i of r.issues) {
      assert(!/'\["|"\]'|'\[\]'/.test(i.message), `fragment of a JSON list: ${i.message}`);
    }
  },
);
