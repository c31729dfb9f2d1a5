/**
 * Reader stalls during rebuilds (issue 15 item 1): how much slower GraphQL answers while a build
 * of the same workspace runs, in one process.
 *
 * The server (createApp + GraphEngine over a generated workspace on disk, bench/generate.ts)
 * listens on a local port; a client in a Worker (its own thread and clock, so it measures what a
 * remote client sees) sends two queries in turn — a big one returning ~10k nodes and a small one
 * of a few ms — and records each latency. Modes, per workspace size:
 *
 * - idle: no build runs → p50/p95 per query (the reference);
 * - sliced: the engine rebuilds (buildGraphSliced, the server's path) → worst/p95 of queries that
 *   overlapped a build;
 * - unsliced: `buildGraph` (synchronous, the old server path) runs on the server's thread;
 * - peer: `cli.ts build` of the same data directory runs in a separate process beside the idle
 *   server (what the issue compares with).
 *
 * Ratios are worst-during-build / idle p95. Also printed: the first query after each publish (it
 * builds the new snapshot's GraphQL schema, outside the build), and the build time with and
 * without slicing on an otherwise idle server (the slicing overhead). First, the two candidate
 * pauses between slices are compared (MessageChannel round trip vs setTimeout(0)): in Deno 2.9 a
 * MessageChannel round trip lets no network I/O in at all, which is why the driver uses
 * setTimeout(0).
 *
 * Usage: deno run -A --v8-flags=--expose-gc bench/stall_bench.ts [sizes…] [--rounds=N]
 * [--slice-ms=N] (defaults: 10000 100000, 3 rounds). The load average is printed: the builds
 * share 2 cores with whatever else runs.
 *
 * @module
 */
import { generateWorkspace } from "./generate.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";
import { loadSourceSet } from "../lib/workspace/sources.ts";
import { GraphEngine } from "../lib/engine.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { buildGraph, buildGraphSliced } from "../lib/pipeline/build.ts";
import { createApp } from "../lib/api/app.ts";

const flags = new Map<string, string>();
const sizes: number[] = [];
for (const arg of Deno.args) {
  const m = /^--([\w-]+)=(.*)$/.exec(arg);
  if (m) flags.set(m[1], m[2]);
  else sizes.push(Number(arg));
}
if (sizes.length === 0) sizes.push(10_000, 100_000);
const ROUNDS = Number(flags.get("rounds") ?? 3);
const SLICE_MS = flags.has("slice-ms") ? Number(flags.get("slice-ms")) : undefined;
const TYPES = 10;
const IDLE_MS = 4_000;
/** Think time of the client between two queries. */
const GAP_MS = 2;
/** Pause between two builds (lets the first query after a publish be counted apart). */
const BETWEEN_BUILDS_MS = 1_500;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The client: its own thread, so its clock is not held up by the server's event loop.
const CLIENT = `
let stop = false;
self.onmessage = async (e) => {
  if (e.data.cmd === "stop") { stop = true; return; }
  stop = false;
  const { url, queries, gapMs } = e.data;
  const samples = [];
  for (let i = 0; !stop; i++) {
    const q = queries[i % queries.length];
    const t0 = performance.timeOrigin + performance.now();
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: q.query }),
    });
    const text = await res.text();
    const t1 = performance.timeOrigin + performance.now();
    const error = res.status !== 200 || text.startsWith('{"errors"') ? text.slice(0, 300) : undefined;
    samples.push({ q: q.name, t0, t1, error });
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
  }
  self.postMessage(samples);
};
`;

interface Sample {
  q: string;
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

  start(url: string, queries: { name: string; query: string }[]): void {
    this.#done = new Promise((resolve) => {
      this.#worker.onmessage = (e) => resolve(e.data as Sample[]);
    });
    this.#worker.postMessage({ cmd: "run", url, queries, gapMs: GAP_MS });
  }

  async stop(): Promise<Sample[]> {
    this.#worker.postMessage({ cmd: "stop" });
    const samples = await this.#done!;
    const failed = samples.find((s) => s.error);
    if (failed) throw new Error(`query ${failed.q} failed: ${failed.error}`);
    return samples;
  }

  close(): void {
    this.#worker.terminate();
  }
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const fmt = (n: number) => Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(1) : String(Math.round(n));

type Window = [number, number];

/** Latencies of `q` that overlapped a window, and of the first query after each window. */
function classify(samples: Sample[], q: string, windows: Window[]) {
  const during: number[] = [];
  const after: number[] = [];
  const mine = samples.filter((s) => s.q === q);
  for (const [start, end] of windows) {
    for (const s of mine) if (s.t0 < end && s.t1 > start) during.push(s.t1 - s.t0);
    const next = mine.find((s) => s.t0 >= end);
    if (next) after.push(next.t1 - next.t0);
  }
  return { during, after };
}

async function ensureWorkspace(dir: string, resources: number): Promise<void> {
  try {
    await Deno.stat(`${dir}/assets/t0.csv`);
    return;
  } catch { /* generate */ }
  for (const [path, text] of Object.entries(generateWorkspace(resources, TYPES))) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
}

/** Queries: one returning ~10k nodes, one small (a filtered page of one type). */
function queriesFor(resources: number): { name: string; query: string }[] {
  const perType = Math.ceil(resources / TYPES);
  const types = Math.min(TYPES, Math.ceil(10_000 / perType));
  const fields = Array.from(
    { length: types },
    (_, t) => `t${t}(limit: ${perType}) { name env size }`,
  );
  return [
    { name: "big (~10k nodes)", query: `{ ${fields.join(" ")} }` },
    {
      name: "small",
      query:
        `{ t3(filter: { env: "prod", tier: "tier-2" }, limit: 200) { name owner t4 { node { name } } } }`,
    },
  ];
}

async function underLoad(
  client: Client,
  url: string,
  queries: { name: string; query: string }[],
  run: () => Promise<void>,
): Promise<{ samples: Sample[]; w: Window[] }> {
  gc();
  const w: Window[] = [];
  client.start(url, queries);
  await sleep(300);
  for (let r = 0; r < ROUNDS; r++) {
    const start = now();
    await run();
    w.push([start, now()]);
    await sleep(BETWEEN_BUILDS_MS);
  }
  return { samples: await client.stop(), w };
}

/**
 * The pause between slices: a MessageChannel round trip (not clamped) or setTimeout(0). Runs 4 ms
 * busy slices for 1.5 s with each and counts the client's answered queries and the idle cost of
 * one turn.
 */
async function turnComparison(
  client: Client,
  url: string,
  queries: { name: string; query: string }[],
): Promise<string[]> {
  const channel = new MessageChannel();
  let resolveTurn: (() => void) | undefined;
  channel.port1.onmessage = () => resolveTurn?.();
  const turns: [string, () => Promise<void>][] = [
    ["MessageChannel", () =>
      new Promise<void>((r) => {
        resolveTurn = r;
        channel.port2.postMessage(null);
      })],
    ["setTimeout(0)", () => new Promise<void>((r) => setTimeout(r, 0))],
  ];
  const out: string[] = [];
  for (const [name, turn] of turns) {
    let t = performance.now();
    for (let i = 0; i < 200; i++) await turn();
    const idleTurn = (performance.now() - t) / 200;
    client.start(url, [queries[1]]);
    t = performance.now();
    let slices = 0;
    while (performance.now() - t < 1_500) {
      const s = performance.now();
      while (performance.now() - s < 4) { /* a 4 ms slice of work */ }
      slices++;
      await turn();
    }
    const answered = (await client.stop()).length;
    out.push(
      `${name}: one idle turn ${idleTurn.toFixed(2)} ms; during 1.5 s of 4 ms slices ` +
        `(${slices} slices) the client got ${answered} answer(s)`,
    );
  }
  channel.port1.close();
  return out;
}

const cli = new URL("../cli.ts", import.meta.url).pathname;
const root = new URL("../", import.meta.url).pathname;
const rows: string[][] = [];
let turnNotes: string[] = [];
const buildRows: string[][] = [];

for (const size of sizes) {
  const dir = new URL(`./.work/ws-${size}-${TYPES}/`, import.meta.url).pathname;
  await ensureWorkspace(dir, size);
  const engine = new GraphEngine({
    workspace: new DenoFsWorkspace(dir),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  if (engine.status?.status !== "ok") throw new Error(`build failed: ${engine.status?.error}`);
  const app = createApp(engine);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
  const url = `http://127.0.0.1:${server.addr.port}/graphql`;
  const queries = queriesFor(size);
  const client = new Client();

  if (turnNotes.length === 0) turnNotes = await turnComparison(client, url, queries);

  // Build time with and without slicing, no readers (median of 3 each, alternating).
  const sources = await loadSourceSet(new DenoFsWorkspace(dir));
  const options = { createTemplates: createTemplateRenderer, phases: defaultPhases };
  const syncMs: number[] = [];
  const slicedMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    gc();
    let t = performance.now();
    buildGraph(sources, options);
    syncMs.push(performance.now() - t);
    gc();
    t = performance.now();
    await buildGraphSliced(sources, { ...options, sliceMs: SLICE_MS });
    slicedMs.push(performance.now() - t);
  }

  // Idle reference (after a warm-up run that builds the schema and warms the JIT).
  client.start(url, queries);
  await sleep(1_000);
  await client.stop();
  gc();
  const t0 = now();
  client.start(url, queries);
  await sleep(IDLE_MS);
  const idle = (await client.stop()).filter((s) => s.t0 >= t0);

  const sliced = await underLoad(client, url, queries, async () => {
    await engine.rebuild();
    if (engine.status?.status !== "ok") throw new Error(`build failed: ${engine.status?.error}`);
  });
  const unsliced = await underLoad(client, url, queries, async () => {
    await sleep(0);
    buildGraph(sources, options); // the old engine path: synchronous on the server's thread
  });
  const peer = await underLoad(client, url, queries, async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, "--data-dir", dir, "build"],
      cwd: root,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  });
  client.close();
  await server.shutdown();

  for (const { name } of queries) {
    const base = idle.filter((s) => s.q === name).map((s) => s.t1 - s.t0);
    const p95 = percentile(base, 95);
    const cell = (m: { samples: Sample[]; w: Window[] }) => {
      const { during } = classify(m.samples, name, m.w);
      const worst = Math.max(...during);
      return `${fmt(worst)} / ${fmt(percentile(during, 95))} (${
        (worst / p95).toFixed(1)
      }×, n=${during.length})`;
    };
    const after = classify(sliced.samples, name, sliced.w).after;
    rows.push([
      size.toLocaleString("en-US"),
      name,
      `${fmt(percentile(base, 50))} / ${fmt(p95)} / ${fmt(Math.max(...base))} (n=${base.length})`,
      cell(sliced),
      cell(unsliced),
      cell(peer),
      fmt(Math.max(...after)),
    ]);
  }
  const med = (xs: number[]) => percentile(xs, 50);
  buildRows.push([
    size.toLocaleString("en-US"),
    fmt(med(syncMs)),
    fmt(med(slicedMs)),
    `${(((med(slicedMs) / med(syncMs)) - 1) * 100).toFixed(0)}%`,
    fmt(med(sliced.w.map(([a, b]) => b - a))),
    fmt(med(peer.w.map(([a, b]) => b - a))),
  ]);
}

function table(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    "| " + cells.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const r of body) console.log(line(r));
}

table([
  "resources",
  "query",
  "idle p50 / p95 / worst ms",
  "sliced build: worst / p95 ms (worst ÷ idle p95)",
  "unsliced in-process: worst / p95",
  "peer process: worst / p95",
  "first query after publish ms",
], rows);
console.log();
table([
  "resources",
  "build ms, buildGraph",
  "build ms, sliced",
  "slicing overhead",
  "engine rebuild under load ms",
  "peer `cli.ts build` ms (process)",
], buildRows);
console.log();
for (const note of turnNotes) console.log(note);
console.log(
  `\nslice ${
    SLICE_MS ?? "default (4)"
  } ms, ${ROUNDS} build(s) per mode, client think time ${GAP_MS} ms, ` +
    `load average ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`,
);
