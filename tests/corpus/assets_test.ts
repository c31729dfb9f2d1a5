/** Every corpus data directory loads its assets without errors (issue 2). */
import { assert, assertEquals } from "../_assert.ts";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { corpusEntries, loadCorpus, SKIP_CORPUS } from "./_corpus.ts";

const ASSET_PHASES = new Set(["assets", "link:assets", "params", "modules"]);

Deno.test({
  name: "corpus: every module loads its assets with no asset-phase errors",
  ignore: SKIP_CORPUS,
  fn: async (t) => {
    const entries = corpusEntries();
    assert(entries.length >= 10, `found ${entries.length} corpus entries`);
    for (const { name } of entries) {
      await t.step(name, async () => {
        const result = buildGraph(await loadCorpus(name), {
          createTemplates: createTemplateRenderer,
          phases: {},
        });
        const errors = result.issues.filter((i) =>
          i.severity === "error" && ASSET_PHASES.has(i.phase ?? "")
        );
        assertEquals(errors, []);
      });
    }
  },
});

Deno.test({
  name: "corpus facts: public_dns keys by the name column in a sub-folder; vault_example links",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const dns = buildGraph(await loadCorpus("public_dns"), {
      createTemplates: createTemplateRenderer,
      phases: {},
    });
    assert(
      dns.graph.getResource("auth", "rescile.com") ?? dns.graph.resourcesOf("auth").length > 50,
    );
    assert(dns.graph.resourcesOf("ns").length > 600, `ns: ${dns.graph.resourcesOf("ns").length}`);
    const vault = buildGraph(await loadCorpus("vault_example"), {
      createTemplates: createTemplateRenderer,
      phases: {},
    });
    const types = new Set(
      [...vault.graph.relations()].map((r) => `${r.source.type}-${r.type}->${r.target.type}`),
    );
    assert(types.has("secret-vault->vault"), [...types].join(", "));
    assert(types.has("client-secret->secret"), [...types].join(", "));
    const terraform = buildGraph(await loadCorpus("rescile-example-terraform"), {
      createTemplates: createTemplateRenderer,
      phases: {},
    });
    const sub = terraform.graph.resourcesOf("subscription")[0];
    assertEquals(sub.properties.subscription, sub.name);
  },
});
