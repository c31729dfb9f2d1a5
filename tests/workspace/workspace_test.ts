import { assertEquals, assertThrows } from "../_assert.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { normalizeWorkspacePath, UnsafePathError } from "../../lib/workspace/workspace.ts";
import { filesIn, loadSourceSet } from "../../lib/workspace/sources.ts";
import { mergeManifests } from "../../lib/workspace/manifest.ts";
import { ParseError } from "../../lib/formats/errors.ts";

Deno.test("paths: normalised, and never outside the workspace", () => {
  assertEquals(normalizeWorkspacePath("assets/./a.csv"), "assets/a.csv");
  for (const bad of ["../x", "a/../../x", "/etc/passwd", "a\\b", "a\0b", "", "."]) {
    assertThrows(() => normalizeWorkspacePath(bad), UnsafePathError);
  }
});

Deno.test("MP2 module rooted at data/ when module.toml lives there", async () => {
  const module = new MemoryWorkspace({
    "data/module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n',
    "data/models/a.toml": "x = 1",
  });
  const set = await loadSourceSet(new MemoryWorkspace({ "assets/h.csv": "name\nx\n" }), [
    { id: "m", workspace: module },
  ]);
  assertEquals([...set.modules[0].files.keys()], ["models/a.toml"]);
  assertEquals(filesIn(set, "models").map((f) => f.displayPath), ["m/models/a.toml"]);
});

Deno.test("O9 rule files: modules first, then the data dir, each by path", async () => {
  const set = await loadSourceSet(
    new MemoryWorkspace({ "models/b.toml": "", "models/a/z.toml": "", "models/x.json": "" }),
    [{ id: "mod", workspace: new MemoryWorkspace({ "models/c.toml": "" }) }],
  );
  assertEquals(filesIn(set, "models", [".toml"]).map((f) => f.displayPath), [
    "mod/models/c.toml",
    "models/a/z.toml",
    "models/b.toml",
  ]);
});

Deno.test("manifests: params, asset declarations and typed columns", () => {
  const m = mergeManifests([{
    id: "data",
    isDataDir: true,
    location: "memory:",
    files: new Map(),
    manifestText: `[module]
name = "x"
version = "1.0.0"
[params.stage]
default = "DEV"
allowed_values = ["DEV", "PROD"]
[assets."a.csv"]
name_template = "{{ name }}"
[assets."a.csv".columns]
n = { type = "integer", required = true }
`,
  }]);
  assertEquals(m.params.get("stage")?.allowedValues, ["DEV", "PROD"]);
  assertEquals(m.assets.get("a.csv")?.columns.get("n"), {
    type: "integer",
    required: true,
    allowedValues: undefined,
    description: undefined,
  });
});

Deno.test("a broken manifest is a ParseError with line and column", () => {
  const e = assertThrows(() =>
    mergeManifests([{
      id: "data",
      isDataDir: true,
      location: "memory:",
      files: new Map(),
      manifestText: '[module]\nname = "x\n',
    }]), ParseError);
  assertEquals([e.file, e.line], ["module.toml", 2]);
});
