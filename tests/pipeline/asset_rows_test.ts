// Asset rows loaded straight from flat tables into adopted property objects (issue 15) give the
// same resources, values and property key order as the plain rule: A14 key column, A15 `_`
// columns stripped, A16–A18 relation columns (multi-values as arrays), O2/O3 name and merges
// (duplicate keys, later values win), with relations by auto-linking (A20) and no row lost.
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { Graph, type Properties } from "../../lib/graph/graph.ts";
import { parseCsv, stringifyCsv } from "../../lib/formats/csv.ts";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { splitNames } from "../../lib/pipeline/linking.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";

const TYPES = ["host", "net", "zone"];

/** The rule written out plainly: a property object per row, copied into the graph. */
function reference(files: Record<string, string>): Graph {
  const g = new Graph();
  const types = new Set(Object.keys(files).map((p) => p.slice("assets/".length, -4)));
  for (const [path, text] of Object.entries(files).sort(([a], [b]) => a < b ? -1 : 1)) {
    const type = path.slice("assets/".length, -4);
    const { header, rows } = parseCsv(text, path);
    const keyIndex = header.includes("name") ? header.indexOf("name") : 0;
    for (const row of rows) {
      const properties: Properties = {};
      header.forEach((column, i) => {
        const cell = row.cells[i];
        if (column.startsWith("_")) return;
        if (types.has(column) && column !== type) {
          const names = splitNames(cell);
          properties[column] = names.length > 1 ? names : cell.trim();
        } else properties[column] = cell;
      });
      const key = row.cells[keyIndex].trim();
      if (key !== "") g.upsertResource(type, key, properties);
    }
  }
  return g;
}

const cell = fc.oneof(
  fc.constantFrom("a", "b", " a", "b ", "", "a, b", "b,a", " a , c ", "[a]", "1", "07"),
  fc.string({ maxLength: 4 }),
);
const columns = fc.uniqueArray(
  fc.constantFrom("name", "env", "_note", "2024", "net", "zone", "host", "tier"),
  { minLength: 1, maxLength: 6 },
);
const file = columns.chain((header) =>
  fc.array(fc.array(cell, { minLength: header.length, maxLength: header.length }), {
    maxLength: 12,
  }).map((rows) => stringifyCsv(header, rows))
);
const workspace = fc.record(Object.fromEntries(TYPES.map((t) => [`assets/${t}.csv`, file])));

Deno.test("A14-A18/O3 asset rows load as the plain rule says, key order included", async () => {
  let loaded = 0;
  let linked = 0;
  await fc.assert(
    fc.asyncProperty(workspace, async (files) => {
      const sources = await loadSourceSet(new MemoryWorkspace(files));
      const built = buildGraph(sources, { createTemplates: createTemplateRenderer });
      const expected = reference(files);
      const shape = (g: Graph) =>
        [...g.resources()].map((r) => ({
          type: r.type,
          name: r.name,
          keys: Object.keys(r.properties),
          properties: r.properties,
        }));
      assertEquals(shape(built.graph), shape(expected));
      loaded += built.graph.resourceCount;
      linked += built.graph.relationCount;
      // Relations come from auto-linking alone here: every one names an existing resource.
      for (const r of built.graph.relations()) {
        assertEquals(built.graph.getResource(r.target.type, r.target.name), r.target);
      }
    }),
    { numRuns: 150, seed: 15 },
  );
  assert(loaded > 500 && linked > 50, `${loaded} resources, ${linked} relations`);
});
