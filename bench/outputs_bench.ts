/**
 * Output phase throughput: N origin resources (default 10 000), each with a related resource,
 * one Tera output (JSON object, downloadable) and one Jsonnet output (text, downloadable) per
 * origin. Prints total build time, the output phase time and artifacts per second.
 *
 * Usage: deno run bench/outputs_bench.ts [origins]
 *
 * @module
 */
import { buildGraph } from "../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { loadSourceSet } from "../lib/workspace/sources.ts";
import { generateHostsAndNetworks } from "./generate.ts";
import { runCompliancePhase } from "../lib/pipeline/compliance/mod.ts";
import { runOutputPhase } from "../lib/pipeline/outputs/mod.ts";

const origins = Number(Deno.args[0] ?? 10_000);

const files: Record<string, string> = {
  ...generateHostsAndNetworks(origins, "network"),
  "output/tera.toml": `origin_resource = "host"
[[output]]
resource_type = "host_config"
name = "cfg-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.json"
mimetype = "application/json"
template = '''
{
  "host": {{ origin_resource.name | json_encode | safe }},
  "env": "{{ origin_resource.env }}",
  "port": {{ origin_resource.port }},
  "network": "{{ origin_resource.network[0].name }}",
  "cidr": "{{ origin_resource.network[0].cidr }}"
}
'''
`,
  "output/jsonnet.toml": `origin_resource = "host"
[[output]]
resource_type = "host_script"
name = "script-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.sh"
mimetype = "text/x-shellscript"
jsonnet = '''
local h = std.extVar("origin_resource");
local net = h.network[0];
std.join("\\n", [
  "#!/bin/sh",
  std.format("ip addr add %s dev eth0 # %s", [net.cidr, h.name]),
  std.format("firewall allow %d/tcp", std.parseInt(h.port)),
]) + "\\n"
'''
`,
};

const sources = await loadSourceSet(new MemoryWorkspace(files));
const start = performance.now();
const result = buildGraph(sources, {
  createTemplates: (p) => createTemplateRenderer(p),
  phases: { compliance: runCompliancePhase, outputs: runOutputPhase },
});
const total = performance.now() - start;
const errors = result.issues.filter((i) => i.severity === "error");
if (errors.length > 0) {
  console.error(errors.slice(0, 5));
  Deno.exit(1);
}
const outputMs = result.stats.timings["output"] ?? NaN;
const n = result.artifacts.length;
console.log(
  JSON.stringify({
    origins,
    artifacts: n,
    build_ms: Math.round(total),
    output_phase_ms: Math.round(outputMs),
    artifacts_per_second: Math.round(n / (outputMs / 1000)),
    artifacts_per_second_whole_build: Math.round(n / (total / 1000)),
  }),
);
