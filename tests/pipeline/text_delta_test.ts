/**
 * Row-level differences of CSV texts (issue 15, incremental rebuilds): the chunked prefix and
 * suffix search gives exactly what a character-by-character comparison gives.
 */
import fc from "fast-check";
import { assertEquals } from "../_assert.ts";
import {
  type KnownRows,
  middleRows,
  type RowDelta,
  rowDelta,
} from "../../lib/pipeline/incremental/text_delta.ts";

/** The delta without the row offsets it hands on. */
function plain(d: RowDelta | undefined): Omit<RowDelta, "rows"> | undefined {
  if (!d) return undefined;
  const { rows: _rows, ...rest } = d;
  return rest;
}

/** The same delta, found one character at a time (the definition the fast path must match). */
function naiveRowDelta(
  oldText: string,
  newText: string,
): Omit<RowDelta, "rows"> | undefined {
  // No line break inside quotes (each quote character toggles), none left open at the end.
  const quotesWithinLines = (t: string) => {
    let quoted = false;
    for (const c of t) {
      if (c === '"') quoted = !quoted;
      else if (c === "\n" && quoted) return false;
    }
    return !quoted;
  };
  const simple = (t: string) =>
    quotesWithinLines(t) && !t.includes("\r") && !t.includes("\n\n") && t[0] !== "\n" &&
    !(t.charCodeAt(0) === 0xfeff && t[1] === "\n");
  if (!simple(oldText) || !simple(newText)) return undefined;
  const headerEnd = oldText.indexOf("\n");
  if (headerEnd < 0 || newText.indexOf("\n") !== headerEnd) return undefined;
  const max = Math.min(oldText.length, newText.length);
  let p = 0;
  while (p < max && oldText[p] === newText[p]) p++;
  const cut = p === oldText.length && p === newText.length
    ? p
    : oldText.lastIndexOf("\n", p - 1) + 1;
  if (cut <= headerEnd) return undefined;
  let s = 0;
  while (
    s < max - cut && oldText[oldText.length - 1 - s] === newText[newText.length - 1 - s]
  ) s++;
  let suffixStart = oldText.length;
  if (s > 0) {
    const br = oldText.indexOf("\n", oldText.length - s);
    if (br >= 0) suffixStart = br + 1;
  }
  const suffixLen = oldText.length - suffixStart;
  const lines = (t: string) =>
    t.length === 0 ? 0 : t.split("\n").length - (t.endsWith("\n") ? 1 : 0);
  return {
    prefixRows: lines(oldText.slice(0, cut)) - 1,
    suffixRows: lines(oldText.slice(suffixStart)),
    oldMiddle: oldText.slice(cut, suffixStart),
    newMiddle: newText.slice(cut, newText.length - suffixLen),
    headerLine: oldText.slice(0, headerEnd),
  };
}

const cell = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-c1-3 ]{0,3}$/) },
  fc.constantFrom('"a, b"', '"q""x"', '""', '"a'),
);
const row = fc.array(cell, { minLength: 2, maxLength: 2 }).map((c) => c.join(","));
const rows = fc.array(row, { maxLength: 40 });
/** Rows that sometimes break the simple shape (a quote, a blank line, a carriage return). */
const oddRows = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: row },
    fc.constantFrom("", 'q"x,1', "r\r,2", '"open', 'close",3', '"a,b",4'),
  ),
  { maxLength: 40 },
);

Deno.test("rowDelta: one changed row in a text larger than a chunk", () => {
  const body = Array.from({ length: 30_000 }, (_, i) => `h-${i},${i % 7}`);
  const before = `name,port\n${body.join("\n")}\n`;
  body[21_345] = "h-21345,99";
  const after = `name,port\n${body.join("\n")}\n`;
  const d = rowDelta(before, after)!;
  assertEquals([d.prefixRows, d.suffixRows, d.oldMiddle, d.newMiddle], [
    21_345,
    30_000 - 21_346,
    "h-21345,2\n",
    "h-21345,99\n",
  ]);
  assertEquals(middleRows(d.newMiddle), 1);
});

Deno.test("rowDelta equals the character-by-character delta on random edits", () => {
  fc.assert(
    fc.property(
      rows,
      rows,
      fc.nat(40),
      fc.nat(40),
      fc.boolean(),
      (base, inserted, at, removed, trailingBreak) => {
        const before = ["name,x", ...base].join("\n") + (trailingBreak ? "\n" : "");
        const edited = [...base];
        edited.splice(Math.min(at, edited.length), removed % 4, ...inserted.slice(0, 3));
        const after = ["name,x", ...edited].join("\n") + "\n";
        assertEquals(plain(rowDelta(before, after)), naiveRowDelta(before, after));
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("rowDelta from known row offsets equals rowDelta from scratch along random edit chains", () => {
  fc.assert(
    fc.property(
      rows,
      fc.array(fc.tuple(oddRows, fc.nat(40), fc.nat(40), fc.boolean()), { maxLength: 8 }),
      (base, edits) => {
        let text = ["name,x", ...base].join("\n") + "\n";
        let lines = [...base];
        let known: KnownRows | undefined;
        for (const [inserted, at, removed, trailingBreak] of edits) {
          lines = [...lines];
          lines.splice(Math.min(at, lines.length), removed % 4, ...inserted.slice(0, 3));
          const next = ["name,x", ...lines].join("\n") + (trailingBreak ? "\n" : "");
          const fast = rowDelta(text, next, known);
          const scratch = rowDelta(text, next);
          assertEquals(plain(fast), plain(scratch));
          assertEquals(fast && [...fast.rows.starts], scratch && [...scratch.rows.starts]);
          if (fast) {
            // The offsets are where the rows of the new text start.
            const expected: number[] = [];
            for (
              let i = next.indexOf("\n");
              i >= 0 && i + 1 < next.length;
              i = next.indexOf("\n", i + 1)
            ) {
              expected.push(i + 1);
            }
            assertEquals([...fast.rows.starts], expected);
          }
          known = fast?.rows;
          text = next;
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("rowDelta: quoted fields on one line split by rows, a line break inside quotes does not", () => {
  const before = 'name,t\na,"x, y"\nb,"z"\nc,w\n';
  const d = rowDelta(before, 'name,t\na,"x, y"\nb,"z, q"\nc,w\n')!;
  assertEquals([d.prefixRows, d.suffixRows, d.newMiddle], [1, 1, 'b,"z, q"\n']);
  assertEquals(rowDelta(before, 'name,t\na,"x, y"\nb,"z\nq"\nc,w\n'), undefined);
  assertEquals(rowDelta('name,t\na,"x\ny"\nc,w\n', 'name,t\na,"x\ny"\nc,v\n'), undefined);
});
