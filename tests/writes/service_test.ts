/**
 * The write path over an in-memory workspace (no permissions needed): raw asset forms (R3–R9,
 * A28–A30), auto-CRUD (R10–R13), declared columns, name_template keys and generations.
 */
import { assert, assertEquals } from "../_assert.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { mergeManifests } from "../../lib/workspace/manifest.ts";
import { loadLayer } from "../../lib/workspace/sources.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { WriteService } from "../../lib/writes/service.ts";
import { WriteError } from "../../lib/writes/errors.ts";
import { jsonToCell } from "../../lib/writes/cells.ts";
import { KeyedMutex } from "../../lib/writes/keyed_mutex.ts";

const MODULE = `
[module]
name = "inv"
version = "1.0.0"
[assets."host.csv".columns]
name = { type = "string", required = true }
port = { type = "integer" }
env = { type = "string", allowed_values = ["dev", "prod"] }
[assets."a.csv"]
name_template = "_{{ name | replace(from='.', to='_') }}_{{ address }}"
[assets."zone.csv".columns]
name = { type = "string", required = true }
`;

async function setup(files: Record<string, string>, moduleToml = MODULE) {
  const workspace = new MemoryWorkspace({ "module.toml": moduleToml, ...files });
  const manifest = mergeManifests([await loadLayer("data", workspace, true)]);
  let scheduled = 0;
  const writes = new WriteService({
    workspace,
    context: () => ({ manifest, params: {} }),
    createTemplates: createTemplateRenderer,
    scheduleRebuild: () => ++scheduled,
    currentGeneration: () => scheduled,
  });
  const text = async (path: string) => await workspace.readText(path);
  return { workspace, writes, text, scheduled: () => scheduled };
}

async function refused(promise: Promise<unknown>): Promise<WriteError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof WriteError) return e;
    throw e;
  }
  throw new Error("expected a WriteError");
}

Deno.test("R10/A28 addRow appends a row in header order and schedules one rebuild", async () => {
  const { writes, text, scheduled } = await setup({
    "assets/host.csv": "name,port,env\nweb-1,80,prod\n",
  });
  const r = await writes.addRow("host", { env: "dev", name: "web-2", port: 8080 });
  assertEquals(await text("assets/host.csv"), "name,port,env\nweb-1,80,prod\nweb-2,8080,dev\n");
  assertEquals([r.name, r.generation, scheduled()], ["web-2", 1, 1]);
});

Deno.test("R10 duplicate key is duplicate-key (409); nothing is written", async () => {
  const { writes, text } = await setup({ "assets/host.csv": "name,port\nweb-1,80\n" });
  const e = await refused(writes.addRow("host", { name: "web-1" }));
  assertEquals([e.slug, e.status], ["duplicate-key", 409]);
  assertEquals(await text("assets/host.csv"), "name,port\nweb-1,80\n");
});

Deno.test("R10 declared columns: type, required and allowed_values are enforced", async () => {
  const { writes, text } = await setup({ "assets/host.csv": "name,port,env\nweb-1,80,prod\n" });
  const bad = [
    [{ name: "x", port: "eighty" }, "port"],
    [{ name: "x", env: "staging" }, "env"],
    [{ port: 1 }, "name"],
  ] as const;
  for (const [fields, field] of bad) {
    const e = await refused(writes.addRow("host", fields));
    assertEquals([e.status, e.field], [400, field], JSON.stringify(fields));
  }
  assertEquals(await text("assets/host.csv"), "name,port,env\nweb-1,80,prod\n");
});

Deno.test("R13 unknown fields: new column for undeclared assets, 400 for declared ones", async () => {
  const { writes, text } = await setup({
    "assets/host.csv": "name,port\nweb-1,80\n",
    "assets/site.csv": "name\nzrh\n",
  });
  await writes.addRow("site", { name: "gva", region: "west", tags: ["a", "b"] });
  assertEquals(await text("assets/site.csv"), 'name,region,tags\nzrh,,\ngva,west,"a,b"\n');
  const e = await refused(writes.addRow("host", { name: "web-2", colour: "red" }));
  assertEquals([e.status, e.field], [400, "colour"]);
});

Deno.test("R13 JSON to cell conversion", () => {
  assertEquals(jsonToCell("x", "f"), "x");
  assertEquals(jsonToCell(0.1, "f"), "0.1");
  assertEquals(jsonToCell(true, "f"), "true");
  assertEquals(jsonToCell(null, "f"), "");
  assertEquals(jsonToCell([1, "a", false], "f"), "1,a,false");
  for (const bad of [{ a: 1 }, [{ a: 1 }]]) {
    let caught: unknown;
    try {
      jsonToCell(bad, "f");
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof WriteError && caught.status === 400);
  }
});

Deno.test("R11 changeRow merges, keeps omitted fields and untouched bytes; 404 when absent", async () => {
  const { writes, text } = await setup({
    "assets/site.csv": 'name,note,city\r\nzrh,"quoted, note",Zurich\r\ngva,x,Geneva\r\n',
  });
  await writes.changeRow("site", "gva", { city: "Genève" });
  assertEquals(
    await text("assets/site.csv"),
    'name,note,city\r\nzrh,"quoted, note",Zurich\r\ngva,x,Genève\r\n',
  );
  const e = await refused(writes.changeRow("site", "bsl", { city: "Basel" }));
  assertEquals([e.slug, e.status], ["not-found", 404]);
});

Deno.test("R11 a change that renames a row onto an existing key is duplicate-key", async () => {
  const { writes, text } = await setup({ "assets/site.csv": "name\nzrh\ngva\n" });
  const e = await refused(writes.changeRow("site", "gva", { name: "zrh" }));
  assertEquals(e.status, 409);
  await writes.changeRow("site", "gva", { name: "bsl" });
  assertEquals(await text("assets/site.csv"), "name\nzrh\nbsl\n");
});

Deno.test("R12 deleteRow removes the row; 404 for a missing row or asset", async () => {
  const { writes, text } = await setup({ "assets/site.csv": "name\nzrh\ngva\n" });
  await writes.deleteRow("site", "zrh");
  assertEquals(await text("assets/site.csv"), "name\ngva\n");
  assertEquals((await refused(writes.deleteRow("site", "zrh"))).status, 404);
  assertEquals((await refused(writes.deleteRow("nope", "x"))).status, 404);
});

Deno.test("G17 a declared asset without a file is created with its declared header", async () => {
  const { writes, text } = await setup({});
  await writes.addRow("zone", { name: "dmz" });
  assertEquals(await text("assets/zone.csv"), "name\ndmz\n");
});

Deno.test("R3 form 'data' replaces the file as sent; combined with others is 400", async () => {
  const { writes, text } = await setup({ "assets/site.csv": "name\nzrh\n" });
  const r = await writes.writeAssetForm("site.csv", { data: "name,city\r\ngva,Geneva\r\n" });
  assertEquals([r.file, r.rows], ["site.csv", 1]);
  assertEquals(await text("assets/site.csv"), "name,city\r\ngva,Geneva\r\n");
  const e = await refused(writes.writeAssetForm("site.csv", { data: "name\n", update: "name\n" }));
  assertEquals(e.status, 400);
  assertEquals((await refused(writes.writeAssetForm("site.csv", {}))).status, 400);
});

Deno.test("R6 malformed CSV in a form field is 400 naming the field and line", async () => {
  const { writes } = await setup({ "assets/site.csv": "name\nzrh\n" });
  const e = await refused(writes.writeAssetForm("site.csv", { update: 'name,city\na,"b\n' }));
  assertEquals(e.status, 400);
  assert(e.message.includes("update") && e.message.includes(":2:"), e.message);
  const ragged = await refused(writes.writeAssetForm("site.csv", { data: "name,city\na\n" }));
  assert(ragged.message.includes(":2"), ragged.message);
});

Deno.test("R6/R7 file names: not .csv, '..', absolute, missing sub-folder are 400", async () => {
  const { writes } = await setup({ "assets/inventx/a.csv": "name\nx\n" });
  for (const name of ["x.txt", "../x.csv", "/etc/x.csv", "a\\b.csv", "newdir/x.csv"]) {
    const e = await refused(writes.writeAssetForm(name, { update: "name\ny\n" }));
    assertEquals(e.status, 400, name);
  }
  await writes.writeAssetForm("inventx/b.csv", { update: "name\ny\n" });
});

Deno.test("A29 update upserts by primary key; only given columns change", async () => {
  const { writes, text } = await setup({
    "assets/site.csv": "name,city,note\nzrh,Zurich,keep\ngva,Geneva,keep\n",
  });
  const r = await writes.writeAssetForm("site.csv", { update: "name,city\ngva,Genf\nbsl,Basel\n" });
  assertEquals(r.rows, 3);
  assertEquals(
    await text("assets/site.csv"),
    "name,city,note\nzrh,Zurich,keep\ngva,Genf,keep\nbsl,Basel,\n",
  );
});

Deno.test("A30 remove deletes rows matching the key and every extra column; 404 on a missing file", async () => {
  const { writes, text } = await setup({
    "assets/rec.csv": "type,name,zone\na,www,one.ch\na,www,two.ch\na,mail,one.ch\n",
  });
  await writes.writeAssetForm("rec.csv", { remove: "name,zone\nwww,two.ch\n" });
  assertEquals(await text("assets/rec.csv"), "type,name,zone\na,www,one.ch\na,mail,one.ch\n");
  assertEquals(
    (await refused(writes.writeAssetForm("rec.csv", { remove: "zone\none.ch\n" }))).status,
    400,
  );
  const e = await refused(writes.writeAssetForm("nope.csv", { remove: "name\nx\n" }));
  assertEquals(e.status, 404);
});

Deno.test("R4 remove + update in one request renames a row atomically (name_template keys)", async () => {
  const { writes, text, scheduled } = await setup({
    "assets/a.csv": '"type","name","address","zone"\n"a","www.x.ch","10.0.0.1","x.ch"\n' +
      '"a","www.y.ch","10.0.0.1","y.ch"\n',
  });
  await writes.writeAssetForm("a.csv", {
    remove: "type,name,address,zone\na,www.x.ch,10.0.0.1,x.ch\n",
    update: "type,name,address,zone\na,www.x.ch,10.0.0.2,x.ch\n",
  });
  assertEquals(
    await text("assets/a.csv"),
    '"type","name","address","zone"\n"a","www.y.ch","10.0.0.1","y.ch"\na,www.x.ch,10.0.0.2,x.ch\n',
  );
  assertEquals(scheduled(), 1);
  // The key is the rendered name_template: the same `name` in another zone is another row.
  await writes.writeAssetForm("a.csv", {
    update: "type,name,address,zone\na,www.y.ch,10.0.0.9,y.ch\n",
  });
  assertEquals((await text("assets/a.csv"))!.split("\n").length, 5);
  await writes.changeRow("a", "_www_y_ch_10.0.0.1", { zone: "yy.ch" });
  assert((await text("assets/a.csv"))!.includes('"a","www.y.ch","10.0.0.1",yy.ch'));
});

Deno.test("A28 a write that changes nothing schedules no rebuild and reports the current generation", async () => {
  const { writes, scheduled } = await setup({ "assets/site.csv": "name,city\nzrh,Zurich\n" });
  await writes.writeAssetForm("site.csv", { update: "name,city\ngva,Geneva\n" });
  const r = await writes.writeAssetForm("site.csv", { update: "name,city\ngva,Geneva\n" });
  assertEquals([r.changed, r.generation, scheduled()], [false, 1, 1]);
});

Deno.test("R6 a broken file on disk is refused, not rewritten", async () => {
  const { writes, text } = await setup({ "assets/site.csv": 'name,city\nzrh,"Zurich\n' });
  const e = await refused(writes.addRow("site", { name: "gva" }));
  assert(e.message.includes("assets/site.csv:2"), e.message);
  assertEquals(await text("assets/site.csv"), 'name,city\nzrh,"Zurich\n');
});

Deno.test("R60/G20 writes disabled: every write is forbidden", async () => {
  const workspace = new MemoryWorkspace({ "assets/site.csv": "name\nzrh\n" });
  const writes = new WriteService({
    workspace,
    context: () => ({ manifest: mergeManifests([]), params: {} }),
    createTemplates: createTemplateRenderer,
    scheduleRebuild: () => 1,
    currentGeneration: () => 0,
    enabled: false,
  });
  assertEquals((await refused(writes.addRow("site", { name: "x" }))).status, 403);
  assertEquals((await refused(writes.writeAssetForm("site.csv", { data: "name\n" }))).status, 403);
});

Deno.test("R8 writes to one file are serialised; concurrent adds all land", async () => {
  const { writes, workspace } = await setup({ "assets/site.csv": "name\n" });
  await Promise.all(
    Array.from({ length: 50 }, (_, i) => writes.addRow("site", { name: `s${i}` })),
  );
  const lines = (await workspace.readText("assets/site.csv"))!.trim().split("\n");
  assertEquals(lines.length, 51);
  assertEquals(new Set(lines).size, 51);
});

Deno.test("KeyedMutex runs tasks of one key in order, keeps going after a failure", async () => {
  const mutex = new KeyedMutex();
  const order: string[] = [];
  const slow = () => new Promise((r) => setTimeout(r, 5));
  const results = await Promise.allSettled([
    mutex.run("a", async () => {
      await slow();
      order.push("a1");
      throw new Error("boom");
    }),
    mutex.run("a", () => order.push("a2")),
    mutex.run("b", () => order.push("b1")),
  ]);
  assertEquals(order, ["b1", "a1", "a2"]);
  assertEquals(results.map((r) => r.status), ["rejected", "fulfilled", "fulfilled"]);
});

Deno.test("R13 a field name the CSV header cannot hold is 400, nothing written", async () => {
  const { writes, text } = await setup({ "assets/site.csv": "name\nzrh\n" });
  const e = await refused(writes.addRow("site", { name: "gva", " padded ": "x" }));
  assertEquals(e.status, 400);
  assertEquals(await text("assets/site.csv"), "name\nzrh\n");
});

Deno.test("R8 the table kept between writes never hides an outside edit or a refused write", async () => {
  const { writes, workspace, text } = await setup({ "assets/site.csv": "name,city\nzrh,Zurich\n" });
  await writes.addRow("site", { name: "gva", city: "Geneva" });
  // Someone edits the file by hand between two writes: the next write starts from their text.
  await workspace.writeTextAtomic("assets/site.csv", "name,city\nzrh,Zürich\ngva,Geneva\n");
  await writes.addRow("site", { name: "bsl" });
  assertEquals(await text("assets/site.csv"), "name,city\nzrh,Zürich\ngva,Geneva\nbsl,\n");
  // A refused form write (second row has an empty key) changed nothing, also not for later writes.
  const e = await refused(
    writes.writeAssetForm("site.csv", { update: "name,city\nlug,Lugano\n,x\n" }),
  );
  assertEquals(e.status, 400);
  await writes.addRow("site", { name: "sio" });
  assertEquals(await text("assets/site.csv"), "name,city\nzrh,Zürich\ngva,Geneva\nbsl,\nsio,\n");
});
