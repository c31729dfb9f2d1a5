/**
 * Model phase throughput: N origin resources (default 100 000) and a model file with three rules
 * — `create_resource` with templated and typed properties, `link_resources` with a join (plus a
 * relation and a pulled property), `copy_property` pushing onto the created resources. Prints the
 * whole build time, the model phase time, passes, and peak memory (Deno.memoryUsage sampled at
 * every build-log line, i.e. at least once per model pass).
 *
 * Usage: deno run -A bench/models_bench.ts [origins]
 *
 * @module
 */
import { buildGraph } from "../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { loadSourceSet } from "../lib/workspace/sources.ts";
import { generateHostsAndNetworks } from "./generate.ts";
import { collectRetypeRules, runModelPhase } from "../lib/pipeline/models/mod.ts";

const origins = Number(Deno.args[0] ?? 100_000);

const files: Record<string, string> = {
  ...generateHostsAndNetworks(origins, "net"),
  "models/hosts.toml": `origin_resource = "host"

[[create_resource]]
resource_type = "vm"
name = "{{ origin_resource.name }}-vm"
relation_type = "RUNS_ON"
[create_resource.properties]
env = "{{ origin_resource.env | upper }}"
port = "{{ origin_resource.port }}"
tags = ["managed", "{{ origin_resource.env }}"]
monitored = true

[[link_resources]]
with = "network"
join = { local = "net", remote = "name" }
create_relation = { type = "CONNECTED_TO" }
copy_properties = [ { from = "cidr", as = "net_cidr" } ]

[[copy_property]]
to = "vm"
properties = [ "net_cidr", { from = "env", as = "environment" } ]
`,
};

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = Deno.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};

const sources = await loadSourceSet(new MemoryWorkspace(files));
sample();
let passes = 0;
let converged = false;
let skipped: number[] = [];
const start = performance.now();
const result = buildGraph(sources, {
  createTemplates: (params) => createTemplateRenderer(params),
  phases: {
    collectRetypeRules,
    models: (ctx) => {
      const r = runModelPhase(ctx);
      passes = r.passes;
      converged = r.converged;
      skipped = r.skippedPerPass;
      return r;
    },
  },
  log: sample,
});
const buildMs = performance.now() - start;
sample();

const errors = result.issues.filter((i) => i.severity === "error");
const vm = result.graph.getResource("vm", "host-3-vm")?.properties;
if (errors.length > 0 || vm?.net_cidr !== "10.3.0.0/16" || vm?.environment !== "prod") {
  console.error("unexpected result", errors.slice(0, 3), vm);
  Deno.exit(1);
}
const mb = (n: number) => Math.round(n / 1024 / 1024);
console.log(
  "| origins | resources | relations | build ms | models ms | passes | rules skipped per pass | peak RSS MB | peak heap MB |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
console.log(
  `| ${origins} | ${result.stats.resources} | ${result.stats.relations} | ${
    Math.round(buildMs)
  } | ${Math.round(result.stats.timings.models ?? 0)} | ${passes}${converged ? "" : " (cap)"} | ${
    skipped.join(" / ")
  } | ${mb(peakRss)} | ${mb(peakHeap)} |`,
);
