/**
 * Composition errors of merged manifests (modules-and-params.md MP25, MP33, MP38–MP39,
 * MP41–MP42; issue 11 item 4): param_conflict, module_conflict, a module declaration that
 * overrides the data directory's own, input_invalid, requirement_unmet and
 * requirement_property_missing. Pure: no permissions.
 */
import { assert, assertEquals } from "../_assert.ts";
import { buildOutputs, buildSources } from "../pipeline/outputs/_support.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";
import type { BuildIssue } from "../../lib/pipeline/issues.ts";

const head = (name: string) => `[module]\nname = "${name}"\nversion = "1.0.0"\n`;
const codes = (issues: readonly BuildIssue[], code: string) =>
  issues.filter((i) => i.code === code);

Deno.test("MP25 param_conflict: allowed_values of two modules without a common value", async () => {
  const a = head("a") + '[params.stage]\nallowed_values = ["DEV", "TEST"]\n';
  const b = head("b") + '[params.stage]\nallowed_values = ["PROD"]\n';
  const r = await buildOutputs({}, [
    { id: "a", files: { "module.toml": a } },
    { id: "b", files: { "module.toml": b } },
  ]);
  const c = codes(r.issues, "param_conflict");
  assertEquals(c.length, 1, JSON.stringify(r.issues));
  assertEquals(c[0].severity, "error");
  assertEquals(c[0].file, "b/module.toml");
  assert(c[0].message.includes("module 'a'") && c[0].message.includes("module 'b'"), c[0].message);
  assertEquals(r.outcome, "failed");
  // A non-empty intersection merges silently.
  const ok = await buildOutputs({}, [
    { id: "a", files: { "module.toml": a } },
    {
      id: "c",
      files: { "module.toml": head("c") + '[params.stage]\nallowed_values = ["TEST"]\n' },
    },
  ]);
  assertEquals(codes(ok.issues, "param_conflict"), []);
  assertEquals(ok.manifest.params.get("stage")?.allowedValues, ["TEST"]);
});

Deno.test("MP33 module_conflict: one asset declared with differing columns; identical specs merge", async () => {
  const decl = (type: string, required: boolean) =>
    `[assets."host.csv"]\ncolumns = { os = { type = "${type}", required = ${required} } }\n`;
  const r = await buildOutputs({ "assets/host.csv": "name,os\nweb,linux\n" }, [
    { id: "a", files: { "module.toml": head("a") + decl("string", true) } },
    { id: "b", files: { "module.toml": head("b") + decl("integer", true) } },
  ]);
  const c = codes(r.issues, "module_conflict");
  assertEquals(c.length, 1, JSON.stringify(r.issues));
  assert(
    c[0].message.includes("column 'os'") && c[0].message.includes("module 'a'") &&
      c[0].message.includes("module 'b'") && c[0].message.includes("'string' vs 'integer'"),
    c[0].message,
  );
  const req = await buildOutputs({ "assets/host.csv": "name,os\nweb,linux\n" }, [
    { id: "a", files: { "module.toml": head("a") + decl("string", true) } },
    { id: "b", files: { "module.toml": head("b") + decl("string", false) } },
  ]);
  assert(codes(req.issues, "module_conflict")[0].message.includes("required true vs false"));
  const same = await buildOutputs({ "assets/host.csv": "name,os\nweb,linux\n" }, [
    { id: "a", files: { "module.toml": head("a") + decl("string", true) } },
    { id: "b", files: { "module.toml": head("b") + decl("string", true) } },
  ]);
  assertEquals(codes(same.issues, "module_conflict"), []);
  // Two files mapping to one type must agree as well.
  const byType = await buildOutputs({}, [
    {
      id: "a",
      files: {
        "module.toml": head("a") + '[assets."hosts.csv"]\nresource_type = "host"\n' +
          'columns = { os = "string" }\n',
      },
    },
    {
      id: "b",
      files: { "module.toml": head("b") + '[assets."host.csv"]\ncolumns = { os = "integer" }\n' },
    },
  ]);
  assert(
    codes(byType.issues, "module_conflict")[0]?.message.includes("type 'host'"),
    JSON.stringify(byType.issues),
  );
});

Deno.test("issue 11: a module declaration overriding the data directory's own is reported", async () => {
  const r = await buildOutputs(
    {
      "module.toml": '[assets."host.csv"]\nresource_type = "server"\n' +
        '[params.region]\ndefault = "zrh"\n[inputs."z.json"]\nformat = "object"\n',
      "assets/host.csv": "name\nweb\n",
    },
    [{
      id: "net",
      files: {
        "module.toml": head("net") + '[assets."host.csv"]\nresource_type = "host"\n' +
          '[params.region]\ndefault = "gva"\n[inputs."z.json"]\nformat = "object_of_objects"\n',
      },
    }],
  );
  const w = codes(r.issues, "declaration_overridden").map((i) => i.message);
  assertEquals(w.length, 3, JSON.stringify(r.issues));
  assert(w.some((m) => m.includes("asset 'host.csv'") && m.includes("module 'net'")), w.join());
  assert(w.some((m) => m.includes("parameter 'region'") && m.includes('"zrh"')), w.join());
  assert(w.some((m) => m.includes("input 'z.json'")), w.join());
  assertEquals(r.outcome, "ok");
});

const INPUT_DECL = `[inputs."zones.json"]
format = "object_of_objects"
[inputs."zones.json".fields]
ttl = { type = "integer", required = true }
kind = { type = "string", allowed_values = ["public", "private"], allow_empty = false }
tags = "array_of_string"
`;

Deno.test("MP38/MP39 input_invalid names the entry key and the field; the build fails", async () => {
  const r = await buildOutputs({
    "module.toml": INPUT_DECL,
    "input/zones.json": JSON.stringify({
      "a.org": { ttl: 300, kind: "public", tags: ["x"] },
      "b.org": { kind: "secret" },
      "c.org": { ttl: "300", kind: "", tags: [1] },
    }),
  });
  const msgs = codes(r.issues, "input_invalid").map((i) => `${i.file}: ${i.message}`);
  assertEquals(msgs, [
    "input/zones.json: entry 'b.org', field 'ttl': required but missing",
    'input/zones.json: entry \'b.org\', field \'kind\': "secret" is not one of ["public","private"]',
    "input/zones.json: entry 'c.org', field 'ttl': expected integer, got \"300\"",
    "input/zones.json: entry 'c.org', field 'kind': must not be empty",
    "input/zones.json: entry 'c.org', field 'tags': expected array_of_string, got [1]",
  ]);
  assertEquals(r.outcome, "failed");
  // Array-of-tables `fields`, array_of_objects format, and a top-level shape error.
  const arr = await buildOutputs({
    "module.toml": '[inputs."l.json"]\nformat = "array_of_objects"\n' +
      '[[inputs."l.json".fields]]\nname = "id"\ntype = "integer"\nrequired = true\n',
    "input/l.json": '[{"id": 1}, {"id": "x"}]',
  });
  assertEquals(codes(arr.issues, "input_invalid").map((i) => i.message), [
    "entry '1', field 'id': expected integer, got \"x\"",
  ]);
  const shape = await buildOutputs({
    "module.toml": INPUT_DECL,
    "input/zones.json": "[1, 2]",
  });
  assertEquals(codes(shape.issues, "input_invalid").map((i) => i.message), [
    "expected a top-level object (object_of_objects)",
  ]);
  // A declared input that does not exist is not checked (MP39).
  const missing = await buildOutputs({ "module.toml": INPUT_DECL });
  assertEquals(codes(missing.issues, "input_invalid"), []);
});

Deno.test("MP41/MP42 requirements: requirement_unmet and requirement_property_missing warnings", async () => {
  const r = await buildOutputs({
    "module.toml": '[requirements.host]\nproperties = ["os", "owner"]\n' +
      'description = "hosts need an OS and an owner"\n' +
      '[[requirement]]\ntype = "zone"\nproperties = ["ttl"]\n',
    "assets/host.csv": "name,os,owner\nweb,linux,\ndb,,ops\n",
  });
  const unmet = codes(r.issues, "requirement_unmet").map((i) => i.message);
  assertEquals(unmet, ["requirement: no resource of type 'zone'"]);
  const missing = codes(r.issues, "requirement_property_missing").map((i) => i.message);
  assertEquals(missing, [
    "requirement: host 'db' lacks property 'os' (hosts need an OS and an owner)",
    "requirement: host 'web' lacks property 'owner' (hosts need an OS and an owner)",
  ]);
  assert(
    r.issues.filter((i) => i.code.startsWith("requirement")).every((i) => i.severity === "warning"),
  );
  assertEquals(r.outcome, "ok");
});

Deno.test("MP31 csv_required_missing is an error naming row and column; the build is degraded", async () => {
  const r = await buildOutputs({
    "module.toml": '[assets."host.csv".columns]\nos = { type = "string", required = true }\n' +
      'owner = { type = "string", required = true }\n',
    "assets/host.csv": "name,os\nweb,linux\ndb,\n",
  });
  const c = codes(r.issues, "csv_required_missing").map((i) => [i.severity, i.line, i.message]);
  assertEquals(c, [
    ["error", undefined, "required column 'owner' is missing from the header"],
    ["error", 3, "required column 'os' is empty"],
  ]);
  assertEquals(r.outcome, "degraded");
  assertEquals(r.graph.resourcesOf("host").length, 2);
});

Deno.test("MP33 a later module's extra columns (required ones too) are merged; the first module's stay", async () => {
  const r = await buildOutputs({ "assets/host.csv": "name,os\nweb,linux\n" }, [
    {
      id: "a",
      files: { "module.toml": head("a") + '[assets."host.csv"]\ncolumns = { os = "string" }\n' },
    },
    {
      id: "b",
      files: {
        "module.toml": head("b") + '[assets."host.csv"]\n' +
          'columns = { os = "string", cores = "integer", owner = { required = true } }\n',
      },
    },
  ]);
  assertEquals([...r.manifest.assets.get("host.csv")!.columns.keys()], ["os", "cores", "owner"]);
  assertEquals(codes(r.issues, "module_conflict"), []);
  // The merged required column is enforced (MP31).
  assertEquals(codes(r.issues, "csv_required_missing").map((i) => i.message), [
    "required column 'owner' is missing from the header",
  ]);
  // The data directory's extra columns are merged too: no override is reported for them.
  const local = await buildOutputs({
    "module.toml": '[assets."host.csv"]\ncolumns = { cores = "integer" }\n',
    "assets/host.csv": "name,os,cores\nweb,linux,4\n",
  }, [{
    id: "a",
    files: { "module.toml": head("a") + '[assets."host.csv"]\ncolumns = { os = "string" }\n' },
  }]);
  assertEquals(codes(local.issues, "declaration_overridden"), []);
  assertEquals(local.graph.getResource("host", "web")?.properties.cores, 4);
});

Deno.test("MP33 two modules giving one asset a different resource_type or name_template: module_conflict", async () => {
  const r = await buildOutputs({ "assets/host.csv": "name\nweb\n" }, [
    {
      id: "a",
      files: { "module.toml": head("a") + '[assets."host.csv"]\nresource_type = "server"\n' },
    },
    {
      id: "b",
      files: {
        "module.toml": head("b") + '[assets."host.csv"]\nname_template = "x-{{ name }}"\n',
      },
    },
  ]);
  const c = codes(r.issues, "module_conflict");
  assertEquals(c.length, 1, JSON.stringify(r.issues));
  assertEquals(c[0].file, "b/module.toml");
  assert(
    c[0].message.includes("'resource_type', 'name_template'") &&
      c[0].message.includes("module 'a'") && c[0].message.includes("module 'b'"),
    c[0].message,
  );
  assertEquals(r.outcome, "failed");
  // The same resource_type spelled out or implied by the file name is no conflict.
  const same = await buildOutputs({ "assets/host.csv": "name\nweb\n" }, [
    {
      id: "a",
      files: { "module.toml": head("a") + '[assets."host.csv"]\nresource_type = "host"\n' },
    },
    { id: "b", files: { "module.toml": head("b") + '[assets."host.csv"]\ndescription = "d"\n' } },
  ]);
  assertEquals(codes(same.issues, "module_conflict"), []);
});

Deno.test('MP37 [inputs."x"] and [input."x"] in one manifest are merged key by key, without a false override', async () => {
  const r = await buildOutputs({
    "module.toml": '[inputs."zones.json"]\nformat = "object_of_objects"\n' +
      '[inputs."zones.json".fields]\nttl = { type = "integer", required = true }\n' +
      '[input."zones.json"]\ndescription = "zones"\n' +
      '[input."zones.json".fields]\nowner = { type = "string", required = true }\n',
    "input/zones.json": '{"a": {"ttl": 60}}',
  });
  assertEquals(codes(r.issues, "declaration_overridden"), []);
  assertEquals(r.manifest.inputs.get("zones.json"), {
    format: "object_of_objects",
    description: "zones",
    fields: {
      ttl: { type: "integer", required: true },
      owner: { type: "string", required: true },
    },
  });
  // Both spellings' fields are validated (MP38–MP39).
  assert(
    codes(r.issues, "input_invalid").some((i) => i.message.includes("'owner'")),
    JSON.stringify(r.issues),
  );
  // A key both spellings give different values: the documented `inputs` one is used, reported.
  const both = await buildOutputs({
    "module.toml":
      '[inputs."z.json"]\nformat = "object"\n[input."z.json"]\nformat = "array_of_objects"\n',
  });
  const w = codes(both.issues, "declaration_overridden");
  assertEquals(w.length, 1, JSON.stringify(both.issues));
  assert(w[0].message.includes("'format'"), w[0].message);
  assertEquals(both.manifest.inputs.get("z.json")?.format, "object");
});

Deno.test("MP24 build: param_not_allowed is an error (build failed), param_unknown a warning even without a manifest", async () => {
  const load = (files: Record<string, string>) =>
    loadSourceSet(new MemoryWorkspace({ "assets/h.csv": "name\nx\n", ...files }));
  const declared = await load({
    "module.toml": head("m") + '[params.stage]\nallowed_values = ["DEV", "PROD"]\n',
  });
  const bad = buildSources(declared, { stage: "QA", colour: "red" });
  assertEquals(
    bad.issues.filter((i) => i.phase === "params").map((i) => [i.severity, i.code]),
    [["error", "param_not_allowed"], ["warning", "param_unknown"]],
  );
  assertEquals(bad.outcome, "failed");
  const bare = buildSources(await load({}), { colour: "red" });
  assertEquals(codes(bare.issues, "param_unknown").map((i) => i.message), [
    "parameter 'colour' is not declared by any module",
  ]);
  assertEquals(bare.outcome, "ok");
  // Undeclared values are still exposed to templates (MP24).
  assertEquals(bare.params.colour, "red");
});
