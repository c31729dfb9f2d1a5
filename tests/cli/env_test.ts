// GRAPHSVC_* environment variables for every option of every command (issue 18 item 5): the
// variable fills an option the command line leaves out; the command line wins.
import type { Command, Option } from "@commander-js/extra-typings";
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";
import { buildProgram } from "../../cli.ts";
import {
  allCommands,
  envExemption,
  envVarName,
  NON_OPTION_VARIABLES,
} from "../../lib/cli/env_options.ts";

function workspace() {
  return tempWorkspace({ "assets/h.csv": "name\nx\n" });
}

/** Every option of both editions' programs, with the command path it belongs to. */
function everyOption(): { path: string; option: Option }[] {
  const found: { path: string; option: Option }[] = [];
  for (const edition of ["ce", "ee"] as const) {
    const program = buildProgram(edition, { code: 0 }) as unknown as Command;
    const walk = (cmd: Command, path: string) => {
      for (const option of cmd.options) found.push({ path, option: option as Option });
      for (const sub of cmd.commands) walk(sub as unknown as Command, `${path} ${sub.name()}`);
    };
    walk(program, program.name());
  }
  return found;
}

Deno.test("CL2/CL3 every option of every command has a GRAPHSVC_<FLAG> variable or a stated reason", () => {
  const all = everyOption();
  // The walk reaches nested commands (mod check-schema, vault collection invite).
  assert(all.some((o) => o.path.endsWith("vault collection invite")), "nested commands walked");
  assert(all.some((o) => o.path === "graphsvc-ce generate-schema"), "CE-only commands walked");
  const missing: string[] = [];
  for (const { path, option } of all) {
    const why = envExemption(option);
    if (option.envVar === undefined) {
      if (why === undefined) missing.push(`${path} ${option.flags}`);
      continue;
    }
    assertEquals(option.envVar, envVarName(option.long!), `${path} ${option.flags}`);
    assertEquals(why, undefined, `${path} ${option.flags} has a variable and an exemption`);
  }
  assertEquals(missing, [], "options without a variable and without a reason");
});

Deno.test("CL3 one variable has one meaning across commands and is no other graphsvc variable", () => {
  const byVar = new Map<string, { path: string; option: Option }[]>();
  for (const o of everyOption()) {
    if (o.option.envVar) byVar.set(o.option.envVar, [...(byVar.get(o.option.envVar) ?? []), o]);
  }
  assert(byVar.size > 30, `${byVar.size} variables`);
  // Shared on purpose: validate and mod check-schema, the two vault commands taking --role.
  assertEquals(byVar.get("GRAPHSVC_STRICT_SCHEMAS")!.length > 1, true);
  const shape = (o: Option) =>
    JSON.stringify({
      long: o.long,
      required: o.required,
      optional: o.optional,
      negate: o.negate,
      variadic: o.variadic,
      choices: o.argChoices,
    });
  for (const [name, uses] of byVar) {
    assert(
      !NON_OPTION_VARIABLES.some((v) => v.endsWith("_") ? name.startsWith(v) : name === v),
      `${name} is also read as a non-option variable`,
    );
    const first = uses[0];
    for (const other of uses.slice(1)) {
      const where = `${name}: ${first.path} vs ${other.path}`;
      assertEquals(shape(other.option), shape(first.option), where);
      // Same parser (choices build a fresh checker per option: compared by their list above).
      if (!first.option.argChoices) {
        assert(other.option.parseArg === first.option.parseArg, `${where}: different parsers`);
      }
    }
  }
});

Deno.test("CL2 the help of every command names the variable of each of its options", () => {
  for (const edition of ["ce", "ee"] as const) {
    for (const cmd of allCommands(buildProgram(edition, { code: 0 }) as unknown as Command)) {
      // Lines wrap at any space: compare with runs of white space made single spaces.
      const help = cmd.helpInformation().replace(/\s+/g, " ");
      for (const option of cmd.options) {
        if (option.envVar) assert(help.includes(`env: ${option.envVar}`), `${cmd.name()}: ${help}`);
      }
    }
  }
});

Deno.test("CL2 --help of a real process shows the variables, nested commands included", async () => {
  const global = await cli(["--help"]);
  assert(global.stdout.includes("GRAPHSVC_DATA_DIR"), global.stdout);
  assert(global.stdout.includes("GRAPHSVC_VAULT)"), global.stdout);
  assert(global.stdout.includes("GRAPHSVC_OFFLINE"), global.stdout);
  const serve = await cli(["serve", "--help"]);
  assert(serve.stdout.includes("GRAPHSVC_NO_WATCH"), serve.stdout);
  const invite = await cli(["vault", "collection", "invite", "--help"]);
  assert(invite.stdout.includes("GRAPHSVC_VALIDITY"), invite.stdout);
  assert(invite.stdout.includes("GRAPHSVC_ROLE"), invite.stdout);
});

Deno.test("GRAPHSVC_DATA_DIR and GRAPHSVC_LOG_FORMAT stand in for --data-dir and --log-format", async () => {
  const dir = await workspace();
  const r = await cli(["build"], { GRAPHSVC_DATA_DIR: dir, GRAPHSVC_LOG_FORMAT: "json" });
  assertEquals(r.code, 0, r.stderr);
  assert(r.stdout.includes("resources: 1"), r.stdout);
  const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
  assert(lines.length > 0, r.stderr);
  for (const line of lines) {
    assertEquals(Object.keys(JSON.parse(line)), ["time", "level", "message"]);
  }
});

Deno.test("CL18 GRAPHSVC_GRAPH_JSON stands in for build --graph-json", async () => {
  const dir = await workspace();
  const out = `${dir}/graph.json`;
  const r = await cli(["--data-dir", dir, "build"], { GRAPHSVC_GRAPH_JSON: out });
  assertEquals(r.code, 0, r.stderr);
  const graph = JSON.parse(await Deno.readTextFile(out));
  assert(JSON.stringify(graph).includes('"x"'), JSON.stringify(graph));
});

Deno.test("CL12 GRAPHSVC_FORMAT stands in for validate --format", async () => {
  const dir = await workspace();
  const r = await cli(["--data-dir", dir, "validate"], { GRAPHSVC_FORMAT: "json" });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(typeof JSON.parse(r.stdout).error_count, "number");
});

Deno.test("the command line wins over GRAPHSVC_* variables", async () => {
  const dir = await workspace();
  const r = await cli(["--data-dir", dir, "--log-format", "text", "build"], {
    GRAPHSVC_DATA_DIR: `${dir}/does-not-exist`,
    GRAPHSVC_LOG_FORMAT: "json",
  });
  assertEquals(r.code, 0, r.stderr);
  assert(!r.stderr.trimStart().startsWith("{"), r.stderr);
});

Deno.test("CL21 an invalid variable value is a usage error (exit 2) naming the variable", async () => {
  const choice = await cli(["build"], { GRAPHSVC_LOG_LEVEL: "loud" });
  assertEquals(choice.code, 2, choice.stderr);
  assert(choice.stderr.includes("'loud' from env 'GRAPHSVC_LOG_LEVEL'"), choice.stderr);
  const parsed = await cli(["serve"], { GRAPHSVC_PORT: "seventy" });
  assertEquals(parsed.code, 2, parsed.stderr);
  assert(parsed.stderr.includes("'seventy' from env 'GRAPHSVC_PORT'"), parsed.stderr);
  const number = await cli(["build"], { GRAPHSVC_MAX_LOOP: "0" });
  assertEquals(number.code, 2, number.stderr);
  assert(number.stderr.includes("from env 'GRAPHSVC_MAX_LOOP'"), number.stderr);
});

Deno.test("CL21 an invalid option value on the command line is a usage error naming the option", async () => {
  const r = await cli(["serve", "--port", "seventy"]);
  assertEquals(r.code, 2, r.stderr);
  assert(r.stderr.includes("--port"), r.stderr);
  assert(r.stderr.includes("'seventy'"), r.stderr);
});

Deno.test("a false-looking value of a flag variable is refused instead of turning the flag on", async () => {
  const r = await cli(["build"], { GRAPHSVC_READ_ONLY: "false" });
  assertEquals(r.code, 2, r.stderr);
  assert(r.stderr.includes("GRAPHSVC_READ_ONLY"), r.stderr);
  // Flags of every command, not only of the one run (validate and mod check-schema).
  const nested = await cli(["build"], { GRAPHSVC_STRICT_SCHEMAS: "off" });
  assertEquals(nested.code, 2, nested.stderr);
  assert(nested.stderr.includes("GRAPHSVC_STRICT_SCHEMAS"), nested.stderr);
});

Deno.test("CL3 the README lists the variable of every option", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const unlisted = [...new Set(everyOption().map((o) => o.option.envVar))]
    .filter((name) => name !== undefined && !readme.includes(`\`${name}\``));
  assertEquals(unlisted, [], "variables missing from README.md");
});
