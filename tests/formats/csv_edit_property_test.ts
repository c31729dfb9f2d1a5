// Property and fuzz tests of CsvEditor (A27, A28; A29/A30 edits as random sequences).
// Deterministic in CI (fixed seed); for longer local runs set FC_RUNS, e.g.
//   FC_RUNS=20000 node_modules/.bin/deno test --allow-env tests/formats/csv_edit_property_test.ts
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { CsvEditor } from "../../lib/formats/csv_edit.ts";
import { formatCsvCell, parseCsv } from "../../lib/formats/csv.ts";
import { CsvScanner } from "../../lib/formats/csv_scan.ts";
import { ParseError } from "../../lib/formats/errors.ts";

function runs(fallback: number): number {
  const granted = Deno.permissions.querySync({ name: "env", variable: "FC_RUNS" }).state;
  const value = granted === "granted" ? Number(Deno.env.get("FC_RUNS")) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const piece = fc.constantFrom("a", "b", ",", '"', "\n", "\r", "\r\n", " ", "é", "😀", "\uFEFF");
const cellValue = fc.array(piece, { maxLength: 5 }).map((p) => p.join(""));
/** Header names: non-empty, no edge whitespace (header cells are trimmed when parsed). */
const headerName = fc.array(piece, { minLength: 1, maxLength: 4 })
  .map((p) => p.join(""))
  .filter((s) => s !== "" && s.trim() === s);

interface Source {
  text: string;
  header: string[];
  rows: string[][];
  /** Raw text of each source row (line break excluded). */
  raws: string[];
  /** Raw text of each source cell, header first. */
  rawCells: string[][];
  eol: string;
  bom: boolean;
  trailing: boolean;
}

/** Writes one cell: quoted when needed, otherwise quoted or raw at random. */
function encode(value: string, quote: boolean, lone: boolean): string {
  const needed = formatCsvCell(value) !== value || (lone && value === "");
  return needed || quote ? `"${value.replaceAll('"', '""')}"` : value;
}

const source: fc.Arbitrary<Source> = fc.record({
  header: fc.uniqueArray(headerName, { minLength: 1, maxLength: 4 }),
  cells: fc.array(fc.array(fc.tuple(cellValue, fc.boolean()), { minLength: 4, maxLength: 4 }), {
    maxLength: 6,
  }),
  blanks: fc.array(fc.nat(2), { minLength: 8, maxLength: 8 }),
  headerQuotes: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  pad: fc.boolean(),
  eol: fc.constantFrom("\n", "\r\n"),
  bom: fc.boolean(),
  trailing: fc.boolean(),
}).map(({ header, cells, blanks, headerQuotes, pad, eol, bom, trailing }) => {
  const width = header.length;
  const headerCells = header.map((h, i) => {
    const raw = encode(h, headerQuotes[i], false);
    return pad && raw === h ? ` ${raw} ` : raw; // unquoted header names may have edge spaces
  });
  const headerRaw = headerCells.join(",");
  const rows = cells.map((r) => r.slice(0, width).map(([v]) => v));
  const rowCells = cells.map((r) => r.slice(0, width).map(([v, q]) => encode(v, q, width === 1)));
  const raws = rowCells.map((r) => r.join(","));
  const rawCells = [headerCells, ...rowCells];
  let text = (bom ? "\uFEFF" : "") + headerRaw;
  raws.forEach((raw, i) => (text += eol.repeat(1 + blanks[i % blanks.length]) + raw));
  if (trailing) text += eol.repeat(1 + blanks[7]);
  return { text, header, rows, raws, rawCells, eol, bom, trailing };
});

type Op =
  | { kind: "set"; row: number; column: number; value: string }
  | { kind: "append"; cells: string[] }
  | { kind: "remove"; row: number }
  | { kind: "removeMany"; rows: number[] }
  | { kind: "addColumn"; name: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("set" as const),
    row: fc.nat(),
    column: fc.nat(),
    value: cellValue,
  }),
  fc.record({ kind: fc.constant("append" as const), cells: fc.array(cellValue, { maxLength: 5 }) }),
  fc.record({ kind: fc.constant("remove" as const), row: fc.nat() }),
  fc.record({
    kind: fc.constant("removeMany" as const),
    rows: fc.array(fc.nat(), { maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("addColumn" as const), name: headerName }),
);

/** Line breaks outside quoted cells, e.g. ["\r\n", "\r\n"]. */
function lineBreaks(text: string): string[] {
  return text.replace(/"(?:[^"]|"")*"/g, "").match(/\r\n|\r|\n/g) ?? [];
}

Deno.test("A27 A28 property: random files and edit sequences keep the model and untouched bytes", () => {
  fc.assert(
    fc.property(source, fc.array(op, { maxLength: 8 }), (src, ops) => {
      const ed = CsvEditor.parse(src.text, "p.csv");
      assertEquals(ed.toString(), src.text);
      const header = [...src.header];
      const headerCells = [...src.rawCells[0]];
      // Model rows: values, the expected raw text of each cell (the source's until the cell
      // changes, then the minimal encoding), and the source row text while the row is untouched.
      const rows = src.rows.map((values, i) => ({
        values: [...values],
        cells: [...src.rawCells[i + 1]],
        raw: src.raws[i] as string | undefined,
      }));
      const minimal = (v: string) => v === "" && header.length === 1 ? '""' : formatCsvCell(v);
      for (const o of ops) {
        if (o.kind === "set" && rows.length > 0) {
          const r = o.row % rows.length;
          const c = o.column % header.length;
          ed.setCell(r, c, o.value);
          if (rows[r].values[c] !== o.value) {
            rows[r].raw = undefined;
            rows[r].cells[c] = minimal(o.value);
          }
          rows[r].values[c] = o.value;
        } else if (o.kind === "append") {
          const cells = o.cells.slice(0, header.length);
          assertEquals(ed.appendRow(cells), rows.length);
          const values = header.map((_, i) => cells[i] ?? "");
          rows.push({ values, cells: values.map(minimal), raw: undefined });
        } else if (o.kind === "remove" && rows.length > 0) {
          const r = o.row % rows.length;
          ed.removeRow(r);
          rows.splice(r, 1);
        } else if (o.kind === "removeMany" && rows.length > 0) {
          const doomed = new Set(o.rows.map((r) => r % rows.length));
          assertEquals(ed.removeRows([...doomed, ...doomed]), doomed.size);
          [...doomed].sort((a, b) => b - a).forEach((r) => rows.splice(r, 1));
        } else if (o.kind === "addColumn" && !header.includes(o.name)) {
          assertEquals(ed.addColumn(o.name), header.length);
          header.push(o.name);
          headerCells.push(formatCsvCell(o.name));
          for (const row of rows) {
            row.values.push("");
            row.cells.push("");
            if (row.raw !== undefined) row.raw += ",";
          }
        }
      }
      const out = ed.toString();
      // The editor's view and a fresh parse both match the model.
      assertEquals(ed.header, header);
      assertEquals(
        Array.from({ length: ed.rowCount }, (_, r) => ed.cells(r)),
        rows.map((r) => r.values),
      );
      rows.forEach((row, r) => row.values.forEach((v, c) => assertEquals(ed.cell(r, c), v)));
      const doc = parseCsv(out, "p.csv");
      assertEquals(doc.errors, []);
      assertEquals(doc.header, header);
      assertEquals(doc.rows.map((r) => r.cells), rows.map((r) => r.values));
      // Every cell's raw text is as predicted: unchanged cells keep their source bytes (also in
      // changed rows), changed and new cells are quoted only when needed.
      const scanner = new CsvScanner(out, "p.csv");
      const bounds: number[] = [];
      const printed: string[][] = [];
      while (scanner.next(null, bounds)) {
        const cells: string[] = [];
        for (let i = 0; i < bounds.length; i += 2) cells.push(out.slice(bounds[i], bounds[i + 1]));
        printed.push(cells);
      }
      assertEquals(printed, [headerCells, ...rows.map((r) => r.cells)]);
      // Untouched rows appear byte-identical, in order.
      let at = 0;
      for (const row of rows) {
        if (row.raw === undefined) continue;
        const found = out.indexOf(row.raw, at);
        assert(found >= 0, `untouched row ${JSON.stringify(row.raw)} not found verbatim`);
        at = found + row.raw.length;
      }
      // BOM, line ends and the trailing-newline state are kept.
      assertEquals(out.startsWith("\uFEFF"), src.bom);
      // (A file without any line break gets LF.)
      const eol = lineBreaks(src.text).length > 0 ? src.eol : "\n";
      assertEquals(lineBreaks(out).every((b) => b === eol), true);
      assertEquals(/[\r\n]$/.test(out), src.trailing);
      // Parsing the output for editing and printing it again is the identity.
      assertEquals(CsvEditor.parse(out, "p.csv").toString(), out);
    }),
    { seed: 42, numRuns: runs(300) },
  );
});

const fuzzText = fc.oneof(
  fc.array(fc.constantFrom("a", ",", '"', "\n", "\r", " ", "\uFEFF", "é"), { maxLength: 40 })
    .map((p) => p.join("")),
  fc.string({ unit: "binary", maxLength: 40 }),
);

Deno.test("A27 fuzz: arbitrary text throws only ParseError, and parses to an identity print", () => {
  fc.assert(
    fc.property(fuzzText, (text) => {
      let editor: CsvEditor | undefined;
      let error: unknown;
      try {
        editor = CsvEditor.parse(text, "fuzz.csv");
      } catch (e) {
        error = e;
      }
      let reference: ReturnType<typeof parseCsv> | undefined;
      let referenceError: unknown;
      try {
        reference = parseCsv(text, "fuzz.csv");
      } catch (e) {
        referenceError = e;
      }
      if (editor === undefined) {
        assert(error instanceof ParseError, `unexpected ${error}`);
        // Same fatal errors as parseCsv; a ragged row is fatal only for the editor.
        if (referenceError) assertEquals((referenceError as Error).message, error.message);
        else assertEquals(reference!.errors[0].message, error.message);
        return;
      }
      assertEquals(editor.toString(), text);
      assertEquals(reference!.errors, []);
      assertEquals(editor.header, reference!.header);
      const cells = Array.from({ length: editor.rowCount }, (_, r) => editor.cells(r));
      assertEquals(cells, reference!.rows.map((r) => r.cells));
      cells.forEach((row, r) => row.forEach((v, c) => assertEquals(editor.cell(r, c), v)));
      assertEquals(
        Array.from({ length: editor.rowCount }, (_, r) => editor.lineOf(r)),
        reference!.rows.map((r) => r.line),
      );
    }),
    { seed: 42, numRuns: runs(2000) },
  );
});
