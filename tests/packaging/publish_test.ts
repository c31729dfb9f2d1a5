// Issue 18 point 1: `deno publish --dry-run` passes (type check, slow types, file list) and the
// package ships the library and its runtime assets (the embedded browser files are generated
// `.gen.ts` modules under lib/), never tests, test data, benches, scripts or CI files.
// The dry run uploads nothing and needs no network: npm packages come from node_modules.
import { assert, assertEquals } from "../_assert.ts";

const ROOT = new URL("../../", import.meta.url);
const DENO = new URL("node_modules/.bin/deno", ROOT).pathname;

/** Why the dry run cannot run here, or `undefined` when it can. */
function cannotRun(): string | undefined {
  if (Deno.permissions.querySync({ name: "run" }).state !== "granted") return "needs --allow-run";
  if (Deno.permissions.querySync({ name: "read" }).state !== "granted") return "needs --allow-read";
  try {
    Deno.statSync(DENO);
  } catch {
    return `${DENO} is missing (run npm ci)`;
  }
  return undefined;
}

const reason = cannotRun();

/** Every non-test `.ts` file under lib/, relative to the project root. */
async function libFiles(dir = "lib"): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir(new URL(`${dir}/`, ROOT))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) found.push(...await libFiles(path));
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) found.push(path);
  }
  return found;
}

Deno.test({
  name: "deno publish --dry-run succeeds and ships mod.ts and lib/, not tests, testdata or bench" +
    (reason ? ` (skipped: ${reason})` : ""),
  ignore: reason !== undefined,
  async fn() {
    const out = await new Deno.Command(DENO, {
      args: ["publish", "--dry-run", "--allow-dirty"],
      cwd: ROOT,
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, text);
    assert(text.includes("Dry run complete"), text);
    // No warning of any kind (slow types, excluded modules, unanalyzable imports, …).
    const diagnostics = text.split("\n").filter((l) => !l.includes("file://"));
    assert(!diagnostics.some((l) => /warn/i.test(l)), diagnostics.join("\n"));

    const root = ROOT.href;
    const files = [...text.matchAll(/(file:\/\/\S+) \(/g)].map((m) => m[1].slice(root.length));
    for (const f of ["mod.ts", "LICENSE", "README.md", "deno.json", "cli.ts", "server.ts"]) {
      assert(files.includes(f), `${f} is not in the package`);
    }
    // The whole library, the embedded GraphiQL, Swagger UI and explorer files included.
    const missing = (await libFiles()).filter((f) => !files.includes(f));
    assertEquals(missing, [], "lib/ files left out of the package");
    assert(files.includes("lib/explorer/assets/cytoscape_js.gen.ts"), files.join("\n"));
    const unwanted = files.filter((f) =>
      /^(tests|testdata|bench|scripts|\.ci|dist|node_modules)\//.test(f) || f.endsWith("_test.ts")
    );
    assertEquals(unwanted, [], "files that must not be published");
  },
});
