/**
 * Live write service benchmark: how long until a write is visible to readers, and how many
 * acknowledged writes per second the service sustains, at several workspace sizes. In-process
 * (createApp + GraphEngine over a DenoFsWorkspace in a temp dir, requests through `app.fetch`),
 * so the numbers are the engine's and the write path's, without network overhead.
 *
 * For each size:
 * - cold full build of the generated workspace (hosts + 50 networks, bench/generate.ts);
 * - (a) sequential single-row auto-CRUD `PUT /api/mutations/host/{name}`, each followed by a
 *   GraphQL read with `Graphsvc-Min-Generation: <generation of the write>` that must show the
 *   new value → p50/p95 write→visible latency;
 * - (b) the same, but polling GraphQL without the header every 20 ms until the value shows;
 * - (c) 8 concurrent writers, a fixed number of writes each → acknowledged writes per second,
 *   and the time until the last of them is visible.
 *
 * Usage: deno run -A --v8-flags=--expose-gc bench/write_bench.ts [sizes…] [--samples=N]
 * [--writes-per-writer=N] [--incremental=off] [--rules] [--field=port|env] (defaults: 1000 10000
 * 100000, 50 samples, 25 writes per writer, 5 at 100k; `--incremental=off` makes every rebuild a
 * full one, for comparison; `--rules` adds rule files — a model, a compliance control and an
 * output — that read the hosts' `env` and the networks' `cidr` but not `port`; `--field` is the
 * host column the writes change: `port` (default; no rule reads it, so the build is derived) or
 * `env` (rules read it: every build is a full one).
 * Prints a markdown table; "one-row change → visible vs cold build" is the write→visible time
 * (Min-Generation) divided by the cold full build of the same run (issue 15: goal ≤ 0.1×). The
 * machine's load average is printed too: builds and writes share the CPU with it.
 *
 * @module
 */
import { generateHostsAndNetworks, HOST_RULE_FILES } from "./generate.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";
import { GraphEngine } from "../lib/engine.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { createApp, type GraphsvcApp } from "../lib/api/app.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";

const flags = new Map<string, string>();
const sizes: number[] = [];
for (const arg of Deno.args) {
  const m = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
  if (m) flags.set(m[1], m[2] ?? "");
  else sizes.push(Number(arg));
}
if (sizes.length === 0) sizes.push(1_000, 10_000, 100_000);
const SAMPLES = Number(flags.get("samples") ?? 50);
const WRITERS = 8;
/** Writes per concurrent writer: 25, fewer for big workspaces (each write rewrites the file). */
const writesPerWriter = (size: number) =>
  Number(flags.get("writes-per-writer") ?? Math.min(25, Math.max(5, Math.round(500_000 / size))));
const INCREMENTAL = flags.get("incremental") !== "off";
const RULES = flags.has("rules");
const FIELD = flags.get("field") ?? "port";
const POLL_MS = 20;
const VISIBLE_TIMEOUT_MS = 120_000;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => n < 10 ? n.toFixed(1) : String(Math.round(n));

async function writePort(app: GraphsvcApp, host: string, port: number): Promise<number> {
  const res = await app.fetch(
    new Request(`http://bench/api/mutations/host/${host}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ [FIELD]: FIELD === "port" ? port : `e${port}` }),
    }),
  );
  const body = await res.json();
  if (res.status !== 200 || body.success !== true) {
    throw new Error(`PUT ${host} → ${res.status} ${JSON.stringify(body)}`);
  }
  return body.generation;
}

async function readPort(
  app: GraphsvcApp,
  host: string,
  minGeneration?: number,
): Promise<string | undefined> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (minGeneration !== undefined) headers["Graphsvc-Min-Generation"] = String(minGeneration);
  const res = await app.fetch(
    new Request("http://bench/graphql", {
      method: "POST",
      headers,
      body: JSON.stringify({
        query: `{ host(filter: { name: { eq: "${host}" } }) { ${FIELD} } }`,
      }),
    }),
  );
  const body = await res.json();
  if (res.status !== 200 || body.errors) {
    throw new Error(`read ${host} → ${res.status} ${JSON.stringify(body.errors ?? body)}`);
  }
  const value = body.data.host[0]?.[FIELD];
  if (value === undefined || value === null) return undefined;
  return FIELD === "port" ? String(value) : String(value).slice(1);
}

interface Result {
  resources: number;
  coldBuildMs: number;
  ackP50: number;
  withHeader: number[];
  polling: number[];
  writesPerSecond: number;
  concurrentWrites: number;
  allVisibleMs: number;
}

async function benchSize(size: number): Promise<Result> {
  const hosts = Math.max(1, size - 50);
  const dir = await Deno.makeTempDir({ prefix: `graphsvc-write-bench-${size}-` });
  try {
    const files = {
      ...generateHostsAndNetworks(hosts, "network"),
      ...(RULES ? HOST_RULE_FILES : {}),
    };
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(dir),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
      incremental: INCREMENTAL,
    });
    const t0 = performance.now();
    const snapshot = await engine.rebuild();
    const coldBuildMs = performance.now() - t0;
    if (engine.status?.status !== "ok") throw new Error(`build failed: ${engine.status?.error}`);
    const app = createApp(engine);
    await readPort(app, "host-0"); // builds the GraphQL schema of the snapshot once

    const pick = (phase: number, i: number) => `host-${(phase * 1_000_003 + i * 7_919) % hosts}`;
    let nextPort = 20_000;
    const ackMs: number[] = [];

    // (a) read with Graphsvc-Min-Generation
    const withHeader: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const host = pick(1, i);
      const port = nextPort++;
      const start = performance.now();
      const generation = await writePort(app, host, port);
      ackMs.push(performance.now() - start);
      const seen = await readPort(app, host, generation);
      if (seen !== String(port)) {
        throw new Error(`generation ${generation} does not show ${host}.port=${port} (${seen})`);
      }
      withHeader.push(performance.now() - start);
    }

    // (b) polling without the header
    const polling: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const host = pick(2, i);
      const port = nextPort++;
      const start = performance.now();
      await writePort(app, host, port);
      ackMs.push(performance.now() - start);
      while ((await readPort(app, host)) !== String(port)) {
        if (performance.now() - start > VISIBLE_TIMEOUT_MS) {
          throw new Error(`${host}.port=${port} not visible after ${VISIBLE_TIMEOUT_MS} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      polling.push(performance.now() - start);
    }

    // (c) sustained acknowledged writes with concurrent writers
    await engine.waitFor(engine.latestGeneration);
    const generations: number[] = [];
    const last = new Map<string, number>();
    const c0 = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < writesPerWriter(size); i++) {
        const host = pick(3 + w, i);
        const port = nextPort++;
        generations.push(await writePort(app, host, port));
        last.set(host, port);
      }
    }));
    const ackedMs = performance.now() - c0;
    const newest = Math.max(...generations);
    const [lastHost, lastPort] = [...last.entries()].pop()!;
    if ((await readPort(app, lastHost, newest)) !== String(lastPort)) {
      throw new Error(`generation ${newest} does not show the last concurrent write`);
    }
    const allVisibleMs = performance.now() - c0;
    await engine.waitFor(engine.latestGeneration);
    return {
      resources: snapshot.stats.resources,
      coldBuildMs,
      ackP50: percentile(ackMs, 50),
      withHeader,
      polling,
      writesPerSecond: generations.length / (ackedMs / 1000),
      concurrentWrites: generations.length,
      allVisibleMs,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Compiles the build and write paths once, so the first size's cold build is not JIT warm-up. */
async function warmUp(): Promise<void> {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(generateHostsAndNetworks(1_000, "network")),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine);
  for (let i = 0; i < 20; i++) await readPort(app, "host-1", await writePort(app, "host-1", i));
}

await warmUp();
const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?")).split(" ");
console.log(
  `## live writes (in-process app, DenoFsWorkspace; incremental builds ${
    INCREMENTAL ? "on" : "off"
  }; ${
    RULES ? "rule files reading env and cidr" : "no rule files"
  }; writes change host.${FIELD}; ${SAMPLES} samples per latency, ` +
    `${WRITERS} concurrent writers; load average ${load[0]} ${load[1]} ${load[2]} on ` +
    `${navigator.hardwareConcurrency} cores)\n`,
);
console.log(
  "| resources | cold build ms | write ack p50 ms | write→visible p50 / p95 ms (Min-Generation) | " +
    "one-row change → visible vs cold build, p50 / p95 | " +
    "write→visible p50 / p95 ms (poll 20 ms) | acked writes/s (8 writers) | last of them visible after ms |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
const ratio = (n: number, of: number) => `${(n / of).toFixed(2)}×`;
for (const size of sizes) {
  try {
    const r = await benchSize(size);
    console.log(
      `| ${r.resources} | ${ms(r.coldBuildMs)} | ${ms(r.ackP50)} | ` +
        `${ms(percentile(r.withHeader, 50))} / ${ms(percentile(r.withHeader, 95))} | ` +
        `${ratio(percentile(r.withHeader, 50), r.coldBuildMs)} / ${
          ratio(percentile(r.withHeader, 95), r.coldBuildMs)
        } | ` +
        `${ms(percentile(r.polling, 50))} / ${ms(percentile(r.polling, 95))} | ` +
        `${r.writesPerSecond.toFixed(1)} (${r.concurrentWrites} writes) | ${ms(r.allVisibleMs)} |`,
    );
  } catch (e) {
    console.log(`| ${size} | failed: ${e instanceof Error ? e.message : String(e)} | | | | | | |`);
  }
}
