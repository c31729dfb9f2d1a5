/**
 * Bundles the edge example (examples/edge/worker.ts) with a seed workspace into one ES module
 * for an edge runtime, beside a workerd configuration:
 *
 * ```sh
 * node_modules/.bin/deno run -A scripts/edge-bundle.ts testdata/example dist/edge
 * # → dist/edge/worker.js, dist/edge/workerd.capnp.template; prints the bundle's sizes
 * node_modules/.bin/deno run -A scripts/edge-bundle.ts testdata/example dist/edge graph.snapshot
 * # … and dist/edge/snapshot-worker.js, serving graph.snapshot (from `build --snapshot`)
 * ```
 *
 * The seed is every file of the data directory (assets, models, compliance, outputs, …) as
 * text; `deno bundle --platform browser` makes the module, minified.
 *
 * @module
 */
import { gzip } from "fflate";
import { DenoFsWorkspace } from "../deno.ts";
import { toBase64 } from "../lib/actions/seal.ts";

/** Sizes of a bundle in bytes. */
export interface BundleSizes {
  /** The module as written. */
  bytes: number;
  /** The module gzip-compressed (what Cloudflare's size limit counts). */
  gzipBytes: number;
}

/**
 * Bundles the example worker seeded with `dataDir` into `outDir/worker.js`; with `snapshot`
 * (the bytes of a `build --snapshot` file), `outDir/snapshot-worker.js` too, which serves it.
 */
export async function bundleEdgeWorker(
  dataDir: string,
  outDir: string,
  snapshot?: Uint8Array,
): Promise<BundleSizes> {
  const workspace = new DenoFsWorkspace(dataDir);
  const seed: Record<string, string> = {};
  for (const path of await workspace.listFiles("")) {
    const text = await workspace.readText(path);
    if (text !== undefined) seed[path] = text;
  }
  await Deno.mkdir(outDir, { recursive: true });
  const root = new URL("../", import.meta.url);
  const worker = new URL("examples/edge/worker.ts", root).href;
  const entry = `${outDir}/entry.ts`;
  await Deno.writeTextFile(
    entry,
    `import { graphWorker } from ${JSON.stringify(worker)};\n` +
      `const worker = graphWorker(${JSON.stringify(seed)});\n` +
      `export default worker.default;\nexport const GraphObject = worker.GraphObject;\n`,
  );
  await bundle(root, entry, `${outDir}/worker.js`);
  if (snapshot) {
    await Deno.writeTextFile(
      entry,
      `import { snapshotWorker } from ${JSON.stringify(worker)};
` +
        `export default snapshotWorker(${JSON.stringify(toBase64(snapshot))});
`,
    );
    await bundle(root, entry, `${outDir}/snapshot-worker.js`);
  }
  await Deno.remove(entry);
  await Deno.copyFile(
    new URL("examples/edge/workerd.capnp.template", root),
    `${outDir}/workerd.capnp.template`,
  );
  const bytes = await Deno.readFile(`${outDir}/worker.js`);
  const gz = await new Promise<Uint8Array>((resolve, reject) =>
    gzip(bytes, { level: 9 }, (err, data) => err ? reject(err) : resolve(data))
  );
  return { bytes: bytes.length, gzipBytes: gz.length };
}

async function bundle(root: URL, entry: string, output: string): Promise<void> {
  const deno = new URL("node_modules/.bin/deno", root).pathname;
  const out = await new Deno.Command(deno, {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--minify",
      "--config",
      new URL("deno.json", root).pathname,
      "--output",
      output,
      entry,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`deno bundle of ${output} failed (exit ${out.code})`);
}

if (import.meta.main) {
  const [dataDir, outDir, snapshotFile] = Deno.args;
  if (!dataDir || !outDir) {
    console.error("usage: edge-bundle.ts DATA_DIR OUT_DIR [SNAPSHOT_FILE]");
    Deno.exit(2);
  }
  const snapshot = snapshotFile ? await Deno.readFile(snapshotFile) : undefined;
  const sizes = await bundleEdgeWorker(dataDir, outDir, snapshot);
  console.log(
    `${outDir}/worker.js: ${sizes.bytes} bytes, ${sizes.gzipBytes} bytes gzip ` +
      `(${(sizes.gzipBytes / 1024 / 1024).toFixed(2)} MiB)`,
  );
}
