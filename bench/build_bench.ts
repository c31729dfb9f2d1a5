/**
 * One benchmark run at one size (run in its own process so peak memory is its own):
 * load + build time, peak RSS, and the latency of a typical GraphQL query through the real app.
 *
 * Usage: deno run -A bench/build_bench.ts <resources> [types]
 *
 * @module
 */
import { generateWorkspace } from "./generate.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";
import { GraphEngine } from "../lib/engine.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { createApp } from "../lib/api/app.ts";

const resources = Number(Deno.args[0] ?? 1000);
const types = Number(Deno.args[1] ?? 10);
const dir = new URL(`./.work/ws-${resources}-${types}/`, import.meta.url).pathname;

async function ensureWorkspace(): Promise<void> {
  try {
    await Deno.stat(`${dir}/assets/t0.csv`);
    return;
  } catch { /* generate */ }
  for (const [path, text] of Object.entries(generateWorkspace(resources, types))) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
}

function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : Deno.memoryUsage().rss / 1024 / 1024;
}

await ensureWorkspace();
const engine = new GraphEngine({
  workspace: new DenoFsWorkspace(dir),
  createTemplates: createTemplateRenderer,
  phases: defaultPhases,
});
const t0 = performance.now();
const snapshot = await engine.rebuild();
const buildMs = performance.now() - t0;
if (engine.status?.status !== "ok") throw new Error(`build failed: ${engine.status?.error}`);

const app = createApp(engine);
const query = `{ t0(filter: { env: "prod", tier: { in: ["tier-0", "tier-1"] } }) {
  name size t1 { node { name owner } } t2 { node { name } } } }`;
const ask = async () => {
  const res = await app.fetch(
    new Request("http://bench/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    }),
  );
  const body = await res.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body;
};
const q0 = performance.now();
await ask(); // first query includes building the GraphQL schema of the snapshot
const firstQueryMs = performance.now() - q0;
const samples: number[] = [];
for (let i = 0; i < 30; i++) {
  const s = performance.now();
  await ask();
  samples.push(performance.now() - s);
}
samples.sort((a, b) => a - b);
console.log(JSON.stringify({
  resources: snapshot.stats.resources,
  relations: snapshot.stats.relations,
  buildMs: Math.round(buildMs),
  loadAndFirstQueryMs: Math.round(buildMs + firstQueryMs),
  firstQueryMs: Math.round(firstQueryMs),
  queryMedianMs: Number(samples[15].toFixed(2)),
  queryP90Ms: Number(samples[27].toFixed(2)),
  peakRssMb: Math.round(peakRssMb()),
}));
