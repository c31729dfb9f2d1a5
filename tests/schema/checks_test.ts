/**
 * The checks, strict mode and the report (reference SV31–SV43).
 */
import { assert, assertEquals } from "../_assert.ts";
import { formatReportSyslog, formatReportText, makeReport } from "../../lib/schema/report.ts";
import { cellConforms, valueConforms } from "../../lib/schema/checks.ts";
import { schema, validate, withCode } from "./_support.ts";

const SITE_SCHEMA = schema("fleet", {
  host: {
    required: ["arch"],
    properties: { arch: { type: "string", enum: ["x86_64", "arm64"] }, cores: { type: "integer" } },
    relations: {
      site: {
        target: "site",
        required: true,
        cardinality: "one",
        property_schema: { properties: { rack: { type: "integer" } }, required: ["rack"] },
      },
    },
  },
  site: {},
});

Deno.test("SV31 missing_required_property: static keys of any phase or a graph value satisfy it", async () => {
  const base = { "assets/host.csv": "name\nweb-1\n", "schemas/a.schema.json": SITE_SCHEMA };
  const r = await validate(base);
  const issue = withCode(r, "missing_required_property")[0];
  assertEquals([issue.severity, issue.resource_type, issue.property], ["error", "host", "arch"]);
  const viaModel = await validate({
    ...base,
    "models/arch.toml": 'origin_resource = "host"\n[[copy_property]]\nto = "host"\n' +
      'properties = [{ from = "name", as = "arch" }]\n',
  });
  assertEquals(withCode(viaModel, "missing_required_property").length, 0);
  const viaCompliance = await validate({
    ...base,
    "compliance/c.toml": '[[control]]\nid = "c"\nname = "c"\n[[control.target]]\n' +
      'origin_resource_types = ["host"]\n[control.target.resource.properties]\narch = "arm64"\n',
  });
  assertEquals(withCode(viaCompliance, "missing_required_property").length, 0);
});

Deno.test("SV31 missing_required_relation (one per resource) and relation_cardinality_exceeded", async () => {
  const r = await validate({
    "assets/site.csv": "name\nzrh\nbsl\n",
    "assets/host.csv": 'name,arch,site\nweb-1,x86_64,zrh\nweb-2,arm64,\nweb-3,arm64,"zrh,bsl"\n',
    "schemas/a.schema.json": SITE_SCHEMA,
  });
  const missing = withCode(r, "missing_required_relation");
  assertEquals(missing.map((i) => i.resource), ["web-2"]);
  assertEquals(missing[0].relation, "site");
  const exceeded = withCode(r, "relation_cardinality_exceeded");
  assertEquals(exceeded.map((i) => i.resource), ["web-3"]);
  // Convention relations carry no edge properties: rack is provided by no edge.
  assertEquals(withCode(r, "missing_required_edge_property").map((i) => i.property), ["rack"]);
});

Deno.test("SV31/SV34 edge properties: static keys satisfy; strict checks literal values only", async () => {
  const files = {
    "assets/site.csv": "name\nzrh\n",
    "assets/host.csv": "name,arch,where\nweb-1,x86_64,zrh\nweb-2,arm64,zrh\n",
    "models/link.toml": 'origin_resource = "host"\n[[link_resources]]\nwith = "site"\n' +
      'on = { local = "where", remote = "name" }\n' +
      'create_relation = { type = "site", properties = { rack = "high", note = "{{ origin_resource.name }}" } }\n',
    "schemas/a.schema.json": SITE_SCHEMA,
  };
  const loose = await validate(files);
  assertEquals(withCode(loose, "missing_required_edge_property").length, 0);
  assertEquals(withCode(loose, "relation_property_type_mismatch").length, 0, "strict only");
  const strict = await validate(files, { strict: true });
  const mismatch = withCode(strict, "relation_property_type_mismatch");
  assertEquals(mismatch.length, 1);
  assertEquals([mismatch[0].property, mismatch[0].file], ["rack", "models/link.toml"]);
});

Deno.test("SV31/SV40 csv_value_invalid (strict only) names file, row (header = 1) and column", async () => {
  const files = {
    "assets/site.csv": "name\nzrh\n",
    "assets/host.csv":
      "name,arch,cores,site\nweb-1,x86_64,4,zrh\nweb-2,sparc,four,zrh\nweb-3,arm64,,zrh\n",
    "schemas/a.schema.json": SITE_SCHEMA,
  };
  assertEquals(withCode(await validate(files), "csv_value_invalid").length, 0);
  const r = await validate(files, { strict: true });
  const bad = withCode(r, "csv_value_invalid");
  assertEquals(bad.map((i) => [i.file, i.row, i.column]), [
    ["assets/host.csv", 3, "arch"],
    ["assets/host.csv", 3, "cores"],
  ]);
  assert(bad[0].message.includes("assets/host.csv row 3 column 'arch'"), bad[0].message);
});

Deno.test("SV31/SV32/SV33 capability coverage: capabilities list, action name, or template on the type", async () => {
  const caps = schema("c", {
    host: {
      capabilities: { actions: { start: {}, stop: {}, reboot: {} } },
      relations: { site: { capabilities: { actions: { relocate: {} } } } },
    },
  });
  const r = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "schemas/c.schema.json": caps,
    "actions/a.toml":
      'name = "go"\ncapabilities = ["host.start", "host.site.relocate"]\nexec = [["true"]]\n',
    "actions/b.toml": 'name = "host.stop"\nexec = [["true"]]\n',
    "actions/b2.toml": 'name = "host.stop"\nexec = [["true"]]\n',
  });
  const uncovered = withCode(r, "capability_not_covered");
  assertEquals(uncovered.map((i) => i.message), ["no action offers 'host.reboot'"]);
  assertEquals(uncovered[0].severity, "warning");
  const template = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "schemas/c.schema.json": caps,
    "actions/r.toml": 'name = "reboot"\norigin_resource = "host"\nexec = [["true"]]\n',
  });
  assert(!withCode(template, "capability_not_covered").some((i) => i.message.includes("reboot")));
});

Deno.test("SV31 orphan_resource is info for asset resources without relations", async () => {
  const r = await validate({ "assets/host.csv": "name\nweb-1\n" });
  assertEquals(r.issues.map((i) => [i.severity, i.code, i.resource]), [
    ["info", "orphan_resource", "web-1"],
  ]);
});

Deno.test("SV31 module and parameter codes of the build are carried into the report", async () => {
  const r = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "module.toml": '[module]\nname = "d"\nversion = "1"\n',
  }, {});
  assertEquals(withCode(r, "param_unknown").length, 0);
  const unknown = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "module.toml": '[module]\nname = "d"\nversion = "1"\n[assets."host.csv"]\n' +
      '[assets."host.csv".columns]\nowner = { type = "string", required = true }\n',
  });
  assertEquals(withCode(unknown, "csv_required_missing").length, 1);
});

Deno.test("SV35/SV36/SV40 sorting, counts, strict promotion (info never promoted)", () => {
  const issues = [
    { severity: "info" as const, code: "orphan_resource", message: "b" },
    { severity: "warning" as const, code: "relation_conflict", message: "x" },
    { severity: "error" as const, code: "missing_required_property", message: "z" },
    { severity: "error" as const, code: "csv_value_invalid", message: "a" },
    { severity: "warning" as const, code: "relation_conflict", message: "x" },
  ];
  const loose = makeReport(issues, false);
  assertEquals(loose.issues.map((i) => i.code), [
    "csv_value_invalid",
    "missing_required_property",
    "relation_conflict",
    "orphan_resource",
  ]);
  assertEquals([loose.error_count, loose.warning_count, loose.info_count], [2, 1, 1]);
  const strict = makeReport(issues, true);
  assertEquals([strict.error_count, strict.warning_count, strict.info_count], [3, 0, 1]);
  assertEquals(strict.issues.find((i) => i.code === "relation_conflict")?.promoted, true);
  assertEquals(strict.issues.find((i) => i.code === "orphan_resource")?.promoted, undefined);
});

Deno.test("SV42 CE text lines and summary; SV43 EE RFC 5424 lines with PRI 8 + severity", () => {
  const report = makeReport([
    { severity: "error", code: "missing_required_property", message: "p\nq" },
    { severity: "warning", code: "relation_conflict", message: "w" },
    { severity: "info", code: "unbound_type", message: "i" },
  ], false);
  assertEquals(
    formatReportText(report),
    "error missing_required_property p q\nwarning relation_conflict w\ninfo unbound_type i\n" +
      "1 error(s), 1 warning(s), 1 info\n",
  );
  const now = new Date("2026-01-02T03:04:05.678Z");
  assertEquals(
    formatReportSyslog(report, { host: "box", pid: 42, now }).split("\n").slice(0, 3),
    [
      "<11>1 2026-01-02T03:04:05.678Z box graphsvc-ee 42 missing_required_property - p q",
      "<12>1 2026-01-02T03:04:05.678Z box graphsvc-ee 42 relation_conflict - w",
      "<14>1 2026-01-02T03:04:05.678Z box graphsvc-ee 42 unbound_type - i",
    ],
  );
});

Deno.test("SV2/SV31 value conformance of JSON values and CSV cells", () => {
  assert(valueConforms(3, { type: ["number"] }));
  assert(!valueConforms(3.5, { type: ["integer"] }));
  assert(valueConforms(["a"], { type: ["array"], items: { type: ["string"] } }));
  assert(!valueConforms([1], { type: ["array"], items: { type: ["string"] } }));
  assert(!valueConforms("c", { enum: ["a", "b"] }));
  assert(cellConforms("-12", { type: ["integer"] }));
  assert(!cellConforms("1.5", { type: ["integer"] }));
  assert(cellConforms("1.5e3", { type: ["number"] }));
  assert(cellConforms("False", { type: ["boolean"] }));
  assert(!cellConforms("yes", { type: ["boolean"] }));
  assert(cellConforms("3", { enum: [3, 4] }));
});

Deno.test("SV30/SV41 a build that fails is an error of the report (build_failed), not a crash", async () => {
  const r = await validate({
    "assets/host.csv": "name\nweb-1\n",
    "models/bad.toml": 'origin_resource = "host"\n[[create_resource]\n',
  });
  const failed = withCode(r, "build_failed");
  assertEquals(failed.length, 1);
  assertEquals(failed[0].file, "models/bad.toml");
});

Deno.test("A13/MP31/SV40 declared-column csv_value_invalid is carried into validate: warning, promoted in strict mode", async () => {
  const files = {
    "module.toml": '[assets."host.csv".columns]\nenv = { allowed_values = ["dev", "prod"] }\n' +
      'cores = "integer"\n',
    "assets/host.csv": "name,env,cores\nweb-1,dev,4\nweb-2,qa,four\n",
  };
  const loose = withCode(await validate(files), "csv_value_invalid");
  assertEquals(loose.map((i) => [i.severity, i.file, i.row, i.column, i.promoted]), [
    ["warning", "assets/host.csv", 3, "cores", undefined],
    ["warning", "assets/host.csv", 3, "env", undefined],
  ]);
  assert(loose[1].message.includes(`row 3, column 'env': "qa" is not one of`), loose[1].message);
  const strict = withCode(await validate(files, { strict: true }), "csv_value_invalid");
  assertEquals(strict.map((i) => [i.severity, i.column, i.promoted]), [
    ["error", "cores", true],
    ["error", "env", true],
  ]);
  // A cell that the strict schema check already reports is reported once (by the schema check).
  const bound = withCode(
    await validate({
      ...files,
      "schemas/a.schema.json": schema("f", {
        host: { properties: { cores: { type: "integer" } } },
      }),
    }, { strict: true }),
    "csv_value_invalid",
  );
  assertEquals(bound.map((i) => [i.column, i.promoted, i.schema_id]), [
    ["cores", undefined, "f"],
    ["env", true, undefined],
  ]);
});

Deno.test("MP31/SV35 csv_required_missing carried into validate names file, row and column", async () => {
  const r = await validate({
    "module.toml": '[assets."host.csv".columns]\nos = { required = true }\n',
    "assets/host.csv": "name,os\nweb-1,linux\nweb-2,\n",
  });
  const missing = withCode(r, "csv_required_missing");
  assertEquals(missing.map((i) => [i.severity, i.file, i.row, i.column]), [
    ["error", "assets/host.csv", 3, "os"],
  ]);
});
