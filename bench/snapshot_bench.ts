/**
 * Snapshots (issue 28): what an edge worker pays to serve a graph built elsewhere. For generated
 * workspaces of 1k, 10k and 100k resources: the cold build (the peer, measured in the same run),
 * `encodeSnapshot`, `decodeSnapshot` (what a worker does instead of building), the file's size,
 * and the ratio decode ÷ cold build. Median of 3 runs each.
 *
 * ```sh
 * node_modules/.bin/deno run -A bench/snapshot_bench.ts [sizes…]
 * ```
 *
 * @module
 */
import { generateWorkspace } from "./generate.ts";
import { GraphEngine } from "../lib/engine.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { decodeSnapshot, encodeSnapshot } from "../lib/snapshot/format.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await f();
  return [performance.now() - t, v];
}

const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [1_000, 10_000, 100_000];
console.log(
  "| resources | relations | cold build ms | encode ms | decode ms | snapshot KiB | decode ÷ cold build |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const n of sizes) {
  const files = generateWorkspace(n, 10);
  const builds: number[] = [];
  const encodes: number[] = [];
  const decodes: number[] = [];
  let bytes: Uint8Array = new Uint8Array();
  let relations = 0;
  for (let run = 0; run < 3; run++) {
    const engine = new GraphEngine({
      workspace: new MemoryWorkspace(files),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
      incremental: false,
    });
    const [buildMs, snap] = await time(() => engine.rebuild());
    builds.push(buildMs);
    relations = snap.graph.relationCount;
    const [encodeMs, encoded] = await time(() => encodeSnapshot(snap));
    encodes.push(encodeMs);
    bytes = encoded;
    const [decodeMs] = await time(() => decodeSnapshot(encoded));
    decodes.push(decodeMs);
  }
  const build = median(builds);
  const decode = median(decodes);
  console.log(
    `| ${n} | ${relations} | ${build.toFixed(0)} | ${median(encodes).toFixed(0)} | ${
      decode.toFixed(0)
    } | ${(bytes.length / 1024).toFixed(0)} | ${(decode / build).toFixed(2)}× |`,
  );
}

// A real module whose rules cost most of its build (Jsonnet outputs): what a worker saves there.
const corpus = new URL("../../shared/corpus/public_dns", import.meta.url).pathname;
try {
  Deno.statSync(corpus);
  const builds: number[] = [];
  const decodes: number[] = [];
  let bytes: Uint8Array = new Uint8Array();
  let resources = 0;
  for (let run = 0; run < 3; run++) {
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(`${corpus}/data`),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
      incremental: false,
    });
    const [buildMs, snap] = await time(() => engine.rebuild());
    builds.push(buildMs);
    resources = snap.graph.resourceCount;
    bytes = await encodeSnapshot(snap);
    const [decodeMs] = await time(() => decodeSnapshot(bytes));
    decodes.push(decodeMs);
  }
  console.log(
    `\ncorpus public_dns (${resources} resources, Jsonnet outputs): cold build ${
      median(builds).toFixed(0)
    } ms, decode ${median(decodes).toFixed(0)} ms (${
      (median(decodes) / median(builds)).toFixed(2)
    }×), snapshot ${(bytes.length / 1024).toFixed(0)} KiB`,
  );
} catch (e) {
  if (!(e instanceof Deno.errors.NotFound)) throw e;
  console.log("\n(../shared/corpus/public_dns not found: corpus row skipped)");
}
