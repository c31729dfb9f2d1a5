/**
 * Composition errors of merged manifests (modules-and-params.md MP25, MP33, MP38–MP39,
 * MP41–MP42; issue 11 item 4): param_conflict, module_conflict, a module declaration that
 * overrides the data directory's own, input_invalid, requirement_unmet and
 * requirement_property_missing. Pure: no permissions.
 */
import { assert, assertEquals } from "../_assert.ts";
import { buildOutputs } from "../pipeline/outputs/_support.ts";
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
