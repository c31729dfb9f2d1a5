/**
 * Composition conflicts are configuration errors (cli.md CL21; modules-and-params.md MP25, MP33):
 * the CLI exits 2 before any phase runs, naming the code and both modules.
 */
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";

const head = (name: string) => `[module]\nname = "${name}"\nversion = "1.0.0"\n`;

Deno.test("CL21/MP25/MP33 param_conflict and module_conflict exit 2 before any phase", async () => {
  const root = await tempWorkspace({
    "data/assets/host.csv": "name,os\nweb,linux\n",
    "a/module.toml": head("a") + '[params.stage]\nallowed_values = ["DEV"]\n' +
      '[assets."host.csv"]\ncolumns = { os = "string" }\n',
    "b/module.toml": head("b") + '[params.stage]\nallowed_values = ["PROD"]\n',
    "c/module.toml": head("c") + '[assets."host.csv"]\ncolumns = { os = "integer" }\n',
  });
  const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache` };
  const args = (...mods: string[]) => [
    "--data-dir",
    `${root}/data`,
    ...mods.flatMap((m) => ["--module", `${root}/${m}`]),
    "build",
  ];
  const p = await cli(args("a", "b"), env);
  assertEquals(p.code, 2, p.stderr);
  assert(p.stderr.includes("param_conflict") && p.stderr.includes("module 'a'"), p.stderr);
  assertEquals(p.stdout, "", "no phase ran");
  const m = await cli(args("a", "c"), env);
  assertEquals(m.code, 2, m.stderr);
  assert(m.stderr.includes("module_conflict") && m.stderr.includes("column 'os'"), m.stderr);
  assertEquals((await cli(args("a"), env)).code, 0);
  await Deno.remove(root, { recursive: true });
});
