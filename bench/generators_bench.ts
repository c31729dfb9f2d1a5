/**
 * Generators benchmark (issue 12): one http generator with 50 cursor-paginated pages
 * (`inject_into = "query"`, a `jmespath!` filter, 100 objects per page) against a local server on
 * 127.0.0.1, written through a DenoFsWorkspace. Reports pages/s and the total time per run
 * (median of the runs; the first run is a warm-up and not counted).
 *
 * Usage: deno run -A bench/generators_bench.ts [--pages=50] [--items=100] [--runs=10]
 *
 * @module
 */
import { GeneratorScheduler } from "../lib/generators/mod.ts";
import { denoGeneratorHost } from "../lib/runtime/deno/generators.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";

const flags = new Map<string, string>();
for (const arg of Deno.args) {
  const m = /^--([\w-]+)=(.*)$/.exec(arg);
  if (m) flags.set(m[1], m[2]);
}
const PAGES = Number(flags.get("pages") ?? 50);
const ITEMS = Number(flags.get("items") ?? 100);
const RUNS = Number(flags.get("runs") ?? 10);

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
  const after = Number(new URL(req.url).searchParams.get("after") ?? "0");
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    name: `item-${after}-${i}`,
    region: "eu-central-2",
    tags: ["a", "b"],
  }));
  return Response.json({ items, next: after + 1 < PAGES ? String(after + 1) : null });
});
const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
const dir = await Deno.makeTempDir({ prefix: "graphsvc-gen-bench-" });
await Deno.writeTextFile(
  `${dir}/module.toml`,
  `[generator.items]
url = "${base}/items{% if cursor %}?after={{ cursor }}{% endif %}"
target_input = "items.json"
response_filter = { "jmespath!" = "items" }
pagination = { cursor_jmespath = "next", inject_into = "query", max_pages = ${PAGES + 1} }
`,
);
const scheduler = new GeneratorScheduler({
  workspace: new DenoFsWorkspace(dir),
  host: denoGeneratorHost(dir),
});
const times: number[] = [];
let bytes = 0;
for (let run = 0; run <= RUNS; run++) {
  scheduler.requestFullRun();
  await Deno.remove(`${dir}/input/items.json`).catch(() => {});
  const t0 = performance.now();
  const summary = await scheduler.run(() => {});
  const ms = performance.now() - t0;
  if (summary.run !== 1) throw new Error(JSON.stringify(summary.outcomes));
  if (run > 0) times.push(ms);
  bytes = (await Deno.stat(`${dir}/input/items.json`)).size;
}
await server.shutdown();
await Deno.remove(dir, { recursive: true });
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log("| pages | objects/page | target bytes | total ms (median) | min ms | pages/s |");
console.log("| --- | --- | --- | --- | --- | --- |");
console.log(
  `| ${PAGES} | ${ITEMS} | ${bytes} | ${median.toFixed(1)} | ${times[0].toFixed(1)} | ${
    (PAGES / (median / 1000)).toFixed(0)
  } |`,
);
console.log(`\nload average: ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
