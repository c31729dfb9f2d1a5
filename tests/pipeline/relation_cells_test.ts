// Multi-value relation cells (A17–A18): comma items, trimmed of exactly the white space
// String.prototype.trim removes (Unicode included), empty items dropped; one item keeps the
// trimmed cell. Checked against the list rule of splitNames for cells mixing every such space.
import fc from "fast-check";
import { assertEquals } from "../_assert.ts";
import { stringifyCsv } from "../../lib/formats/csv.ts";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { splitNames } from "../../lib/pipeline/linking.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";

// What trim removes, and look-alikes it keeps (U+0085, U+180E, U+200B).
const SPACES = [
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  " ",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
  "\u0085",
  "\u180e",
  "\u200b",
];
const space = fc.array(fc.constantFrom(...SPACES), { maxLength: 2 }).map((s) => s.join(""));
const item = fc.tuple(space, fc.constantFrom("n1", "n2", "é", ""), space).map((p) => p.join(""));
const cell = fc.array(item, { minLength: 1, maxLength: 4 }).map((items) => items.join(","));

Deno.test("A17 relation cells split on commas and trim every white space trim knows", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(cell, { minLength: 1, maxLength: 5 }), async (cells) => {
      const hosts = stringifyCsv(["name", "net"], cells.map((c, i) => [`h${i}`, c]));
      const sources = await loadSourceSet(
        new MemoryWorkspace({ "assets/host.csv": hosts, "assets/net.csv": "name\nn1\n" }),
        [],
      );
      const { graph } = buildGraph(sources, { createTemplates: createTemplateRenderer });
      cells.forEach((c, i) => {
        const names = splitNames(c);
        assertEquals(
          graph.getResource("host", `h${i}`)?.properties.net,
          names.length > 1 ? names : c.trim(),
          JSON.stringify(c),
        );
      });
    }),
    { numRuns: 200, seed: 15 },
  );
});
