import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseRuleFile } from "../../lib/formats/toml.ts";
import { ParseError } from "../../lib/formats/errors.ts";

function assertThrows(fn: () => unknown, type: typeof ParseError): ParseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof type) return e;
    throw e;
  }
  throw new Error("expected a ParseError");
}

const KINDS = {
  blockKinds: ["create_resource", "link_resources", "copy_property", "retype_relation"],
};

Deno.test("M2 chunks: every origin_resource line after rules starts a chunk (netbox layout)", () => {
  const text = [
    'origin_resource = "netbox_vms"', //  1
    "[[create_resource]]", //             2
    'resource_type = "server"', //        3
    'name = "{{ origin_resource.name }}"',
    "[create_resource.properties]", //    5
    'cluster = "x"', //                   6
    "", //                                7
    'origin_resource = "server"', //      8
    "[[link_resources]]", //              9
    'with = "teams"', //                  10
    'on = { local = "owner_slug", remote = "slug" }',
  ].join("\n");
  const f = parseRuleFile(text, "models/n.toml", KINDS);
  assertEquals(f.chunks.length, 2);
  assertEquals(f.chunks[0].originType, "netbox_vms");
  assertEquals(f.chunks[1].originType, "server");
  assertEquals(f.chunks[1].startLine, 8);
  const cr = f.chunks[0].blocks[0];
  assertEquals(cr.kind, "create_resource");
  assertEquals(cr.position.line, 2);
  assertEquals(cr.keys.get("name")?.line, 4);
  assertEquals(cr.keys.get("properties")?.line, 5);
  assertEquals(cr.keys.get("properties.cluster")?.line, 6);
  assertEquals(f.chunks[1].blocks[0].body, {
    with: "teams",
    on: { local: "owner_slug", remote: "slug" },
  });
  assertEquals(f.chunks[1].blocks[0].keys.get("on")?.line, 11);
});

Deno.test("M3 header before the first origin_resource belongs to the first chunk (oci router)", () => {
  const text = [
    "resource_function = { \"template!\" = '''",
    "{%- set purpose = origin_resource.function -%}",
    'origin_resource = "not a key: inside a multi-line string"',
    "{{ purpose }}",
    "''' }",
    "",
    'origin_resource = "provider"',
    "[[create_resource]]",
    'resource_type = "router"',
    'name = "r"',
  ].join("\n");
  const f = parseRuleFile(text, "models/router.toml", KINDS);
  assertEquals(f.chunks.length, 1);
  assertEquals(f.chunks[0].originType, "provider");
  assertEquals(f.chunks[0].header.map((h) => h.key), ["resource_function"]);
  assertEquals(f.chunks[0].header[0].position?.line, 1);
});

Deno.test("M2 rules before the first origin_resource form a global chunk (port_filter)", () => {
  const text = '[[create_resource]]\nresource_type = "pf"\nname = "x"\n\norigin_resource = "pf"\n' +
    '[[link_resources]]\nwith = "network"\n';
  const f = parseRuleFile(text, "m.toml", KINDS);
  assertEquals(f.chunks.map((c) => c.originType), [undefined, "pf"]);
  assertEquals(f.chunks[1].blocks[0].position.line, 6);
});

Deno.test("M1 blocks keep document order across kinds; header keys keep document order", () => {
  const text = 'b = 1\na = { "json!" = "x.json" }\n[[link_resources]]\nwith = "x"\n' +
    '[[create_resource]]\nresource_type = "t"\nname = "n"\n[[link_resources]]\nwith = "y"\n';
  const f = parseRuleFile(text, "m.toml", KINDS);
  assertEquals(f.chunks[0].header.map((h) => h.key), ["b", "a"]);
  assertEquals(
    f.chunks[0].blocks.map((b) => `${b.kind}[${b.index}]@${b.position.line}`),
    ["link_resources[0]@3", "create_resource[0]@5", "link_resources[1]@8"],
  );
});

Deno.test("M1 unknown rule block is a ParseError with its line", () => {
  const e = assertThrows(
    () => parseRuleFile('origin_resource = "a"\n\n[[enrich_property]]\nx = 1\n', "m.toml", KINDS),
    ParseError,
  );
  assertEquals([e.code, e.line, e.column], ["unknown_rule_block", 3, 1]);
});

Deno.test("M1 a rule block written as a single table is refused", () => {
  const e = assertThrows(
    () => parseRuleFile('[create_resource]\nname = "x"\n', "m.toml", KINDS),
    ParseError,
  );
  assertEquals(e.code, "rule_block_shape");
});

Deno.test("TOML syntax errors keep the file's line numbers inside later chunks", () => {
  const text = 'origin_resource = "a"\n[[link_resources]]\nwith = "b"\n' +
    'origin_resource = "b"\n[[link_resources]]\nwith = = "c"\n';
  const e = assertThrows(() => parseRuleFile(text, "models/x.toml", KINDS), ParseError);
  assertEquals([e.code, e.file, e.line], ["toml_syntax", "models/x.toml", 6]);
});

Deno.test("TOML 1.1 multi-line inline tables and trailing commas parse (historic files)", () => {
  const text = 'origin_resource = "a"\n[[link_resources]]\nwith = "b"\n' +
    'create_relation = {\n  type = "T",\n  properties = { x = "1" },\n}\nmatch_with = [\n' +
    '  [ { property = "p", value = "1" } ],\n  [ { property = "q", value = "2" } ],\n]\n';
  const f = parseRuleFile(text, "m.toml", KINDS);
  const b = f.chunks[0].blocks[0];
  assertEquals(b.body.create_relation, { type: "T", properties: { x: "1" } });
  assertEquals(b.keys.get("match_with")?.line, 8);
  assertEquals(f.chunks.length, 1);
});
