/**
 * Schema files, their sources, binding and merging (reference SV1–SV24).
 */
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { parseSchema, SchemaLoadError } from "../../lib/schema/parse.ts";
import { emptyDef, mergeDefs } from "../../lib/schema/merge.ts";
import { resolveSchemaRef } from "../../lib/schema/sources.ts";
import type { ValidationIssue } from "../../lib/schema/types.ts";
import { codes, schema, validate, withCode } from "./_support.ts";

const EDGE_FLEET = JSON.stringify({
  schema_id: "edge-fleet",
  version: "20250412",
  resources: {
    compute: {
      required: ["name", "arch"],
      properties: { arch: { type: "string", enum: ["x86_64", "arm64"] } },
      capabilities: { actions: { start: { description: "power on" } } },
    },
    gateway: {
      implements: ["compute"],
      properties: { ports: { type: "integer" }, managed: { type: "boolean" } },
      relations: {
        LOCATED_IN: {
          target: "site",
          required: true,
          cardinality: "one",
          property_schema: {
            type: "object",
            properties: { rack_unit: { type: "integer" } },
            required: ["rack_unit"],
          },
        },
      },
    },
  },
});

Deno.test("SV1/SV2 the seed's example schema parses with every field", () => {
  const s = parseSchema(EDGE_FLEET, "schemas/edge.schema.json");
  assertEquals(s.id, "edge-fleet");
  assertEquals(s.version, "20250412");
  const gw = s.resources.get("gateway")!;
  assertEquals(gw.implements, ["compute"]);
  const rel = gw.relations.get("LOCATED_IN")!;
  assertEquals([rel.target, rel.required, rel.cardinality], ["site", true, "one"]);
  assertEquals([...rel.edgeRequired], ["rack_unit"]);
  assertEquals(rel.edgeProperties.get("rack_unit")?.type, ["integer"]);
  assertEquals([...s.resources.get("compute")!.capabilities.keys()], ["start"]);
});

Deno.test("SV2 property required: true adds to required; cardinality defaults to many", () => {
  const s = parseSchema(
    schema("s", {
      host: {
        properties: { arch: { type: ["string", "integer"], required: true } },
        relations: { IN: { target: "site" } },
      },
    }),
    "s.json",
  );
  const host = s.resources.get("host")!;
  assert(host.required.has("arch"));
  assertEquals(host.properties.get("arch")?.type, ["string", "integer"]);
  assertEquals(host.relations.get("IN")?.cardinality, "many");
});

Deno.test("SV3 malformed JSON, missing schema_id/version, non-object resources → SchemaLoadError", () => {
  for (
    const text of [
      "{ not json",
      '{"version":"1","resources":{}}',
      '{"schema_id":"a","resources":{}}',
      '{"schema_id":"a","version":"1","resources":[]}',
      '{"schema_id":"a","version":"1","resources":{"h":{"properties":{"p":{"type":"text"}}}}}',
    ]
  ) {
    const e = assertThrows(() => parseSchema(text, "schemas/a.schema.json"), SchemaLoadError);
    assert(e.message.startsWith("schemas/a.schema.json"), e.message);
  }
});

Deno.test("SV3 a schema that does not load is an error; the run continues without it", async () => {
  const r = await validate({
    "assets/host.csv": "name,arch\nweb-1,x86_64\n",
    "schemas/bad.schema.json": '{"schema_id": "bad"',
    "schemas/good.schema.json": schema("good", { host: { required: ["arch", "owner"] } }),
  });
  assertEquals(withCode(r, "schema_load_error").length, 1);
  assert(withCode(r, "schema_load_error")[0].message.includes("schemas/bad.schema.json"));
  assertEquals(withCode(r, "missing_required_property").map((i) => i.property), ["owner"]);
});

Deno.test("SV4 implements: bases expand recursively; unknown base and cycles are errors", async () => {
  const r = await validate({
    "assets/gateway.csv": "name,ports\ng1,4\n",
    "schemas/a.schema.json": EDGE_FLEET,
  });
  // arch comes from compute through implements.
  assertEquals(withCode(r, "missing_required_property").map((i) => i.property), ["arch"]);
  const bad = await validate({
    "assets/x.csv": "name\nx1\n",
    "schemas/a.schema.json": schema("a", {
      x: { implements: ["y", "nope"] },
      y: { implements: ["x"] },
    }),
  });
  assertEquals(withCode(bad, "schema_unknown_base").length, 1);
  assertEquals(withCode(bad, "schema_implements_cycle").length, 1);
});

Deno.test("SV10/SV12 schemas = [...] in a module manifest, relative to the module root; <module>:<path>", async () => {
  const r = await validate(
    {
      "assets/host.csv": "name\nweb-1\n",
      "module.toml":
        'schemas = ["base:schemas/b.schema.json"]\n[module]\nname = "d"\nversion = "1"\n',
    },
    {},
    {
      base: {
        "module.toml":
          'schemas = ["./schemas/a.schema.json"]\n[module]\nname = "base"\nversion = "1"\n',
        "schemas/a.schema.json": schema("a", { host: { required: ["owner"] } }),
        "schemas/b.schema.json": schema("b", { host: { required: ["site"] } }),
      },
    },
  );
  assertEquals(withCode(r, "missing_required_property").map((i) => i.property).sort(), [
    "owner",
    "site",
  ]);
  const layer = { id: "m", isDataDir: false, location: "/x", files: new Map() };
  const git = resolveSchemaRef("https://example.org/s.git#schemas/a.schema.json", layer, [layer]);
  assertEquals(git.kind === "location" && git.remote, {
    kind: "git",
    url: "https://example.org/s.git",
    path: "schemas/a.schema.json",
  });
  const http = resolveSchemaRef("https://example.org/a.schema.json", layer, [layer]);
  assertEquals(http.kind === "location" && http.remote?.kind, "http");
  assertEquals(resolveSchemaRef("../../etc/passwd.json", layer, [layer]).kind, "invalid");
});

Deno.test("SV11 per-asset schema overrides [[schema]], which overrides automatic binding", async () => {
  const files = {
    "assets/host.csv": "name\nweb-1\n",
    "schemas/a.schema.json": schema("a", { host: { required: ["from_a"] } }),
    "schemas/b.schema.json": schema("b", { host: { required: ["from_b"] } }),
    "schemas/c.schema.json": schema("c", { host: { required: ["from_c"] } }),
  };
  const missing = (r: Awaited<ReturnType<typeof validate>>) =>
    withCode(r, "missing_required_property").map((i) => i.property).sort();
  // Automatic: three definers, merged (no conflict → no ambiguous warning, SV17).
  const auto = await validate(files);
  assertEquals(missing(auto), ["from_a", "from_b", "from_c"]);
  assertEquals(withCode(auto, "ambiguous_binding").length, 0);
  const table = await validate({
    ...files,
    "module.toml":
      '[module]\nname = "d"\nversion = "1"\n[[schema]]\nschema = "b"\nresources = ["host"]\n',
  });
  assertEquals(missing(table), ["from_b"]);
  const asset = await validate({
    ...files,
    "module.toml": '[module]\nname = "d"\nversion = "1"\n[[schema]]\nschema = "b"\n' +
      'resources = ["host"]\n[assets."host.csv"]\nschema = "./schemas/c.schema.json"\n',
  });
  assertEquals(missing(asset), ["from_c"]);
});

Deno.test("SV13 --schema replaces every declared schema, per-asset overrides included", async () => {
  const r = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "module.toml":
      '[module]\nname = "d"\nversion = "1"\n[[implements]]\nschema = "missing"\nresources = ["host"]\n' +
      '[assets."host.csv"]\nschema = "./schemas/a.schema.json"\n',
    "schemas/a.schema.json": schema("a", { host: { required: ["from_a"] } }),
  }, {
    override: { origin: "only.schema.json", text: schema("only", { host: { required: ["x"] } }) },
  });
  assertEquals(codes(r), ["missing_required_property", "orphan_resource"]);
  assertEquals(r.issues[0].schema_id, "only");
});

Deno.test("SV14 [[implements]] of a schema not loaded → schema_not_found; unknown listed type → warning", async () => {
  const r = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "module.toml": '[module]\nname = "d"\nversion = "1"\n' +
      '[[implements]]\nschema = "a"\nversion = "20990101"\nresources = ["host"]\n' +
      '[[implements]]\nschema = "a"\nversion = "20250412"\nresources = ["host", "router"]\n',
    "schemas/a.schema.json": schema("a", { host: {} }),
  });
  assertEquals(withCode(r, "schema_not_found").length, 1);
  assert(withCode(r, "schema_not_found")[0].message.includes("20990101"));
  assertEquals(withCode(r, "schema_unknown_type").map((i) => i.resource_type), ["router"]);
});

Deno.test("SV15/SV18 types created by models bind too; unbound types are info once a schema is loaded", async () => {
  const r = await validate({
    "assets/host.csv": "name,os\nweb-1,linux\n",
    "models/os.toml":
      'origin_resource = "host"\n[[create_resource]]\nresource_type = "os_image"\n' +
      'name = "{{ origin_resource.os }}"\n[create_resource.properties]\nfamily = "{{ origin_resource.os }}"\n',
    "schemas/a.schema.json": schema("a", { os_image: { required: ["family", "build"] } }),
  });
  assertEquals(withCode(r, "missing_required_property").map((i) => i.property), ["build"]);
  assertEquals(withCode(r, "unbound_type").map((i) => i.resource_type), ["host"]);
  const none = await validate({ "assets/host.csv": "name\nweb-1\n" });
  assertEquals(withCode(none, "unbound_type").length, 0);
});

Deno.test("SV16/SV17/SV21 ambiguous binding warns only with a real conflict", async () => {
  const r = await validate({
    "assets/host.csv": "name,arch\nweb-1,x86_64\n",
    "schemas/a.schema.json": schema("a", { host: { properties: { arch: { type: "string" } } } }),
    "schemas/b.schema.json": schema("b", { host: { properties: { arch: { type: "integer" } } } }),
  });
  assertEquals(withCode(r, "ambiguous_binding").length, 1);
  const conflict = withCode(r, "property_type_conflict");
  assertEquals(conflict.length, 1);
  assert(/'a'.*'b'.*arch|arch.*'a'.*'b'/.test(conflict[0].message), conflict[0].message);
});

Deno.test("SV20 merge: required union, type and enum intersection, capabilities union", () => {
  const a = parseSchema(
    schema("a", {
      h: {
        required: ["x"],
        properties: { p: { type: ["string", "integer"], enum: ["1", "2", 3] } },
        capabilities: { actions: { start: {} } },
      },
    }),
    "a",
  ).resources.get("h")!;
  const b = parseSchema(
    schema("b", {
      h: {
        required: ["y"],
        properties: { p: { type: "string", enum: ["2", "9"] } },
        capabilities: { actions: { stop: {} } },
      },
    }),
    "b",
  ).resources.get("h")!;
  const issues: ValidationIssue[] = [];
  const m = mergeDefs({ def: a, from: "a" }, { def: b, from: "b" }, "h", (i) => issues.push(i));
  assertEquals([...m.def.required].sort(), ["x", "y"]);
  assertEquals(m.def.properties.get("p"), { type: ["string"], enum: ["2"] });
  assertEquals([...m.def.capabilities.keys()].sort(), ["start", "stop"]);
  assertEquals(issues, []);
  const e = mergeDefs({ def: emptyDef(), from: "a" }, { def: b, from: "b" }, "h", () => {});
  assertEquals(e.def.properties.get("p")?.enum, ["2", "9"], "an absent enum means any");
});

Deno.test("SV20/SV22/SV24 relations: the later schema's target and cardinality win, with a warning", () => {
  const rel = (target: string, cardinality: string) =>
    parseSchema(
      schema("s", {
        h: {
          relations: {
            IN: {
              target,
              cardinality,
              property_schema: { properties: { u: { type: "integer" } }, required: ["u"] },
            },
          },
        },
      }),
      "s",
    ).resources.get("h")!;
  const issues: ValidationIssue[] = [];
  const m = mergeDefs(
    { def: rel("site", "one"), from: "a" },
    { def: rel("room", "many"), from: "b" },
    "h",
    (i) => issues.push(i),
  );
  const r = m.def.relations.get("IN")!;
  assertEquals([r.target, r.cardinality], ["room", "many"]);
  assertEquals(issues.map((i) => i.code), ["relation_conflict"]);
  assert(issues[0].message.includes("'b' wins"), issues[0].message);
});

Deno.test("SV24 load order: data-dir schemas/ by name, then module manifests in load order", async () => {
  const r = await validate(
    {
      "assets/host.csv": "name\nweb-1\n",
      "schemas/z.schema.json": schema("z", { host: { relations: { IN: { target: "zz" } } } }),
      "schemas/a.schema.json": schema("a", { host: { relations: { IN: { target: "aa" } } } }),
    },
    {},
    {
      m: {
        "module.toml":
          'schemas = ["./schemas/m.schema.json"]\n[module]\nname = "m"\nversion = "1"\n',
        "schemas/m.schema.json": schema("m", { host: { relations: { IN: { target: "mm" } } } }),
      },
    },
  );
  const conflicts = withCode(r, "relation_conflict").map((i) => i.schema_id);
  assertEquals(conflicts.sort(), ["m", "z"], "a then z then m; the last named wins each merge");
});

Deno.test("SV14 a path with a version that does not match the loaded file is schema_not_found", async () => {
  const r = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "module.toml": '[module]\nname = "d"\nversion = "1"\n[[implements]]\n' +
      'schema = "./schemas/a.schema.json"\nversion = "19990101"\nresources = ["host"]\n',
    "schemas/a.schema.json": schema("a", { host: {} }),
  });
  assertEquals(withCode(r, "schema_not_found").length, 1);
});
