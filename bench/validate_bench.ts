/**
 * `validate` on the synthetic workspace (bench/generate.ts) with a schema binding every type
 * (reference SV30–SV40): build time, validation time (non-strict and strict, which reads every
 * CSV cell), issue counts and peak RSS. Runs in its own process so peak memory is its own.
 *
 * Usage: deno run -A bench/validate_bench.ts [resources=100000] [types=10]
 *
 * @module
 */
import { generateWorkspace } from "./generate.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { loadSourceSet } from "../lib/workspace/sources.ts";
import { buildGraph } from "../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { validateWorkspace } from "../lib/schema/validate.ts";

const resources = Number(Deno.args[0] ?? 100_000);
const types = Number(Deno.args[1] ?? 10);

function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : Deno.memoryUsage().rss / 1024 / 1024;
}

/** A schema binding every generated type: typed columns, an enum, both relation columns. */
function benchSchema(): string {
  const res: Record<string, unknown> = {};
  for (let t = 0; t < types; t++) {
    const next = `t${(t + 1) % types}`;
    const after = `t${(t + 2) % types}`;
    res[`t${t}`] = {
      required: ["name", "env", "tier", "owner", "size"],
      properties: {
        env: { type: "string", enum: ["prod", "test", "dev"] },
        size: { type: "integer" },
        tier: { type: "string" },
      },
      relations: {
        [next]: { target: next, required: true, cardinality: "one" },
        [after]: { target: after, cardinality: "many" },
      },
    };
  }
  return JSON.stringify({ schema_id: "bench", version: "20260101", resources: res });
}

const files = generateWorkspace(resources, types);
files["schemas/bench.schema.json"] = benchSchema();
const sources = await loadSourceSet(new MemoryWorkspace(files));
const b0 = performance.now();
const result = buildGraph(sources, {
  createTemplates: createTemplateRenderer,
  phases: defaultPhases,
});
const buildMs = performance.now() - b0;
const rssAfterBuild = Deno.memoryUsage().rss / 1024 / 1024;
const input = {
  sources,
  graph: result.graph,
  manifest: result.manifest,
  assets: result.assets,
  buildIssues: result.issues,
};
const v0 = performance.now();
const loose = validateWorkspace(input, { strict: false });
const validateMs = performance.now() - v0;
const s0 = performance.now();
const strict = validateWorkspace(input, { strict: true });
const strictMs = performance.now() - s0;
console.log(JSON.stringify({
  bench: "validate",
  resources: result.stats.resources,
  relations: result.stats.relations,
  buildMs: Math.round(buildMs),
  validateMs: Math.round(validateMs),
  validateStrictMs: Math.round(strictMs),
  issues: { errors: loose.error_count, warnings: loose.warning_count, info: loose.info_count },
  strictIssues: { errors: strict.error_count, warnings: strict.warning_count },
  rssAfterBuildMb: Math.round(rssAfterBuild),
  peakRssMb: Math.round(peakRssMb()),
}));
