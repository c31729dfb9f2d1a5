// Shared cells of low-cardinality columns (issue 15): interning never changes a value (A1 cells
// are kept as written), shares equal ones, and gives up on columns with many distinct values.
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { CellInterner } from "../../lib/formats/csv_intern.ts";
import { parseCsv, parseCsvTableSteps } from "../../lib/formats/csv.ts";
import { runSteps } from "../../lib/pipeline/slicing.ts";

Deno.test("A1 an interned cell equals the text it was cut from", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 5 }), { maxLength: 60 }), (parts) => {
      const column = new CellInterner(8);
      const text = parts.join("|");
      let at = 0;
      for (const part of parts) {
        assertEquals(column.internSpan(text, at, at + part.length), part);
        assertEquals(column.intern(part.slice(0)), part);
        at += part.length + 1;
      }
    }),
    { numRuns: 300, seed: 15 },
  );
});

Deno.test("A1 equal cells share one string until the column has too many values", () => {
  const column = new CellInterner(2);
  const text = "prod,dev,prod,qa,test,qa";
  const prod = column.internSpan(text, 0, 4);
  assert(column.internSpan(text, 9, 13) === prod);
  column.internSpan(text, 5, 8);
  assertEquals(column.full, false);
  column.internSpan(text, 14, 16); // a third distinct value
  assertEquals(column.full, true);
  assertEquals(column.internSpan(text, 17, 21), "test");
});

Deno.test("A1-A6 the flat table keeps quoted cells and ragged rows as parseCsv does", () => {
  const text = 'name,note\r\na,"x, ""y"""\n\nb,plain\nc\n"d","multi\nline"\n';
  const table = runSteps(parseCsvTableSteps(text, "assets/x.csv", 2));
  const doc = parseCsv(text, "assets/x.csv");
  assertEquals(table.cells, doc.rows.flatMap((r) => r.cells));
  assertEquals(table.lines, doc.rows.map((r) => r.line));
  assertEquals(table.errors.map((e) => [e.code, e.line]), [["csv_ragged_row", 5]]);
});
