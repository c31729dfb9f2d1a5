/**
 * RFC 4180 CSV: a strict, location-aware parser and a writer.
 *
 * The parser accepts a UTF-8 BOM, CRLF/LF/CR line ends, quoted cells with commas, doubled quotes
 * and embedded newlines, and skips blank lines. It rejects what would silently lose data: an
 * unterminated quote, text after a closing quote, an empty or duplicated header name, and rows
 * whose cell count differs from the header's.
 *
 * @module
 */
import { ParseError } from "./errors.ts";
import { checkHeader, CsvScanner } from "./csv_scan.ts";

/** One data row of a CSV file. */
export interface CsvRow {
  /** 1-based line on which the row starts. */
  line: number;
  /** Cells, exactly as many as header columns. */
  cells: string[];
}

/** A parsed CSV document. */
export interface CsvDocument {
  /** Header names in file order. */
  header: string[];
  /** Data rows in file order (well-formed rows only). */
  rows: CsvRow[];
  /** Row-level problems (ragged rows); those rows are not in `rows`. */
  errors: ParseError[];
}

/**
 * Parses CSV text. Fatal problems throw {@link ParseError}; ragged rows are collected in
 * `errors` (and left out of `rows`) so every problem of a file is reported at once.
 *
 * @example
 * ```ts
 * import { parseCsv } from "./csv.ts";
 * const doc = parseCsv('name,tags\nweb-1,"a, b"\n', "assets/host.csv");
 * console.log(doc.header, doc.rows[0].cells); // ["name","tags"] ["web-1","a, b"]
 * ```
 */
export function parseCsv(text: string, file: string): CsvDocument {
  const steps = parseCsvSteps(text, file, Infinity);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link parseCsv} as resumable steps: the same scanner, checks, result and errors, pausing
 * (`yield`) after every `rowsPerStep` rows so that a long file can be parsed in time slices.
 *
 * @example
 * ```ts
 * import { parseCsvSteps } from "./csv.ts";
 * const steps = parseCsvSteps("name\na\nb\n", "assets/x.csv", 1);
 * let step = steps.next();
 * while (!step.done) step = steps.next();
 * console.log(step.value.rows.length); // 2
 * ```
 */
export function* parseCsvSteps(
  text: string,
  file: string,
  rowsPerStep: number,
): Generator<void, CsvDocument, undefined> {
  const scanner = new CsvScanner(text, file);
  const headerCells: string[] = [];
  if (!scanner.next(headerCells, null)) {
    throw new ParseError("file has no header row", file, 1, 1, "csv_empty_header");
  }
  const header = checkHeader(headerCells, file, scanner.startLine);
  const rows: CsvRow[] = [];
  const errors: ParseError[] = [];
  for (let tick = 1;; tick++) {
    if (tick >= rowsPerStep) {
      tick = 0;
      yield;
    }
    const cells: string[] = [];
    if (!scanner.next(cells, null)) break;
    if (cells.length !== header.length) {
      errors.push(
        new ParseError(
          `row has ${cells.length} cells, the header has ${header.length}`,
          file,
          scanner.startLine,
          undefined,
          "csv_ragged_row",
        ),
      );
      continue;
    }
    rows.push({ line: scanner.startLine, cells });
  }
  return { header, rows, errors };
}

/**
 * A CSV file parsed into one flat, row-major array of cells: no object and no array per row,
 * for loaders that walk the rows once (asset loading). Equal cells of a column with few distinct
 * values are one shared string (a column of `prod`/`dev` holds two strings, not one per row).
 */
export interface CsvTable {
  /** Header names in file order. */
  header: string[];
  /** Cells of the well-formed rows, row after row: row `r` is `cells[r * width .. + width]`. */
  cells: string[];
  /** 1-based start line of each well-formed row. */
  lines: number[];
  /** Row-level problems (ragged rows); those rows are not in `cells`. */
  errors: ParseError[];
}

/**
 * {@link parseCsvSteps} into a {@link CsvTable}: the same scanner, checks and errors, the rows
 * stored flat and the cells of low-cardinality columns interned while parsed (the copies die
 * young instead of being kept until the table is dropped).
 *
 * @example
 * ```ts
 * import { parseCsvTableSteps } from "./csv.ts";
 * const steps = parseCsvTableSteps("name,env\na,prod\nb,dev\n", "assets/x.csv", Infinity);
 * let step = steps.next();
 * while (!step.done) step = steps.next();
 * console.log(step.value.cells, step.value.lines); // ["a","prod","b","dev"] [2, 3]
 * ```
 */
export function* parseCsvTableSteps(
  text: string,
  file: string,
  rowsPerStep: number,
): Generator<void, CsvTable, undefined> {
  const scanner = new CsvScanner(text, file);
  const row: string[] = [];
  if (!scanner.next(row, null)) {
    throw new ParseError("file has no header row", file, 1, 1, "csv_empty_header");
  }
  const header = checkHeader(row, file, scanner.startLine);
  const width = header.length;
  const cells: string[] = [];
  const lines: number[] = [];
  const errors: ParseError[] = [];
  // Per column: its distinct values so far, until there are more than INTERN_LIMIT.
  const interned: (Map<string, string> | undefined)[] = header.map(() => new Map());
  for (let tick = 1;; tick++) {
    if (tick >= rowsPerStep) {
      tick = 0;
      yield;
    }
    if (!scanner.next(row, null)) break;
    if (row.length !== width) {
      errors.push(
        new ParseError(
          `row has ${row.length} cells, the header has ${width}`,
          file,
          scanner.startLine,
          undefined,
          "csv_ragged_row",
        ),
      );
      continue;
    }
    for (let i = 0; i < width; i++) {
      const cell = row[i];
      const values = interned[i];
      if (!values) {
        cells.push(cell);
        continue;
      }
      const known = values.get(cell);
      if (known !== undefined) cells.push(known);
      else {
        cells.push(cell);
        values.set(cell, cell);
        if (values.size > INTERN_LIMIT) interned[i] = undefined; // a unique-valued column
      }
    }
    lines.push(scanner.startLine);
  }
  return { header, cells, lines, errors };
}

/** Distinct values of a column interned by {@link parseCsvTableSteps} before it stops trying. */
const INTERN_LIMIT = 1024;

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Quotes a cell when RFC 4180 requires it (or when it has edge whitespace). */
export function formatCsvCell(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Writes a CSV document: header then rows, `\n` line ends, a trailing newline.
 *
 * @example
 * ```ts
 * import { stringifyCsv } from "./csv.ts";
 * stringifyCsv(["name", "note"], [["a", "x, y"]]); // 'name,note\na,"x, y"\n'
 * ```
 */
export function stringifyCsv(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  let out = header.map(formatCsvCell).join(",") + "\n";
  for (const row of rows) out += row.map(formatCsvCell).join(",") + "\n";
  return out;
}
