import { assert, assertEquals, assertThrows } from "../_assert.ts";
import {
  GeneratorConfigError,
  loadGenerators,
  parseDuration,
  readGenerators,
} from "../../lib/generators/mod.ts";
import { parseTomlDocument } from "../../lib/workspace/manifest.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";

function gens(toml: string) {
  return readGenerators([
    {
      id: "data",
      isDataDir: true,
      location: "/d",
      doc: parseTomlDocument(toml, "module.toml"),
      text: toml,
    },
  ]);
}

function configError(toml: string, code: string): GeneratorConfigError {
  const e = assertThrows(() => gens(toml), GeneratorConfigError);
  assertEquals(e.code, code, e.message);
  return e;
}

Deno.test("GN1 both spellings are read and run in declaration order", () => {
  const g = gens(`
[generators.b]
url = "http://127.0.0.1:1/b"
target_input = "b.json"
[generator.a]
command = ["x"]
target_asset = "a.csv"
[generators.c]
url = "http://127.0.0.1:1/c"
target_input = "c.json"
`);
  assertEquals(g.map((x) => x.name), ["b", "a", "c"]);
  assertEquals(g.map((x) => x.targetPath), ["input/b.json", "assets/a.csv", "input/c.json"]);
});

Deno.test("GN1 the same name under both spellings is generator_duplicate", () => {
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\n[generators.a]\nurl = "http://x/"\ntarget_input = "a.json"\n`,
    "generator_duplicate",
  );
});

Deno.test("GN2 runner defaults: command → exec, url → http; abort_on_failure defaults to false", () => {
  const [a, b] = gens(
    `[generator.a]\ncommand = ["x"]\ntarget_input = "a.json"\n[generator.b]\nurl = "http://x/"\ntarget_input = "b.json"\n`,
  );
  assertEquals([a.runner, b.runner], ["exec", "http"]);
  assertEquals([a.abortOnFailure, b.abortOnFailure], [false, false]);
});

Deno.test("GN3 target: exactly one, plain relative path; unknown runner is a config error", () => {
  configError(`[generator.a]\nurl = "http://x/"\n`, "generator_target");
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\ntarget_asset = "a.csv"\n`,
    "generator_target",
  );
  configError(`[generator.a]\nurl = "http://x/"\ntarget_input = "../a.json"\n`, "generator_target");
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "/etc/a.json"\n`,
    "generator_target",
  );
  const e = configError(
    `[generator.a]\nrunner = "ftp"\nurl = "http://x/"\ntarget_input = "a.json"\n`,
    "generator_runner",
  );
  assert(e.message.includes("module.toml: generator_runner: generator 'a'"), e.message);
});

Deno.test("GN4 duration grammar and invalid ttl / condition", () => {
  assertEquals(parseDuration("90s"), 90_000);
  assertEquals(parseDuration("30m"), 1_800_000);
  assertEquals(parseDuration("1h30m"), 5_400_000);
  assertEquals(parseDuration("1d"), 86_400_000);
  assertEquals(parseDuration("72h"), 259_200_000);
  for (const bad of ["", "6", "h", "6 h", "1.5h", "6w", "-1h"]) {
    assertEquals(parseDuration(bad), undefined, bad);
  }
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nttl = "6 hours"\n`,
    "generator_ttl",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\ncondition = "always"\n`,
    "generator_condition",
  );
  const [g] = gens(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nttl = "6h"\ncondition = "on_missing"\n`,
  );
  assertEquals([g.ttlMs, g.onMissing], [21_600_000, true]);
});

Deno.test("GN10 GN14 GN20 http keys are validated", () => {
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nmethod = "TRACE"\n`,
    "generator_method",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nresponse_filter = { "jmespath!" = "a", "tera!" = "b" }\n`,
    "generator_filter",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nresponse_filter = { "jq!" = "." }\n`,
    "generator_filter",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\npagination = { strategy = "offset", cursor_jmespath = "n" }\n`,
    "generator_pagination",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\npagination = { cursor_jmespath = "n", max_pages = 0 }\n`,
    "generator_pagination",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\npagination = { cursor_jmespath = "n", inject_into = "cookie" }\n`,
    "generator_pagination",
  );
  configError(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nvault_secrets = { k = { collection = "c" } }\n`,
    "generator_vault",
  );
  const [g] = gens(
    `[generator.a]\nurl = "http://x/"\ntarget_input = "a.json"\nmethod = "post"\npagination = { cursor_jmespath = "next" }\n`,
  );
  assertEquals(g.http?.method, "POST");
  assertEquals(g.http?.pagination, {
    strategy: "cursor",
    cursorJmespath: "next",
    injectInto: "url",
    maxPages: 100,
  });
});

Deno.test("GN30 exec keys: command must be a non-empty string array, env KEY=VALUE", () => {
  configError(
    `[generator.a]\nrunner = "exec"\ncommand = []\ntarget_input = "a.json"\n`,
    "generator_invalid",
  );
  configError(
    `[generator.a]\ncommand = ["x"]\nenv = ["NOEQUALS"]\ntarget_input = "a.json"\n`,
    "generator_invalid",
  );
  const [g] = gens(
    `[generator.a]\ncommand = ["x", "{{ target_input }}"]\nenv = ["A=b=c"]\ntarget_input = "a.json"\n`,
  );
  assertEquals(g.exec, {
    command: ["x", "{{ target_input }}"],
    env: [["A", "b=c"]],
    fromStdout: false,
  });
});

Deno.test("GN5 modules in load order, then the data directory; params resolved with defaults", async () => {
  const mod = new MemoryWorkspace({
    "data/module.toml":
      `[params.stage]\ndefault = "DEV"\n[generator.m]\nurl = "http://x/"\ntarget_input = "m.json"\n`,
  }, "/mods/m");
  const data = new MemoryWorkspace({
    "module.toml": `[generator.d]\nurl = "http://x/"\ntarget_input = "d.json"\n`,
  });
  const loaded = await loadGenerators(data, [{ id: "m", workspace: mod }], { extra: 1 });
  assertEquals(loaded.generators.map((g) => [g.module, g.name]), [["m", "m"], ["data", "d"]]);
  assertEquals(loaded.generators[0].moduleLocation, "/mods/m/data");
  assertEquals(loaded.params, { stage: "DEV", extra: 1 });
});
