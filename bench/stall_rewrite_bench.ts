/**
 * Reader stalls and memory when every asset file is rewritten (issue 24): the table of the issue,
 * measured in one run.
 *
 * Workspace: `--resources` (default 100k) resources over 10 types, each row with a single and a
 * quoted two-name relation cell (≈3 relations per row) and a `grp` column; a rebuild rewrites
 * every CSV with each row's `size` changed (keys and relation cells kept: the incremental
 * `properties` path).
 *
 * - **stall**: a server (createApp + GraphEngine) answers `t0(filter: {grp: "g-3"}) { name env
 *   tier owner size }` back to back from a client in a Worker (its own clock). Idle p95 first;
 *   then 5 rebuilds (`engine.rebuild()` after rewriting the files) → the worst latency of the
 *   queries that overlapped each rebuild, median over the rebuilds; then the *peer floor*: the
 *   same 5 rebuilds (an IncrementalBuilder over a copy of the workspace) run in another process
 *   beside the idle server → the same worst-latency median. Goal: stall ≤ 2 × max(idle p95, floor).
 * - **peak RSS ÷ steady**: RSS high-water mark during the 5 in-process rebuilds (reset through
 *   `/proc/self/clear_refs` after the first build) ÷ RSS after the first build and a `gc()`.
 *   Goal ≤ 1.3×.
 * - **cold build ÷ papaparse**: a fresh process reading the files and building (all phases,
 *   sealed graph) vs a fresh process reading the same files and parsing them with papaparse into
 *   a `Map` of row objects; median of 3 each, alternated, time measured inside the process from
 *   the first read. Goal ≤ 1.5×.
 * - **retained heap per resource**: heap after the first build and `gc()` minus the heap before
 *   it, per resource (goal ≤ 600 B).
 *
 * The server's engine gives the event loop Deno's quick turns between build slices while no
 * request is about, as the CLI's does (`--timer-turns=1`: always `setTimeout(0)` turns, as before
 * the quick turn existed).
 *
 * Usage: deno run -A --v8-flags=--expose-gc bench/stall_rewrite_bench.ts [--resources=N]
 * [--rounds=N] [--timer-turns=1]. Prints a markdown table. Wired into `deno task bench` (run.ts
 * runs every `*_bench.ts`).
 *
 * @module
 */
import Papa from "papaparse";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";
import { loadSourceSet } from "../lib/workspace/sources.ts";
import { GraphEngine } from "../lib/engine.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { buildGraph } from "../lib/pipeline/build.ts";
import { IncrementalBuilder } from "../lib/pipeline/incremental/builder.ts";
import { createApp } from "../lib/api/app.ts";
import { denoQuickTurn } from "../lib/runtime/deno/event_loop_turn.ts";

const flags = new Map<string, string>();
for (const arg of Deno.args) {
  const m = /^--([\w-]+)=(.*)$/.exec(arg);
  if (m) flags.set(m[1], m[2]);
}
const RESOURCES = Number(flags.get("resources") ?? 100_000);
const ROUNDS = Number(flags.get("rounds") ?? 5);
const TYPES = 10;
const QUERY = `{ t0(filter: {grp: "g-3"}) { name env tier owner size } }`;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const options = { createTemplates: createTemplateRenderer, phases: defaultPhases };

/** The CSV of type `t` whose `size` cells are shifted by `round` (round 0: the first version). */
function csvOf(t: number, round: number): string {
  const perType = Math.ceil(RESOURCES / TYPES);
  const next = `t${(t + 1) % TYPES}`;
  const after = `t${(t + 2) % TYPES}`;
  const envs = ["prod", "test", "dev"];
  const lines = [`name,env,tier,owner,grp,size,${next},${after}`];
  const count = Math.min(perType, RESOURCES - t * perType);
  for (let i = 0; i < count; i++) {
    const a = (i * 7 + 3) % perType;
    const b = (i * 13 + 5) % perType;
    lines.push(
      `t${t}-${i},${envs[i % 3]},tier-${i % 5},team-${i % 17},g-${i % 50},${
        (i + round * 7) % 1000
      },${next}-${i},"${after}-${a}, ${after}-${b}"`,
    );
  }
  return lines.join("\n") + "\n";
}

async function writeWorkspace(dir: string, round: number): Promise<void> {
  await Deno.mkdir(`${dir}/assets`, { recursive: true });
  for (let t = 0; t < TYPES; t++) {
    await Deno.writeTextFile(`${dir}/assets/t${t}.csv`, csvOf(t, round));
  }
}

function procStatusKb(field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) : NaN;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const mode = flags.get("mode");
const base = new URL(`./.work/rewrite-${RESOURCES}/`, import.meta.url).pathname;

if (mode === "cold-build" || mode === "cold-papa") {
  // A fresh process: read the files (and build, or parse into a Map), print the time taken.
  const dir = `${base}main`;
  const t = performance.now();
  if (mode === "cold-build") {
    const result = buildGraph(await loadSourceSet(new DenoFsWorkspace(dir), []), options);
    if (!result.ok) throw new Error("build failed");
  } else {
    const rows = new Map<string, Record<string, string>>();
    for await (const e of Deno.readDir(`${dir}/assets`)) {
      const text = await Deno.readTextFile(`${dir}/assets/${e.name}`);
      const parsed = Papa.parse(text, { header: true, skipEmptyLines: true });
      for (const row of parsed.data as Record<string, string>[]) rows.set(row.name, row);
    }
    if (rows.size === 0) throw new Error("no rows");
  }
  console.log(JSON.stringify({ ms: performance.now() - t }));
  Deno.exit(0);
}

if (mode === "peer") {
  // The same rebuilds in another process: an incremental builder over its own copy.
  const dir = `${base}peer`;
  await writeWorkspace(dir, 0);
  const builder = new IncrementalBuilder();
  const workspace = new DenoFsWorkspace(dir);
  await builder.buildSliced(await loadSourceSet(workspace, []), options);
  console.log(JSON.stringify({ ready: true }));
  const windows: [number, number][] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    await sleep(1_000);
    const start = now();
    await writeWorkspace(dir, r);
    const build = await builder.buildSliced(await loadSourceSet(workspace, []), options);
    if (build.mode !== "properties") throw new Error(`peer: ${build.mode} build (${build.reason})`);
    windows.push([start, now()]);
  }
  console.log(JSON.stringify({ windows }));
  Deno.exit(0);
}

// The client: its own thread, so its clock is not held up by the server's event loop.
const CLIENT = `
let stop = false;
self.onmessage = async (e) => {
  if (e.data.cmd === "stop") { stop = true; return; }
  stop = false;
  const { url, query } = e.data;
  const samples = [];
  while (!stop) {
    const t0 = performance.timeOrigin + performance.now();
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const text = await res.text();
    const t1 = performance.timeOrigin + performance.now();
    const error = res.status !== 200 || text.startsWith('{"errors"') ? text.slice(0, 300) : undefined;
    samples.push({ t0, t1, error });
  }
  self.postMessage(samples);
};
`;

interface Sample {
  t0: number;
  t1: number;
  error?: string;
}

class Client {
  #worker = new Worker(
    URL.createObjectURL(new Blob([CLIENT], { type: "application/javascript" })),
    { type: "module" },
  );
  #done: Promise<Sample[]> | undefined;
  start(url: string): void {
    this.#done = new Promise((resolve) => {
      this.#worker.onmessage = (e) => resolve(e.data as Sample[]);
    });
    this.#worker.postMessage({ cmd: "run", url, query: QUERY });
  }
  async stop(): Promise<Sample[]> {
    this.#worker.postMessage({ cmd: "stop" });
    const samples = await this.#done!;
    const failed = samples.find((s) => s.error);
    if (failed) throw new Error(`query failed: ${failed.error}`);
    return samples;
  }
  close(): void {
    this.#worker.terminate();
  }
}

/** Worst latency of the queries overlapping each window. */
function worstPerWindow(samples: Sample[], windows: [number, number][]): number[] {
  return windows.map(([start, end]) => {
    let worst = 0;
    for (const s of samples) if (s.t0 < end && s.t1 > start) worst = Math.max(worst, s.t1 - s.t0);
    return worst;
  });
}

const deno = Deno.execPath();
const self = new URL(import.meta.url).pathname;
async function child(args: string[], onLine?: (line: string) => void): Promise<string[]> {
  const proc = new Deno.Command(deno, {
    args: ["run", "-A", "--v8-flags=--expose-gc", self, `--resources=${RESOURCES}`, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines: string[] = [];
  let buf = "";
  for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      onLine?.(line);
    }
  }
  if (!(await proc.status).success) throw new Error(`${args.join(" ")} failed`);
  return lines;
}

const mainDir = `${base}main`;
const PATHS = Array.from({ length: TYPES }, (_, t) => `assets/t${t}.csv`);
await writeWorkspace(mainDir, 0);

// Cold build vs papaparse, fresh processes, alternated.
const coldBuild: number[] = [];
const coldPapa: number[] = [];
for (let i = 0; i < 3; i++) {
  coldPapa.push(JSON.parse((await child(["--mode=cold-papa"])).pop()!).ms);
  coldBuild.push(JSON.parse((await child(["--mode=cold-build"])).pop()!).ms);
}

gc();
const heap0 = Deno.memoryUsage().heapUsed;
const engine = new GraphEngine({
  workspace: new DenoFsWorkspace(mainDir),
  ...options,
  quickTurn: flags.has("timer-turns") ? undefined : denoQuickTurn,
});
await engine.rebuild();
if (engine.status?.status !== "ok") throw new Error(`build failed: ${engine.status?.error}`);
const app = createApp(engine);
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
const url = `http://127.0.0.1:${server.addr.port}/graphql`;
const client = new Client();
// Warm-up: schema, JIT.
client.start(url);
await sleep(1_500);
await client.stop();
for (let i = 0; i < 3; i++) gc();
const heapPerResource = (Deno.memoryUsage().heapUsed - heap0) / engine.current.graph.resourceCount;
const steadyKb = procStatusKb("VmRSS");
Deno.writeTextFileSync("/proc/self/clear_refs", "5"); // VmHWM := current RSS

// Idle.
const t0 = now();
client.start(url);
await sleep(3_000);
const idle = (await client.stop()).filter((s) => s.t0 >= t0).map((s) => s.t1 - s.t0);

// In-process rebuilds.
const windows: [number, number][] = [];
const modes: string[] = [];
engine.subscribe((e) => {
  if (e.kind === "line" && / build \(/.test(e.text)) {
    modes.push(e.text.split(": ")[1].split(" ")[0]);
  }
});
client.start(url);
await sleep(300);
for (let r = 1; r <= ROUNDS; r++) {
  const start = now();
  await writeWorkspace(mainDir, r);
  // Named paths, as the file watcher and the write service request: the build may be incremental.
  await engine.waitFor(engine.requestRebuild({ changed: PATHS }));
  windows.push([start, now()]);
  if (engine.status?.status !== "ok") throw new Error(`rebuild failed: ${engine.status?.error}`);
  await sleep(1_000);
}
const during = worstPerWindow(await client.stop(), windows);
const peakKb = procStatusKb("VmHWM");

// The peer floor: the same rebuilds in another process.
client.start(url);
let peerWindows: [number, number][] = [];
await child(["--mode=peer"], (line) => {
  const msg = JSON.parse(line);
  if (msg.windows) peerWindows = msg.windows;
});
const floor = worstPerWindow(await client.stop(), peerWindows);
client.close();
await server.shutdown();

const idleP95 = percentile(idle, 95);
const stall = median(during);
const floorMed = median(floor);
const f = (n: number) => n.toFixed(n < 10 ? 1 : 0);
console.log(
  `| resources | idle p95 ms | worst during rebuild ms, median of ${ROUNDS} (each) | peer-process floor ms (each) | stall ÷ max(idle p95, floor) (goal ≤ 2) | peak RSS ÷ steady (goal ≤ 1.3) | cold build ÷ papaparse (goal ≤ 1.5) | retained heap B/resource (goal ≤ 600) |`,
);
console.log("|---|---|---|---|---|---|---|---|");
console.log(
  `| ${RESOURCES} | ${f(idleP95)} | ${f(stall)} (${during.map(f).join(", ")}) | ${f(floorMed)} (${
    floor.map(f).join(", ")
  }) | ${(stall / Math.max(idleP95, floorMed)).toFixed(1)}× | ${(peakKb / steadyKb).toFixed(2)}× (${
    Math.round(peakKb / 1024)
  } vs ${Math.round(steadyKb / 1024)} MiB) | ${
    (median(coldBuild) / median(coldPapa)).toFixed(2)
  }× (${f(median(coldBuild))} vs ${f(median(coldPapa))} ms) | ${Math.round(heapPerResource)} |`,
);
console.log(
  `\nload average ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}; rebuild windows ms: ${
    windows.map(([a, b]) => f(b - a)).join(", ")
  } (${modes.join(", ")}); peer: ${peerWindows.map(([a, b]) => f(b - a)).join(", ")}`,
);
