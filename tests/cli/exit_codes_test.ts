/**
 * Exit codes and output streams of the command line (reference CL18, CL20, CL21, CL22; issue 19
 * item 3): every configuration error is 2 before any phase runs, `--edition` and
 * GRAPHSVC_EDITION are checked, `--graph-json -` keeps stdout valid JSON, a port in use names
 * the port, and a data directory laid out wrongly is warned about.
 */
import { cli, ROOT as root, tempWorkspace } from "./_cli.ts";
import { assert, assertEquals } from "../_assert.ts";

Deno.test("CL21 configuration errors exit 2 before any phase: manifest, required param, module", async () => {
  const bad = await tempWorkspace({ "assets/h.csv": "name\nx\n", "module.toml": "[module\n" });
  const r1 = await cli(["--data-dir", bad, "build"]);
  assertEquals(r1.code, 2, r1.stderr);
  assert(r1.stderr.includes("module.toml"), r1.stderr);
  const req = await tempWorkspace({
    "assets/h.csv": "name\nx\n",
    "module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n[params.region]\nrequired = true\n',
  });
  const r2 = await cli(["--data-dir", req, "build"]);
  assertEquals(r2.code, 2, r2.stderr);
  assert(r2.stderr.includes("region"), r2.stderr);
  assertEquals(r2.stdout, "", "no phase ran, no summary");
  const r3 = await cli(["--data-dir", req, "--module", `${req}/nope`, "build"]);
  assertEquals(r3.code, 2, r3.stderr);
  assertEquals((await cli(["--data-dir", req, "--log-level", "loud", "build"])).code, 2);
  assertEquals((await cli(["--data-dir", req, "--max-loop", "0", "build"])).code, 2);
});

Deno.test("CL1/CL21 --edition and GRAPHSVC_EDITION reject unknown values (exit 2)", async () => {
  const r1 = await cli(["--edition", "xx", "--version"]);
  assertEquals(r1.code, 2);
  assert(r1.stderr.includes("unknown edition 'xx'"), r1.stderr);
  assertEquals((await cli(["--edition"])).code, 2);
  const r2 = await cli(["--version"], { GRAPHSVC_EDITION: "enterprise" });
  assertEquals(r2.code, 2);
  assert(r2.stderr.includes("GRAPHSVC_EDITION"), r2.stderr);
  const r3 = await cli(["--edition=ee", "--version"]);
  assertEquals(r3.code, 0, r3.stderr);
  assert(r3.stdout.startsWith("graphsvc-ee "), r3.stdout);
  const r4 = await cli(["--edition", "ce", "--version"], { GRAPHSVC_EDITION: "ee" });
  assert(r4.stdout.startsWith("graphsvc-ce "), "the flag wins over the environment");
});

Deno.test("CL18/CL20 --graph-json - writes the graph to stdout and the summary to stderr", async () => {
  const dir = await tempWorkspace({
    "assets/service.csv": "name,database\napi,orders\n",
    "assets/database.csv": "name\norders\n",
  });
  const r = await cli(["--data-dir", dir, "build", "--graph-json", "-"]);
  assertEquals(r.code, 0, r.stderr);
  const graph = JSON.parse(r.stdout);
  assertEquals(graph.nodes.length, 2);
  assert(r.stderr.includes("resources: 2"), r.stderr);
  let exists = true;
  try {
    await Deno.stat(`${root}-`);
  } catch {
    exists = false;
  }
  assert(!exists, "no file named '-' was written");
});

Deno.test("CL21 serve on a port in use names the port and exits 2", async () => {
  const dir = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  try {
    const r = await cli(["--data-dir", dir, "serve", "--port", String(port), "--no-watch"]);
    assertEquals(r.code, 2, r.stderr);
    assert(r.stderr.includes(`port ${port}`), r.stderr);
    assert(!r.stderr.includes("    at "), "no stack trace");
  } finally {
    listener.close();
  }
});

Deno.test("A1 a data directory without assets/, or that is an assets/ folder, is warned about", async () => {
  const empty = await tempWorkspace({ "models/.keep": "" });
  const r1 = await cli(["--data-dir", empty, "build"]);
  assertEquals(r1.code, 0, r1.stderr);
  assert(r1.stderr.includes("has no assets/ folder"), r1.stderr);
  const parent = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  const r2 = await cli(["--data-dir", `${parent}/assets`, "build"]);
  assertEquals(r2.code, 0, r2.stderr);
  assert(r2.stderr.includes("looks like an assets/ folder"), r2.stderr);
  const ok = await cli(["--data-dir", parent, "build"]);
  assert(!ok.stderr.includes("assets/ folder"), ok.stderr);
});

Deno.test("CL20 build logs each info line once", async () => {
  const dir = await tempWorkspace({
    "assets/h.csv": "name\nx\n",
    "output/all.toml": '[[output]]\nresource_type = "report"\nname = "all"\n' +
      'filename = "all.txt"\nmimetype = "text/plain"\ntemplate = "ok"\n',
  });
  const r = await cli(["--data-dir", dir, "build"]);
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stderr.split("\n").map((l) => l.replace(/^\d{4}-\d\d-\d\dT\S+ /, "")) // time
    .filter((l) => l.startsWith("INFO ") && !l.includes("build "));
  assert(lines.some((l) => l.includes("output_without_origin")), r.stderr);
  assertEquals(lines.length, new Set(lines).size, r.stderr);
});

Deno.test("MP24/CL21 a --module-params value outside allowed_values (param_not_allowed) exits 2 before any phase", async () => {
  const dir = await tempWorkspace({
    "assets/h.csv": "name\nx\n",
    "module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n' +
      '[params.stage]\nallowed_values = ["DEV", "PROD"]\n',
  });
  const bad = await cli(["--data-dir", dir, "--module-params", "stage=QA", "build"]);
  assertEquals(bad.code, 2, bad.stderr);
  assert(bad.stderr.includes(`parameter 'stage' = "QA" is not one of ["DEV","PROD"]`), bad.stderr);
  assertEquals(bad.stdout, "", "no phase ran, no summary");
  const ok = await cli(["--data-dir", dir, "--module-params", "stage=PROD", "build"]);
  assertEquals(ok.code, 0, ok.stderr);
});

Deno.test("MP24 an undeclared --module-params name is a param_unknown warning (exit 0), with or without a manifest", async () => {
  const declared = await tempWorkspace({
    "assets/h.csv": "name\nx\n",
    "module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n[params.stage]\ndefault = "DEV"\n',
  });
  const bare = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  for (const dir of [declared, bare]) {
    const r = await cli(["--data-dir", dir, "--module-params", "colour=red", "build"]);
    assertEquals(r.code, 0, r.stderr);
    assert(
      r.stderr.includes("warning[param_unknown]: parameter 'colour' is not declared by any module"),
      r.stderr,
    );
    // validate carries it; --strict-schemas promotes it to an error (SV40, exit 1).
    const v = await cli(["--data-dir", dir, "--module-params", "colour=red", "validate"]);
    assertEquals(v.code, 0, v.stderr);
    assert(v.stdout.includes("warning param_unknown parameter 'colour'"), v.stdout);
    const strict = await cli([
      "--data-dir",
      dir,
      "--module-params",
      "colour=red",
      "validate",
      "--strict-schemas",
    ]);
    assertEquals(strict.code, 1, strict.stdout);
    assert(strict.stdout.includes("error param_unknown parameter 'colour'"), strict.stdout);
  }
});
