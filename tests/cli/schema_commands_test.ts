/**
 * `validate`, `mod check-schema` and `generate-schema` on the command line (reference CL12, CL13,
 * CL15, CL20–CL22, SV13, SV41–SV43, SV50–SV52): exit codes 0/1/2, text, JSON and EE syslog
 * output, `--schema`, `--strict-schemas`, Git schema locations, and generate-schema options.
 */
import { cli, tempWorkspace } from "./_cli.ts";
import { assert, assertEquals, assertMatch } from "../_assert.ts";

const schema = (id: string, resources: unknown) =>
  JSON.stringify({ schema_id: id, version: "20250412", resources });

const HOST = schema("fleet", {
  host: {
    required: ["arch"],
    properties: { arch: { type: "string", enum: ["x86_64", "arm64"] } },
    capabilities: { actions: { start: {} } },
  },
});

Deno.test("CL12/SV41/SV42 validate: exit 0 without errors, text lines and the summary", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name,arch\nweb-1,sparc\n",
    "schemas/fleet.schema.json": HOST,
  });
  const r = await cli(["--data-dir", dir, "validate"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(
    r.stdout,
    "warning capability_not_covered no action offers 'host.start'\n" +
      "info orphan_resource host 'web-1' has no relation\n" +
      "0 error(s), 1 warning(s), 1 info\n",
  );
});

Deno.test("CL12/SV40/SV41 --strict-schemas: cell checks and promotion give exit 1; --format json", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name,arch\nweb-1,sparc\n",
    "schemas/fleet.schema.json": HOST,
  });
  const r = await cli(["--data-dir", dir, "validate", "--strict-schemas", "--format", "json"]);
  assertEquals(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assertEquals([report.error_count, report.warning_count, report.info_count], [2, 0, 1]);
  const cell = report.issues.find((i: { code: string }) => i.code === "csv_value_invalid");
  assertEquals([cell.file, cell.row, cell.column], ["assets/host.csv", 2, "arch"]);
  const promoted = report.issues.find((i: { code: string }) => i.code === "capability_not_covered");
  assertEquals([promoted.severity, promoted.promoted], ["error", true]);
});

Deno.test("CL13 mod check-schema is the same command; SV43 EE prints syslog lines", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name\nweb-1\n",
    "schemas/fleet.schema.json": HOST,
  });
  const ce = await cli(["--data-dir", dir, "mod", "check-schema", "--format", "json"]);
  const v = await cli(["--data-dir", dir, "validate", "--format", "json"]);
  assertEquals(ce.code, 1);
  assertEquals(ce.stdout, v.stdout);
  const ee = await cli(["--edition", "ee", "--data-dir", dir, "mod", "check-schema"]);
  assertEquals(ee.code, 1);
  const lines = ee.stdout.trim().split("\n");
  assertEquals(lines.length, 3);
  assertMatch(
    lines[0],
    /^<11>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \S+ graphsvc-ee \d+ missing_required_property - /,
  );
  assertMatch(lines[1], /^<12>1 .* capability_not_covered - no action offers 'host.start'$/);
  assertMatch(lines[2], /^<14>1 .* orphan_resource - /);
});

Deno.test("CL12/SV13 --schema FILE replaces the declared schemas; unreadable → exit 2", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name\nweb-1\n",
    "schemas/fleet.schema.json": HOST,
    "other.schema.json": schema("other", { host: {} }),
  });
  const r = await cli(["--data-dir", dir, "validate", "--schema", `${dir}/other.schema.json`]);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  assertEquals(
    r.stdout,
    "info orphan_resource host 'web-1' has no relation\n0 error(s), 0 warning(s), 1 info\n",
  );
  const missing = await cli(["--data-dir", dir, "validate", "--schema", `${dir}/nope.json`]);
  assertEquals(missing.code, 2);
  assert(missing.stderr.includes("nope.json"), missing.stderr);
});

Deno.test("SV41/CL21 exit 2: bad --format, missing data directory; a bad schema file is exit 1", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name\nweb-1\n",
    "schemas/bad.schema.json": "{",
  });
  assertEquals((await cli(["--data-dir", dir, "validate", "--format", "xml"])).code, 2);
  assertEquals((await cli(["--data-dir", `${dir}/nope`, "validate"])).code, 2);
  const bad = await cli(["--data-dir", dir, "validate"]);
  assertEquals(bad.code, 1);
  assert(bad.stdout.startsWith("error schema_load_error schemas/bad.schema.json"), bad.stdout);
});

Deno.test("SV12 a schema from a Git URL (#path) is fetched; an unreachable one is a load error", async () => {
  const repo = await tempWorkspace({ "schemas/fleet.schema.json": HOST });
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-C", repo, ...args],
      env: {
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
  };
  await git("init", "-q");
  await git("add", ".");
  await git("commit", "-q", "-m", "schemas");
  const dir = await tempWorkspace({
    "assets/host.csv": "name,arch\nweb-1,arm64\n",
    "module.toml": `schemas = ["file://${repo}#schemas/fleet.schema.json"]\n` +
      '[module]\nname = "d"\nversion = "1"\n',
  });
  const r = await cli(["--data-dir", dir, "validate", "--format", "json"]);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout);
  assert(report.issues.some((i: { code: string }) => i.code === "capability_not_covered"));
  await Deno.writeTextFile(
    `${dir}/module.toml`,
    `schemas = ["file://${repo}-missing#schemas/fleet.schema.json"]\n`,
  );
  const gone = await cli(["--data-dir", dir, "validate"]);
  assertEquals(gone.code, 1);
  assert(gone.stdout.startsWith("error schema_load_error"), gone.stdout);
});

Deno.test("CL15/SV50/SV52 generate-schema: stdout, --output, --schema-id/--schema-version, unknown types", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name,cores\nweb-1,4\n",
    "module.toml": '[module]\nname = "fleet"\nversion = "1.2.0"\n',
  });
  const r = await cli(["--data-dir", dir, "generate-schema"]);
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assertEquals([doc.schema_id, doc.version], ["fleet", "1.2.0"]);
  assertEquals(doc.resources.host.properties.cores, { type: "integer" });
  const out = `${dir}/out/gen.schema.json`;
  const w = await cli([
    "--data-dir",
    dir,
    "generate-schema",
    "host,nope",
    "--output",
    out,
    "--schema-id",
    "x",
    "--schema-version",
    "20260101",
  ]);
  assertEquals(w.code, 0, w.stderr);
  assertEquals(w.stdout, "");
  assert(w.stderr.includes("unknown resource type 'nope'"), w.stderr);
  const written = JSON.parse(await Deno.readTextFile(out));
  assertEquals([written.schema_id, written.version], ["x", "20260101"]);
  // The generated schema validates its own workspace without errors.
  const v = await cli(["--data-dir", dir, "validate", "--schema", out]);
  assertEquals(v.code, 0, v.stdout);
});

Deno.test("CL15/CL22 generate-schema is unknown in EE (usage error, exit 2)", async () => {
  const dir = await tempWorkspace({ "assets/host.csv": "name\nweb-1\n" });
  const r = await cli(["--edition", "ee", "--data-dir", dir, "generate-schema"]);
  assertEquals(r.code, 2);
  assertEquals(r.stdout, "");
});
