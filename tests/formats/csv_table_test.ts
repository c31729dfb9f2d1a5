// parseCsvTableSteps (the flat table asset loading reads, issue 15) agrees with parseCsv on every
// input: header, rows, lines, errors (A1–A6 parsing rules), with any pause spacing.
import fc from "fast-check";
import { assertEquals } from "../_assert.ts";
import { parseCsv, parseCsvTableSteps } from "../../lib/formats/csv.ts";
import { ParseError } from "../../lib/formats/errors.ts";

function table(text: string, rowsPerStep: number) {
  const steps = parseCsvTableSteps(text, "assets/x.csv", rowsPerStep);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

function outcome<T>(f: () => T): T | string {
  try {
    return f();
  } catch (e) {
    if (e instanceof ParseError) return `${e.code} ${e.line}:${e.column} ${e.reason}`;
    throw e;
  }
}

const piece = fc.constantFrom("a", "b", "prod", ",", '"', "\n", "\r\n", " ", "é", "\uFEFF", "x,y");
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));
// Many rows over few distinct values: the interned columns, past the interning limit too.
const wide = fc.tuple(fc.integer({ min: 1, max: 1500 }), fc.nat(5)).map(([rows, spread]) => {
  const lines = ["name,env,n"];
  for (let i = 0; i < rows; i++) {
    lines.push(`r${i},${["prod", "dev"][i % 2]},${i % (1 + spread * 400)}`);
  }
  return lines.join("\n");
});

Deno.test("A1-A6 the flat table holds exactly parseCsv's rows, lines and errors", () => {
  fc.assert(
    fc.property(fc.oneof(text, wide), fc.integer({ min: 1, max: 5 }), (input, every) => {
      const expected = outcome(() => parseCsv(input, "assets/x.csv"));
      const actual = outcome(() => table(input, every));
      if (typeof expected === "string" || typeof actual === "string") {
        assertEquals(typeof actual === "string" ? actual : "parsed", expected as string);
        return;
      }
      const width = expected.header.length;
      assertEquals(actual.header, expected.header);
      assertEquals(actual.lines, expected.rows.map((r) => r.line));
      assertEquals(actual.cells.length, expected.rows.length * width);
      expected.rows.forEach((r, i) =>
        assertEquals(actual.cells.slice(i * width, (i + 1) * width), r.cells)
      );
      assertEquals(
        actual.errors.map((e) => `${e.code} ${e.line} ${e.reason}`),
        expected.errors.map((e) => `${e.code} ${e.line} ${e.reason}`),
      );
    }),
    { numRuns: 300, seed: 15 },
  );
});
