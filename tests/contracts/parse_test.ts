/**
 * Contract files (AC40–AC42): located parse errors, input declarations and validation (AC6),
 * template rendering, loading across layers, and every corpus contract parsing.
 */
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { ParseError } from "../../lib/formats/errors.ts";
import { parseContractFile } from "../../lib/contracts/parse.ts";
import { validateInputs } from "../../lib/contracts/inputs.ts";
import { renderContract } from "../../lib/contracts/render.ts";
import { ContractLoader } from "../../lib/contracts/load.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { REQUEST } from "./_fixture.ts";

function parseError(text: string): ParseError {
  return assertThrows(() => parseContractFile(text, "contracts/c.toml", "data"), ParseError);
}

Deno.test("AC41: a contract parses with inputs, requires and writes", () => {
  const c = parseContractFile(REQUEST, "contracts/request.toml", "data");
  assertEquals(c.name, "RequestCertificate");
  assertEquals(c.inputs.map((i) => [i.name, i.type, i.required, i.default]), [
    ["host", "string", true, undefined],
    ["key_type", "string", false, "ec"],
  ]);
  assertEquals(c.requires.length, 1);
  assertEquals(c.writes.map((w) => [w.action, w.state, w.expires, w.ttlMs]), [
    ["intake", "status", "expires_at", 86_400_000],
    ["update", undefined, undefined, undefined],
  ]);
});

Deno.test("AC41: parse errors are located at the offending key or block", () => {
  const e1 = parseError(
    'name = "A"\n[[write]]\ntarget_asset = "t"\naction = "merge"\nrecord = { a = "1" }\n',
  );
  assertEquals([e1.line, e1.code], [4, "contract_invalid"]);
  assert(
    e1.message.startsWith("contracts/c.toml:4:1: [[write]] #1: 'action' must be one of"),
    e1.message,
  );
  const e2 = parseError(
    'name = "A"\n[[input]]\nname = "n"\ntype = "float"\n[[write]]\ntarget_asset = "t"\nrecord = { a = "1" }\n',
  );
  assertEquals(e2.line, 4);
  const e3 = parseError('description = "x"\n[[write]]\ntarget_asset = "t"\nrecord = { a = "1" }\n');
  assert(e3.message.includes("needs a non-empty 'name'"));
  const e4 = parseError('name = "A"\n');
  assert(e4.message.includes("at least one [[write]]"));
  const e5 = parseError(
    'name = "A"\n[[write]]\ntarget_asset = "t"\nrecord = { a = "1" }\nbogus = 1\n',
  );
  assertEquals(e5.line, 5);
  const e6 = parseError(
    'name = "A"\n[[write]]\ntarget_asset = "t"\naction = "intake"\nlookup_by = { s = "x" }\nrecord = { a = "1" }\n',
  );
  assert(e6.message.includes("needs 'state'"), e6.message);
  // Spec §3 rule 4: only intake sets the expiry.
  const e7 = parseError(
    'name = "A"\n[[write]]\ntarget_asset = "t"\naction = "update"\nexpires = "exp"\nrecord = { exp = "x" }\n',
  );
  assertEquals(e7.line, 6);
  const e8 = parseError(
    'name = "A"\n[[input]]\nname = "n"\nallowed_values = ["a"]\ndefault = "b"\n[[write]]\ntarget_asset = "t"\nrecord = { a = "1" }\n',
  );
  assertEquals(e8.line, 5);
  const e9 = parseError('name = "A"\n[[write]]\ntarget_asset = "t"\nrecord = { a = "1" \n');
  assertEquals(e9.code, "toml_syntax");
});

Deno.test("AC6: inputs — unknown, missing, wrong type and not-allowed are reported per field; defaults apply", () => {
  const c = parseContractFile(
    `name = "I"
[[input]]
name = "s"
required = true
[[input]]
name = "b"
type = "boolean"
[[input]]
name = "i"
type = "integer"
default = 3
[[input]]
name = "env"
allowed_values = ["dev", "prod"]
[[input]]
name = "tags"
type = "array_of_string"
[[write]]
target_asset = "t"
record = { name = "x" }
`,
    "contracts/i.toml",
    "data",
  );
  const ok = validateInputs(c.inputs, { s: "x", b: false, tags: ["a"] });
  assertEquals(ok, { ok: true, values: { s: "x", b: false, i: 3, tags: ["a"] } });
  const bad = validateInputs(c.inputs, { b: "true", i: 1.5, env: "stage", tags: [1], zz: 1 });
  assert(!bad.ok);
  assertEquals(bad.errors.map((e) => e.field), ["zz", "s", "b", "i", "env", "tags"]);
  // Messages never repeat the given value.
  assert(!bad.errors.some((e) => e.message.includes("stage")));
  assert(!validateInputs(c.inputs, []).ok);
});

Deno.test("AC42: record and lookup_by templates see input.*, params and filters", () => {
  const c = parseContractFile(
    `name = "R"
[[input]]
name = "id"
required = true
[[write]]
target_asset = "t"
lookup_by = { name = "{{ input.id | lower }}" }
record = { env = "{{ input.env | default(value='dev') }}", stage = "{{ stage }}-{{ params.stage }}" }
`,
    "contracts/r.toml",
    "data",
  );
  const r = renderContract(
    c,
    { id: "X" },
    { stage: "DEV" },
    createTemplateRenderer({ stage: "DEV" }),
  );
  assertEquals(r.writes[0].lookupBy, { name: "x" });
  assertEquals(r.writes[0].record, { env: "dev", stage: "DEV-DEV" });
});

Deno.test("AC40/AC41: contracts load from modules (also rooted at data/) and the data dir; names are unique", async () => {
  const one = 'name = "One"\n[[write]]\ntarget_asset = "t"\nrecord = { name = "x" }\n';
  const module = new MemoryWorkspace({
    "data/module.toml": '[module]\nname = "m"\nversion = "1"\n',
    "data/contracts/one.toml": one,
  });
  const data = new MemoryWorkspace({
    "contracts/two.toml": one.replace("One", "Two"),
    "contracts/readme.md": "not a contract",
  });
  const loader = new ContractLoader(data, [{ id: "m", workspace: module }]);
  const all = await loader.load();
  assertEquals(all.map((c) => [c.name, c.module, c.file]), [
    ["One", "m", "m/contracts/one.toml"],
    ["Two", "data", "contracts/two.toml"],
  ]);
  await data.writeTextAtomic("contracts/three.toml", one);
  const { contracts, errors } = await loader.loadAll();
  assertEquals(contracts.map((c) => c.file), ["m/contracts/one.toml", "contracts/two.toml"]);
  assertEquals(errors.length, 1);
  assert(errors[0] instanceof ParseError);
  assertEquals([errors[0].file, errors[0].code], ["contracts/three.toml", "contract_duplicate"]);
  assert(errors[0].message.includes("also defined in m/contracts/one.toml"), errors[0].message);
});

Deno.test("AC40: a contract file that does not parse is reported, located; the others still load", async () => {
  const one = 'name = "One"\n[[write]]\ntarget_asset = "t"\nrecord = { name = "x" }\n';
  const data = new MemoryWorkspace({
    "contracts/a.toml": one,
    "contracts/broken.toml": 'name = "B"\n[[write]]\naction = 1\n',
    "contracts/syntax.toml": 'name = "C"\n[[write]\n',
  });
  const loader = new ContractLoader(data);
  const { contracts, errors } = await loader.loadAll();
  assertEquals(contracts.map((c) => c.name), ["One"]);
  assertEquals(errors.map((e) => e.file), ["contracts/broken.toml", "contracts/syntax.toml"]);
  for (const e of errors) assert(e.line !== undefined && e.line >= 2, e.message);
  assertEquals((await loader.load()).map((c) => c.name), ["One"]);
  assertEquals((await loader.find("One"))?.name, "One");
  // Fixing the file makes it usable on the next load (the parse cache follows the text).
  await data.writeTextAtomic("contracts/broken.toml", one.replace("One", "B"));
  assertEquals((await loader.load()).map((c) => c.name), ["One", "B"]);
});

const canRead = (await Deno.permissions.query({ name: "read" })).state === "granted";

Deno.test({
  name: "AC40: every contracts/*.toml of the corpus parses",
  ignore: !canRead,
}, async () => {
  const root = "/work/shared/corpus";
  let found = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.isFile && e.name.endsWith(".toml") && dir.endsWith("/contracts")) {
        parseContractFile(await Deno.readTextFile(path), path, "corpus");
        found++;
      }
    }
  };
  await walk(root);
  // The corpus holds no contract files today; the walk keeps checking as it grows.
  assert(found >= 0);
});
