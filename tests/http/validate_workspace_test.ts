/**
 * `GET /api/validate-workspace[?strict=true]` (reference R30, SV30, SV36, SV40): always 200, the
 * report of the last built graph, strict mode adds cell checks and promotes warnings, and the
 * read-consistency middleware (Graphsvc-Min-Generation) is honoured.
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

const SCHEMA = JSON.stringify({
  schema_id: "fleet",
  version: "20250412",
  resources: {
    host: {
      required: ["arch"],
      properties: { arch: { type: "string", enum: ["x86_64", "arm64"] } },
      capabilities: { actions: { start: {} } },
    },
  },
});

async function setup(files: Record<string, string>) {
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { edition: "ce", version: "9.9.9" });
  const get = (path: string, init?: RequestInit) =>
    app.fetch(new Request(`http://test${path}`, init));
  return { engine, workspace, get };
}

Deno.test("R30 the report is 200 with counts and issues; strict=true checks cells and promotes", async () => {
  const { get } = await setup({
    "assets/host.csv": "name,arch\nweb-1,sparc\n",
    "schemas/fleet.schema.json": SCHEMA,
  });
  const res = await get("/api/validate-workspace");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("Graphsvc-Generation"), "1");
  const loose = await res.json();
  assertEquals([loose.error_count, loose.warning_count, loose.info_count], [0, 1, 1]);
  assertEquals(loose.issues.map((i: { code: string }) => i.code), [
    "capability_not_covered",
    "orphan_resource",
  ]);
  const strict = await (await get("/api/validate-workspace?strict=true")).json();
  assertEquals([strict.error_count, strict.warning_count, strict.info_count], [2, 0, 1]);
  const cell = strict.issues.find((i: { code: string }) => i.code === "csv_value_invalid");
  assertEquals([cell.file, cell.row, cell.column], ["assets/host.csv", 2, "arch"]);
});

Deno.test("R30 errors still answer 200; a write's generation is awaited (read-your-writes)", async () => {
  const { engine, workspace, get } = await setup({
    "assets/host.csv": "name,arch\nweb-1,arm64\n",
    "schemas/fleet.schema.json": SCHEMA,
  });
  const first = await (await get("/api/validate-workspace")).json();
  assertEquals(first.error_count, 0);
  await workspace.writeTextAtomic(
    "schemas/fleet.schema.json",
    SCHEMA.replace('"required":["arch"]', '"required":["arch","owner"]'),
  );
  const generation = engine.requestRebuild();
  const res = await get("/api/validate-workspace", {
    headers: { "Graphsvc-Min-Generation": String(generation) },
  });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("Graphsvc-Generation"), String(generation));
  const report = await res.json();
  assertEquals(report.error_count, 1);
  assert(
    report.issues.some((i: { code: string; property?: string }) =>
      i.code === "missing_required_property" && i.property === "owner"
    ),
  );
});

Deno.test("R30 GET only: other methods are 405", async () => {
  const { get } = await setup({ "assets/host.csv": "name\nweb-1\n" });
  assertEquals((await get("/api/validate-workspace", { method: "POST" })).status, 405);
});
