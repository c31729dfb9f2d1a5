// The order of asset issues and relation columns: a build reports and loads as if every file had
// been parsed before any was loaded: parse errors of all files in file order first (A5 ragged
// rows, A6 broken quoting), then what loading reports (A8 duplicate keys, empty keys); a column
// named after a type whose file failed is a plain column (A17).
import { assertEquals } from "../_assert.ts";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";

Deno.test("A5/A6/A8/A17 parse errors of every file come before what loading reports", async () => {
  const ws = new MemoryWorkspace({
    "assets/a.csv": "name,b,c\nx,y, q \nx,z, q \nshort\n",
    "assets/b.csv": 'name\n"open\n',
    "assets/c.csv": "name,a\n,x\nq,x\n",
  });
  const result = buildGraph(await loadSourceSet(ws), { createTemplates: createTemplateRenderer });
  assertEquals(
    result.issues.filter((i) => i.phase === "assets").map((i) => [i.code, i.file, i.line]),
    [
      ["csv_ragged_row", "assets/a.csv", 4],
      ["csv_unterminated_quote", "assets/b.csv", 2],
      ["csv_duplicate_key", "assets/a.csv", 3],
      ["csv_empty_key", "assets/c.csv", 2],
    ],
  );
  const x = result.graph.getResource("a", "x")!;
  // `b` names no loaded type (its file failed): kept as written; `c` names one: trimmed, linked.
  assertEquals(x.properties, { name: "x", b: "z", c: "q" });
  assertEquals(result.graph.outgoing(x).map((r) => `${r.type}:${r.target.name}`), ["c:q"]);
  assertEquals(result.assets.map((a) => a.file), ["a.csv", "c.csv"]);
});
