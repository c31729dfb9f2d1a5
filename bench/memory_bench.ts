/**
 * Memory and cold-build figures of one synthetic workspace size (the rows of the performance
 * table that scale with the graph), each measured in its own process:
 *
 * - `heap`: retained heap per resource of a held build result (`gc()`, then
 *   `Deno.memoryUsage().heapUsed` before and after building and holding it), beside the heap of
 *   the same CSVs parsed by papaparse into a `Map` of row objects (the raw rows).
 * - `rss`: peak RSS across repeated full rebuilds (sources read again, the sliced build the engine
 *   runs; the previous result stays held while the next one builds, as a published snapshot
 *   does) against the steady state (RSS after the first build and a `gc()`); the peak is reset
 *   through `/proc/self/clear_refs` after the steady state is read. Full rebuilds, not the
 *   engine's incremental ones: this row measures what a whole graph costs. What sets the peak
 *   (measured at 100k, V8 of Deno 2.9): V8 lets the old generation grow to about 4× its live
 *   size at the last full collection (plus the young generation) before it collects again
 *   (external memory, such as typed arrays, gets little headroom: its growth starts a
 *   collection sooner), and every full rebuild leaves a whole graph as garbage; so the garbage
 *   of earlier rebuilds piles up until then, mostly regardless of a build's own temporary
 *   allocations, and a full collection that runs while both graphs are alive sets a higher
 *   limit for the rest of the run (the occasional ~2.3–2.5× runs). A smaller steady state
 *   raises the ratio though the peak does not move: read it beside `steadyRssMb` and
 *   `peakRssMb`.
 * - `time`: a cold full build (in-memory sources to sealed graph, all phases) against parsing the
 *   same CSV texts with papaparse into a `Map` of row objects, alternated in one process: the
 *   ratio of the medians of wall-clock times, and of the summed process CPU times (less
 *   sensitive to other load on the machine).
 *
 * Usage: deno run -A --v8-flags=--expose-gc bench/memory_bench.ts <resources> <heap|rss|time>
 * Prints one JSON line. Other V8 flags stay at their defaults (as `deno task start` runs): the
 * peak RSS depends on how far V8 lets the heap grow before a full collection, e.g. a raised
 * `--max-old-space-size` lets garbage of earlier builds pile up longer.
 *
 * @module
 */
import Papa from "papaparse";
import { generateWorkspace } from "./generate.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";
import { loadSourceSet } from "../lib/workspace/sources.ts";
import { buildGraph, buildGraphSliced, type BuildResult } from "../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";

const resources = Number(Deno.args[0] ?? 10_000);
const mode = Deno.args[1] ?? "heap";
const types = 10;
const dir = new URL(`./.work/ws-${resources}-${types}/`, import.meta.url).pathname;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

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

function procStatusKb(field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) : NaN;
}

/** CPU time of this process (all threads, user + system) in ms: robust against a busy machine. */
function cpuMs(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in 1/100 s
}

function fullGc(): void {
  for (let i = 0; i < 3; i++) gc!();
}

/** The peer: every CSV parsed by papaparse into a Map of row objects keyed by `name`. */
function papaparseIntoMap(texts: string[]): Map<string, Record<string, string>> {
  const rows = new Map<string, Record<string, string>>();
  for (const text of texts) {
    const parsed = Papa.parse(text, { header: true, skipEmptyLines: true });
    for (const row of parsed.data as Record<string, string>[]) rows.set(row.name, row);
  }
  return rows;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await ensureWorkspace();
const workspace = new DenoFsWorkspace(dir);
const sources = await loadSourceSet(workspace, []);
const csvTexts = [...sources.data.files]
  .filter(([path]) => path.endsWith(".csv"))
  .map(([, text]) => text);
const build = (): BuildResult =>
  buildGraph(sources, { createTemplates: createTemplateRenderer, phases: defaultPhases });

if (mode === "heap") {
  fullGc();
  const h0 = Deno.memoryUsage().heapUsed;
  let rows: Map<string, Record<string, string>> | undefined = papaparseIntoMap(csvTexts);
  fullGc();
  const rawRowsBytes = Deno.memoryUsage().heapUsed - h0;
  const rowCount = rows.size;
  rows = undefined;
  fullGc();
  const h1 = Deno.memoryUsage().heapUsed;
  let held: BuildResult | undefined = build();
  fullGc();
  const h2 = Deno.memoryUsage().heapUsed;
  const count = held.graph.resourceCount;
  held = undefined;
  console.log(JSON.stringify({
    resources: count,
    retainedBytesPerResource: Math.round((h2 - h1) / count),
    rawRowBytesPerResource: Math.round(rawRowsBytes / rowCount),
  }));
} else if (mode === "rss") {
  const rebuilds = 5;
  const rebuild = async () =>
    buildGraphSliced(await loadSourceSet(workspace, []), {
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
    });
  let current = await rebuild();
  if (!current.ok) throw new Error("build failed");
  fullGc();
  const steadyKb = procStatusKb("VmRSS");
  const firstPeakKb = procStatusKb("VmHWM");
  let reset = true;
  try {
    Deno.writeTextFileSync("/proc/self/clear_refs", "5"); // resets VmHWM to the current RSS
  } catch {
    reset = false;
  }
  for (let i = 0; i < rebuilds; i++) current = await rebuild(); // the old one held meanwhile
  const peakKb = procStatusKb("VmHWM");
  console.log(JSON.stringify({
    resources: current.graph.resourceCount,
    rebuilds,
    steadyRssMb: Math.round(steadyKb / 1024),
    firstBuildPeakRssMb: Math.round(firstPeakKb / 1024),
    peakRssMb: Math.round(peakKb / 1024),
    peakResetWorked: reset,
    ratio: Number((peakKb / steadyKb).toFixed(2)),
  }));
} else if (mode === "time") {
  const runs = resources >= 100_000 ? 3 : 7;
  const buildMs: number[] = [];
  const peerMs: number[] = [];
  const buildCpu: number[] = [];
  const peerCpu: number[] = [];
  let count = 0;
  for (let i = 0; i < runs + 1; i++) {
    fullGc();
    let t = performance.now();
    let c = cpuMs();
    const rows = papaparseIntoMap(csvTexts);
    const peer = performance.now() - t;
    const peerC = cpuMs() - c;
    if (rows.size === 0) throw new Error("papaparse found no rows");
    fullGc();
    t = performance.now();
    c = cpuMs();
    const result = build();
    const own = performance.now() - t;
    const ownC = cpuMs() - c;
    if (!result.ok) throw new Error("build failed");
    count = result.graph.resourceCount;
    if (i === 0) continue; // warm-up: both sides compiled once
    peerMs.push(peer);
    buildMs.push(own);
    peerCpu.push(peerC);
    buildCpu.push(ownC);
  }
  const b = median(buildMs);
  const p = median(peerMs);
  const bc = buildCpu.reduce((x, y) => x + y, 0);
  const pc = peerCpu.reduce((x, y) => x + y, 0);
  console.log(JSON.stringify({
    resources: count,
    runs,
    buildMs: Math.round(b),
    papaparseMs: Math.round(p),
    ratio: Number((b / p).toFixed(2)),
    cpuRatio: Number((bc / pc).toFixed(2)),
  }));
} else {
  throw new Error(`unknown mode '${mode}' (heap, rss or time)`);
}
