/**
 * MP8: unknown keys of every manifest table the engine reads are `unknown_key` warnings naming
 * file, table and line: `[requirements.<type>]` (MP41), `[[requirement]]` (MP42),
 * `[[implements]]`/`[[schema]]` (MP40, SV10), input `fields` (MP38) and generator tables (GN2,
 * GN10, GN20, GN30). Pure: no permissions.
 */
import { assertEquals } from "../_assert.ts";
import { manifestKeyWarnings } from "../../lib/workspace/manifest_keys.ts";
import { parseTomlDocument } from "../../lib/workspace/manifest.ts";
import { GENERATOR_KEYS } from "../../lib/generators/declarations.ts";

const HEAD = '[module]\nname = "m"\nversion = "1.0.0"\n';

/** `[code, line, message up to the list of expected keys]` of the warnings of `text`. */
function warnings(text: string): [string, number | undefined, string][] {
  return manifestKeyWarnings(parseTomlDocument(text, "m/module.toml"), text, "m/module.toml")
    .map((w) => {
      assertEquals(w.file, "m/module.toml");
      return [w.code, w.line, w.message.split(" (ignored")[0]];
    });
}

Deno.test("MP8/MP41 [requirements.<type>]: unknown keys warn with their line", () => {
  const text = HEAD + '[requirements.host]\nproperties = ["os"]\ndescription = "d"\n' +
    'propertes = ["owner"]\n';
  assertEquals(warnings(text), [
    ["unknown_key", 7, "unknown key 'propertes' in [requirements.host]"],
  ]);
});

Deno.test("MP8/MP42 [[requirement]]: each entry is checked and located at its own table", () => {
  const text = HEAD + '[[requirement]]\ntype = "host"\nproperties = ["os"]\n' +
    '[[requirement]]\ntype = "zone"\nprops = ["ttl"]\n';
  assertEquals(warnings(text), [
    ["unknown_key", 9, "unknown key 'props' in [[requirement]] (entry 2)"],
  ]);
});

Deno.test("MP8/MP40 [[implements]] and [[schema]]: unknown keys warn", () => {
  const text = 'schemas = ["./a.schema.json"]\n' + HEAD +
    '[[implements]]\nschema = "fleet"\nversion = "1"\nresources = ["host"]\nresource = ["x"]\n' +
    '[[schema]]\nschema = "./b.schema.json"\nresources = ["zone"]\nversion = "2"\n';
  assertEquals(warnings(text), [
    ["unknown_key", 9, "unknown key 'resource' in [[implements]] (entry 1)"],
    ["unknown_key", 13, "unknown key 'version' in [[schema]] (entry 1)"],
  ]);
});

Deno.test("MP8/MP38 input fields: map entries, shorthand strings and array entries", () => {
  const text = HEAD + '[inputs."a.json"]\nformat = "object_of_objects"\n' +
    '[inputs."a.json".fields]\nrole = "string"\ntarget = { type = "object", requird = true }\n' +
    '[input."b.json"]\nformat = "object_of_objects"\n' +
    '[[input."b.json".fields]]\nname = "x"\ntype = "string"\n' +
    '[[input."b.json".fields]]\nname = "y"\nallow_emtpy = false\n';
  assertEquals(warnings(text), [
    ["unknown_key", 8, "unknown key 'requird' in [inputs.\"a.json\".fields.target]"],
    ["unknown_key", 16, "unknown key 'allow_emtpy' in [[input.\"b.json\".fields]] (entry 2)"],
  ]);
});

Deno.test("MP8/GN2 generator tables (both spellings): the keys the generator reader accepts, nothing else", () => {
  const text = HEAD + '[generator.regions]\nurl = "https://x"\ntarget_input = "r.json"\n' +
    'ttl = "6h"\nttll = "1h"\n[generator.regions.pagination]\ncursor_jmespath = "next"\n' +
    'max_page = 3\n[generators.run]\ncommand = ["x"]\ntarget_asset = "a.csv"\n' +
    '[generators.run.vault_secrets.tok]\ncollection = "c"\nsecret = "s"\nkey = "k"\n';
  assertEquals(warnings(text), [
    ["unknown_key", 8, "unknown key 'ttll' in [generator.regions]"],
    ["unknown_key", 11, "unknown key 'max_page' in [generator.regions.pagination]"],
    ["unknown_key", 18, "unknown key 'key' in [generators.run.vault_secrets.tok]"],
  ]);
  // Every key the reader accepts is accepted here (one shared list).
  const all = HEAD + "[generator.g]\n" + GENERATOR_KEYS.map((k) => `${k} = "v"\n`).join("");
  assertEquals(warnings(all), []);
});
