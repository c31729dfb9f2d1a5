// Issue 18 point 2: single binaries that embed only what the program runs (scripts/compile.ts).
// Step 1 (one bundled file per edition, run with no node_modules) is tested everywhere; step 2
// (`deno compile`) needs Deno's runtime-only binary, denort, and is skipped, saying why, when it
// cannot be had (this machine cannot download it).
import { assert, assertEquals } from "../_assert.ts";
import { BINARIES, bundle, compile } from "../../scripts/compile.ts";
import { VERSION } from "../../lib/version.ts";

const MiB = 1024 * 1024;
/** A bundle holds our code, the npm code it imports and the embedded browser files (~4.5 MiB). */
const MAX_BUNDLE = 12 * MiB;
/**
 * A binary is denort (~80 MiB) plus one bundle. Embedding node_modules, as `deno compile cli.ts`
 * does with a local node_modules directory, would add ~260 MiB (the 92 MiB Deno binary among it).
 */
const MAX_BINARY = 140 * MiB;

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted" &&
  Deno.permissions.querySync({ name: "write" }).state === "granted";

/** Why `deno compile` cannot run here, or `undefined` when it can. */
async function denortMissing(): Promise<string | undefined> {
  if (!canRun) return "needs --allow-run and --allow-write";
  const fromEnv = Deno.env.get("DENORT_BIN");
  if (fromEnv) {
    return await Deno.stat(fromEnv).then(() => undefined, () => `DENORT_BIN=${fromEnv} is missing`);
  }
  const zip = `denort-${Deno.build.target}.zip`;
  const info = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" });
  const denoDir = JSON.parse(new TextDecoder().decode((await info.output()).stdout)).denoDir;
  const cached = `${denoDir}/dl/release/v${Deno.version.deno}/${zip}`;
  if (await Deno.stat(cached).then(() => true, () => false)) return undefined;
  const url = `https://dl.deno.land/release/v${Deno.version.deno}/${zip}`;
  try {
    const res = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    if (res.ok) return undefined;
    return `${url} answered ${res.status}`;
  } catch (e) {
    return `denort ${Deno.version.deno} is not cached (${cached}), DENORT_BIN is unset and ` +
      `${url} cannot be fetched (${(e as Error).message.split("\n")[0]})`;
  }
}

const missing = await denortMissing();
if (missing) console.log(`compile_test: skipping the deno compile test: ${missing}`);

async function runVersion(command: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(command, {
    args: [...args, "--version"],
    cwd,
    stdout: "piped",
  })
    .output();
  assertEquals(out.code, 0, `${command} ${args.join(" ")} --version`);
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "the bundled CLIs run alone, with no node_modules and no config, under the size bound",
  ignore: !canRun,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "graphsvc-bundle-" });
    try {
      const files = await bundle(out);
      assertEquals(files.length, BINARIES.length);
      for (const [i, file] of files.entries()) {
        const { size } = await Deno.stat(file);
        assert(size < MAX_BUNDLE, `${file}: ${size} bytes (bound ${MAX_BUNDLE})`);
        // Run from the bundle's own folder: nothing to resolve npm packages from.
        const version = await runVersion(Deno.execPath(), [
          "run",
          "--no-config",
          "--node-modules-dir=none",
          "--no-npm",
          "--no-prompt",
          "--allow-env",
          file,
        ], `${out}/bundle`);
        assertEquals(version, `${BINARIES[i].name} ${VERSION}`);
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

Deno.test({
  name: "deno task compile makes graphsvc-ce and graphsvc-ee under the size bound; --version runs",
  ignore: missing !== undefined,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "graphsvc-compile-" });
    try {
      const binaries = await compile(out);
      for (const [i, binary] of binaries.entries()) {
        const { size } = await Deno.stat(binary);
        assert(size < MAX_BINARY, `${binary}: ${size} bytes (bound ${MAX_BINARY})`);
        const denort = Deno.env.get("DENORT_BIN");
        if (denort) {
          const base = (await Deno.stat(denort)).size;
          assert(size - base < MAX_BUNDLE, `${binary}: ${size - base} bytes above denort`);
        }
        assertEquals(await runVersion(binary, [], out), `${BINARIES[i].name} ${VERSION}`);
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
