import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { parseActionFile } from "../../lib/actions/declarations.ts";
import { ActionConfigError } from "../../lib/actions/errors.ts";
import { CORPUS_DIR, SKIP_CORPUS } from "../corpus/_corpus.ts";

const FULL = `name = "restart"
description = "Restart a host"
origin_resource = "host"
match_on = [{ property = "env", value = "prod" }]
exec = [["sh", "-c", "./restart.sh {{ origin_resource.name }}"]]
capabilities = ["host.restart"]
run_mode = "service"
auto_execute = true

[[input]]
name = "force"
type = "boolean"
default = false

[[input]]
name = "zone"
required = true
allowed_values = ["a", "b"]

[env]
TARGET = "{{ origin_resource.name }}"

[[file]]
path = "conf/target.txt"
template = "{{ origin_resource.name }}"

[vault_secrets]
DB_PASSWORD = { collection = "db", secret = "pw" }

[runtime]
engine = "nix"
[runtime.expose]
socket = "api.sock"
`;

Deno.test("AC2 every key of an action file is read", () => {
  const a = parseActionFile(FULL, "actions/restart.toml", "data");
  assertEquals(a.name, "restart");
  assertEquals(a.module, "data");
  assertEquals(a.originResource, "host");
  assert(a.matchOn);
  assertEquals(a.exec, [["sh", "-c", "./restart.sh {{ origin_resource.name }}"]]);
  assertEquals(a.inputs.map((i) => [i.name, i.type, i.required]), [
    ["force", "boolean", false],
    ["zone", "string", true],
  ]);
  assertEquals(a.inputs[1].allowedValues, ["a", "b"]);
  assertEquals(a.env, [["TARGET", "{{ origin_resource.name }}"]]);
  assertEquals(a.files, [{
    path: "conf/target.txt",
    template: "{{ origin_resource.name }}",
    source: undefined,
  }]);
  assertEquals(a.vaultSecrets, [["DB_PASSWORD", { collection: "db", secret: "pw" }]]);
  assertEquals(a.runtime, "nix");
  assertEquals(a.expose, { socket: "api.sock" });
  assertEquals(a.runMode, "service");
  assertEquals(a.autoExecute, true);
  assertEquals(a.capabilities, ["host.restart"]);
});

Deno.test("AC2 defaults: job, bash, no inputs, runtime as a string", () => {
  const a = parseActionFile('name = "a"\nruntime = "docker"\nexec = [["true"]]\n', "x.toml", "m");
  assertEquals([a.runMode, a.runtime, a.autoExecute, a.inputs.length], ["job", "docker", false, 0]);
});

function located(text: string, reason: string): ActionConfigError {
  return assertThrows(
    () => parseActionFile(text, "actions/bad.toml", "data"),
    ActionConfigError,
    reason,
  );
}

Deno.test("AC2 errors are located at file:line:col of the offending key", () => {
  let e = located('name = "a"\n\nrun_mode = "daemon"\nexec = [["x"]]\n', "run_mode");
  assertEquals([e.file, e.line, e.column], ["actions/bad.toml", 3, 1]);
  assert(e.message.startsWith("actions/bad.toml:3:1: "));
  e = located(
    'name = "a"\nexec = [["x"]]\n\n[[input]]\nname = "x"\n\n[[input]]\nname = "y"\n  type = "float"\n',
    "type",
  );
  assertEquals([e.line, e.column], [9, 3]);
  e = located('name = "a"\nexec = "echo"\n', "exec");
  assertEquals(e.line, 2);
  e = located('name = "a"\n', "'exec' is required");
  assertEquals(e.line, 1);
  e = located('name = "a"\nexec = [["x"]]\n[runtime.expose]\nsocket = "/abs.sock"\n', "socket");
  assertEquals(e.line, 3);
});

Deno.test("AC2 TOML syntax errors keep the parser's location", () => {
  const e = located('name = "a"\nexec = [["x"]\n', "");
  assertEquals(e.code, "toml_syntax");
  assertEquals(e.line !== undefined, true);
});

Deno.test("AC2 invalid values are refused", () => {
  located('name = "a b"\nexec = [["x"]]\n', "'name'");
  located('name = "a"\nexec = [[]]\n', "exec[0]");
  located(
    'name = "a"\nexec = [["x"]]\nmatch_on = [{ property = "x", value = 1 }]\n',
    "origin_resource",
  );
  located('name = "a"\nexec = [["x"]]\n[[file]]\npath = "../x"\ntemplate = "t"\n', "path");
  located('name = "a"\nexec = [["x"]]\n[[file]]\npath = "x"\n', "exactly one");
  located('name = "a"\nexec = [["x"]]\n[vault_secrets]\nX = { collection = "c" }\n', "secret 'X'");
  located('name = "a"\nexec = [["x"]]\nauto_execute = "yes"\n', "auto_execute");
  located('name = "a"\nexec = [["x"]]\n[[input]]\nname = "x"\n[[input]]\nname = "x"\n', "twice");
});

Deno.test("AC2 published modules' form: [input] properties, [runtime] engine, [[mount]]", () => {
  const a = parseActionFile(
    `name = "deploy"
exec = [["sh", "-c", "echo {{ input.dry_run }}"]]
[input]
properties = { dry_run = { type = "boolean", default = false, description = "d" }, tags = { type = "array" } }
required = ["tags"]
[runtime]
engine = "nix"
flake = "./flake.nix"
[[mount]]
resource_type = "python"
origin_resource = "network"
filename = "vpc.py"
mount_path = "module/vpc.py"
`,
    "actions/deploy.toml",
    "m",
  );
  assertEquals(a.inputs.map((i) => [i.name, i.type, i.required, i.default]), [
    ["dry_run", "boolean", false, false],
    ["tags", "array_of_string", true, undefined],
  ]);
  assertEquals(a.runtime, "nix");
  assertEquals(a.mounts, [{
    resourceType: "python",
    originResource: "network",
    filename: "vpc.py",
    mountPath: "module/vpc.py",
  }]);
});

Deno.test({
  name: "AC1 every action file of the corpus parses",
  ignore: SKIP_CORPUS,
  fn() {
    let count = 0;
    const walk = (dir: string) => {
      for (const e of Deno.readDirSync(dir)) {
        const p = `${dir}/${e.name}`;
        if (e.isDirectory) walk(p);
        else if (e.name.endsWith(".toml") && /\/actions\/[^/]+$/.test(p)) {
          parseActionFile(Deno.readTextFileSync(p), p, "corpus");
          count++;
        }
      }
    };
    walk(CORPUS_DIR!.replace(/\/$/, ""));
    assert(count > 0, "the corpus has action files");
  },
});

Deno.test("AC2 AC6 an [[input]]'s default is type-checked when the action file is read, located", () => {
  const e = located(
    'name = "a"\nexec = [["x"]]\n[[input]]\nname = "n"\ntype = "integer"\ndefault = "3"\n',
    "input[0]: 'default': expected an integer",
  );
  assertEquals([e.line, e.column], [6, 1]);
  located(
    'name = "a"\nexec = [["x"]]\n[[input]]\nname = "t"\ntype = "array_of_string"\nallowed_values = ["a"]\ndefault = ["b"]\n',
    "not one of",
  );
  located('name = "a"\nexec = [["x"]]\n[[input]]\nname = "n"\ncolour = "red"\n', "colour");
  located(
    'name = "a"\nexec = [["x"]]\n[input]\nproperties = { d = { type = "boolean", default = "no" } }\n',
    "input 'd': 'default'",
  );
});

Deno.test("AC2 unknown keys of an action file are located unknown_key warnings, not dropped silently", () => {
  const a = parseActionFile(
    'name = "a"\nexec = [["x"]]\nmatch_of = []\n[[file]]\npath = "p"\ntemplate = "t"\nmode = "0644"\n[runtime]\nengine = "nix"\nflake = "./f"\ncolour = 1\n[vault_secrets]\nK = { collection = "c", secret = "s", version = 2 }\n',
    "actions/a.toml",
    "data",
  );
  assertEquals(
    a.warnings.map((w) => [w.code, w.line, w.message.match(/unknown key '(\w+)'/)?.[1]]),
    [
      ["unknown_key", 3, "match_of"],
      ["unknown_key", 7, "mode"],
      ["unknown_key", 11, "colour"],
      ["unknown_key", 12, "version"],
    ],
  );
  assert(a.warnings[1].message.includes("[file]"), a.warnings[1].message);
  assertEquals(parseActionFile(FULL, "actions/restart.toml", "data").warnings, []);
});
