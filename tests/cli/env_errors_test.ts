// Errors found after parsing name where the value came from (issue 18 item 5, CL21): the
// GRAPHSVC_* variable when the environment set it, the option when the command line did.
import { Command } from "@commander-js/extra-typings";
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";
import { envOption, optionOrigin } from "../../lib/cli/env_options.ts";

function workspace() {
  return tempWorkspace({ "assets/h.csv": "name\nx\n" });
}

Deno.test("CL21 a missing data directory names GRAPHSVC_DATA_DIR or --data-dir, whichever set it", async () => {
  const dir = await workspace();
  const missing = `${dir}/does-not-exist`;
  for (const command of [["build"], ["bootstrap"], ["validate"]]) {
    const env = await cli(command, { GRAPHSVC_DATA_DIR: missing });
    assertEquals(env.code, 2, env.stderr);
    assert(
      env.stderr.includes(`GRAPHSVC_DATA_DIR: data directory '${missing}' does not exist`),
      `${command}: ${env.stderr}`,
    );
    const flag = await cli(["--data-dir", missing, ...command]);
    assertEquals(flag.code, 2, flag.stderr);
    assert(
      flag.stderr.includes(`--data-dir: data directory '${missing}' does not exist`),
      `${command}: ${flag.stderr}`,
    );
    assert(!flag.stderr.includes("GRAPHSVC_DATA_DIR"), flag.stderr);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("CL21/AC60 a bad vault state file names GRAPHSVC_VAULT or --vault", async () => {
  const dir = await workspace();
  const state = `${dir}/vault.json`;
  await Deno.writeTextFile(state, "{ not json");
  const env = await cli(["--data-dir", dir, "serve", "--port", "0", "--no-watch"], {
    GRAPHSVC_VAULT: state,
  });
  assertEquals(env.code, 2, env.stderr);
  assert(env.stderr.includes(`error: GRAPHSVC_VAULT: ${state}: not JSON`), env.stderr);
  const flag = await cli(["--data-dir", dir, "--vault", state, "serve", "--port", "0"]);
  assertEquals(flag.code, 2, flag.stderr);
  assert(flag.stderr.includes(`error: --vault: ${state}: not JSON`), flag.stderr);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("CL21/MP26 a bad parameter value names GRAPHSVC_MODULE_PARAMS or --module-params", async () => {
  const dir = await workspace();
  const cases: [string, string][] = [
    ["{bad", "GRAPHSVC_MODULE_PARAMS is not valid JSON"],
    ["stage", "expected key=value in GRAPHSVC_MODULE_PARAMS, got 'stage'"],
    [`@${dir}/none.json`, `GRAPHSVC_MODULE_PARAMS: cannot read parameter file '${dir}/none.json'`],
  ];
  for (const [value, message] of cases) {
    const env = await cli(["--data-dir", dir, "build"], { GRAPHSVC_MODULE_PARAMS: value });
    assertEquals(env.code, 2, env.stderr);
    assert(env.stderr.includes(message), `${value}: ${env.stderr}`);
    const flag = await cli(["--data-dir", dir, "--module-params", value, "build"]);
    assertEquals(flag.code, 2, flag.stderr);
    assert(
      flag.stderr.includes(message.replace("GRAPHSVC_MODULE_PARAMS", "--module-params")),
      `${value}: ${flag.stderr}`,
    );
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("A1 the layout warning of a data directory names the variable that set it", async () => {
  const dir = await workspace();
  const r = await cli(["build"], { GRAPHSVC_DATA_DIR: `${dir}/assets` });
  assertEquals(r.code, 0, r.stderr);
  assert(r.stderr.includes("pass its parent directory as GRAPHSVC_DATA_DIR"), r.stderr);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("optionOrigin: the variable for a value from the environment, else the flag", () => {
  const program = () =>
    new Command()
      .addOption(envOption("--data-dir <dir>", "data").default("./data"))
      .exitOverride();
  const origin = (args: string[], env: Record<string, string>) => {
    const p = program();
    // Commander reads process variables while parsing: set them only around the parse.
    for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
    try {
      p.parse(args, { from: "user" });
    } finally {
      for (const k of Object.keys(env)) Deno.env.delete(k);
    }
    return optionOrigin(p as unknown as Command, "dataDir");
  };
  assertEquals(origin([], {}), "--data-dir");
  assertEquals(origin(["--data-dir", "/d"], {}), "--data-dir");
  assertEquals(origin([], { GRAPHSVC_DATA_DIR: "/e" }), "GRAPHSVC_DATA_DIR");
  // The command line wins over the variable, and so is what a message names.
  assertEquals(origin(["--data-dir", "/d"], { GRAPHSVC_DATA_DIR: "/e" }), "--data-dir");
  assertEquals(optionOrigin(program() as unknown as Command, "noSuchOption"), "noSuchOption");
});
