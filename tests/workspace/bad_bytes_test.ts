/**
 * Bad bytes are errors with file, line and column, not U+FFFD data (issue: hardening, item 9):
 * invalid UTF-8 and NUL bytes in CSV, TOML and JSON files fail the build (structural errors) and
 * the last good graph stays in service. Needs --allow-read --allow-write.
 */
import { assert, assertEquals } from "../_assert.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { decodeUtf8 } from "../../lib/formats/encoding.ts";
import { ParseError } from "../../lib/formats/errors.ts";

Deno.test("decodeUtf8: the first invalid byte is located by line and column", () => {
  const bytes = new TextEncoder().encode("name\nzürich\nx");
  const bad = new Uint8Array([...bytes.subarray(0, 9), 0xc3, 0x28, ...bytes.subarray(9)]);
  try {
    decodeUtf8(bad, "assets/site.csv");
    throw new Error("decoded");
  } catch (e) {
    assert(e instanceof ParseError, String(e));
    assertEquals([e.file, e.line, e.column, e.code], ["assets/site.csv", 2, 4, "invalid_utf8"]);
  }
  for (const seq of [[0xff], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
    let caught = false;
    try {
      decodeUtf8(new Uint8Array([0x61, ...seq]), "f");
    } catch (e) {
      caught = e instanceof ParseError && e.column === 2;
    }
    assert(caught, JSON.stringify(seq));
  }
});

Deno.test("invalid UTF-8 in a CSV on disk fails the build with its location; the last graph stays", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-bytes-" });
  try {
    await Deno.mkdir(`${dir}/assets`);
    await Deno.writeTextFile(`${dir}/assets/site.csv`, "name\nzrh\n");
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(dir),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
    });
    await engine.rebuild();
    await Deno.writeFile(
      `${dir}/assets/site.csv`,
      new Uint8Array([...new TextEncoder().encode("name\nzrh\ng"), 0xe9, 0x0a]),
    );
    const snap = await engine.rebuild();
    assertEquals([engine.status!.status, snap.generation], ["failed", 1]);
    const error = engine.status!.issues.find((i) => i.severity === "error")!;
    assertEquals([error.file, error.line, error.column, error.code], [
      "assets/site.csv",
      3,
      2,
      "invalid_utf8",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("NUL bytes in CSV, TOML and JSON files are located errors", async () => {
  const files: Record<string, string> = {
    "assets/site.csv": "name\nz\0rh\n",
    "models/m.toml": 'origin_resource = "site"\n# \0\n',
    "input/x.json": '{"a": "\0"}',
  };
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(files),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const errors = engine.status!.issues.filter((i) => i.code === "nul_byte");
  assertEquals(errors.map((e) => [e.file, e.line, e.column]).sort(), [
    ["assets/site.csv", 2, 2],
    ["input/x.json", 1, 8],
    ["models/m.toml", 2, 3],
  ]);
  assertEquals(engine.status!.status, "failed");
});

Deno.test("a data directory that disappears fails the build and keeps the last graph (16.7)", async () => {
  const parent = await Deno.makeTempDir({ prefix: "graphsvc-gone-" });
  const dir = `${parent}/data`;
  try {
    await Deno.mkdir(`${dir}/assets`, { recursive: true });
    await Deno.writeTextFile(`${dir}/assets/site.csv`, "name\nzrh\n");
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(dir),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
    });
    await engine.rebuild();
    await Deno.rename(dir, `${parent}/moved`);
    const snap = await engine.rebuild();
    assertEquals([engine.status!.status, snap.generation, snap.stats.resources], ["failed", 1, 1]);
    assert(engine.status!.error!.includes("data directory is missing"), engine.status!.error!);
    assert(!engine.status!.error!.includes(parent), "no absolute path in the message");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
