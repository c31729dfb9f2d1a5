/**
 * `deno task compile`: the single-file binaries `dist/graphsvc-ce` and `dist/graphsvc-ee`.
 *
 * Two steps, so that a binary holds only what the program runs:
 *
 * 1. `deno bundle` turns each entry point (cli.ts, cli_ee.ts) into one JavaScript file with the
 *    npm code it actually imports (GraphiQL and Swagger UI are embedded modules, lib/api/assets/).
 * 2. `deno compile` embeds that one file, with no configuration and no node_modules (a local
 *    node_modules directory would otherwise be embedded whole, Deno binary included), plus the
 *    files of {@link INCLUDE}.
 *
 * ```sh
 * deno run -A scripts/compile.ts                 # dist/graphsvc-ce, dist/graphsvc-ee
 * deno run -A scripts/compile.ts --bundle-only   # only step 1 (dist/bundle/*.mjs)
 * deno run -A scripts/compile.ts --out /tmp/bin  # another output folder
 * ```
 *
 * Step 2 needs Deno's runtime-only binary (`denort`) of the running Deno version: downloaded on
 * first use and cached in DENO_DIR, or given by the `DENORT_BIN` environment variable.
 *
 * @module
 */

/** The binaries: name and entry point. */
export const BINARIES = [
  { name: "graphsvc-ce", entry: "cli.ts" },
  { name: "graphsvc-ee", entry: "cli_ee.ts" },
] as const;

/**
 * Files embedded besides the program. None: the program reads no file of its own at run time
 * (browser assets are embedded modules; templates, schemas and data come from the data
 * directory).
 */
export const INCLUDE: readonly string[] = [];

/** Permissions the binaries run with (as `deno task start`: serve, Git sync, exec generators). */
export const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
] as const;

const ROOT = new URL("../", import.meta.url);
const MiB = 1024 * 1024;
const DENO = Deno.execPath();

async function run(args: string[]): Promise<void> {
  const { code } = await new Deno.Command(DENO, {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (code !== 0) throw new Error(`deno ${args.slice(0, 1).join(" ")} failed (exit ${code})`);
}

/** Step 1: `<out>/bundle/<name>.mjs` for every binary; returns their paths. */
export async function bundle(out: string): Promise<string[]> {
  const files: string[] = [];
  for (const { name, entry } of BINARIES) {
    const file = `${out}/bundle/${name}.mjs`;
    await run(["bundle", "--quiet", "--platform", "deno", "--output", file, entry]);
    files.push(file);
  }
  return files;
}

/** Steps 1 and 2: `<out>/graphsvc-ce` and `<out>/graphsvc-ee`; returns their paths. */
export async function compile(out: string): Promise<string[]> {
  await run(["check", ...BINARIES.map((b) => b.entry)]);
  const bundles = await bundle(out);
  const binaries: string[] = [];
  for (const [i, { name }] of BINARIES.entries()) {
    const binary = `${out}/${name}`;
    await run([
      "compile",
      "--quiet",
      "--no-check", // checked above, as TypeScript; the bundle is JavaScript
      "--no-config",
      "--node-modules-dir=none",
      "--no-npm",
      "--unstable-no-legacy-abort",
      ...PERMISSIONS,
      ...INCLUDE.flatMap((f) => ["--include", f]),
      "--output",
      binary,
      bundles[i],
    ]);
    binaries.push(binary);
  }
  return binaries;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "dist";
  try {
    const made = Deno.args.includes("--bundle-only") ? await bundle(out) : await compile(out);
    for (const file of made) {
      const size = (await Deno.stat(new URL(file, ROOT)).catch(() => Deno.stat(file))).size;
      console.log(`${file}  ${(size / MiB).toFixed(1)} MiB`);
    }
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    console.error(
      "hint: deno compile downloads denort once (cached in DENO_DIR); offline, point " +
        "DENORT_BIN at a denort binary of this Deno version",
    );
    Deno.exit(1);
  }
}
