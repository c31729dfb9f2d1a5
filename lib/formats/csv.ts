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
import { CellInterner } from "./csv_intern.ts";

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
 * stored flat and the cells of low-cardinality columns interned while parsed (an equal value
 * already kept is not cut out of the text again). `interned` chooses the columns worth trying
 * (default: all); the caller knows which ones hold unique values, such as keys.
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
  interned: (header: readonly string[], column: number) => boolean = () => true,
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
  const tables = header.map((_, i) =>
    interned(header, i) ? new CellInterner(INTERN_LIMIT) : undefined
  );
  const state: TableState = { text, file, width, tables, cells, lines, errors, bounds: [] };
  while (scanRows(scanner, state, Math.max(1, rowsPerStep))) yield;
  return csvTable(header, cells, lines, errors);
}

/** What {@link scanRows} adds rows to. */
interface TableState {
  readonly text: string;
  readonly file: string;
  readonly width: number;
  /** Per column: its interned values, until it has too many (then `undefined`). */
  readonly tables: (CellInterner | undefined)[];
  readonly cells: string[];
  readonly lines: number[];
  readonly errors: ParseError[];
  /** Scratch: the raw cell spans of the current record. */
  readonly bounds: number[];
}

/**
 * Scans up to `rows` records into the table (a plain function: the hot loop of
 * {@link parseCsvTableSteps} outside its generator); false once the text is done. Records are
 * scanned into raw cell spans (quotes included) and cut out of the text here: an interned
 * value already kept is found without cutting out a string.
 */
function scanRows(scanner: CsvScanner, state: TableState, rows: number): boolean {
  const { text, width, tables, cells, lines, bounds } = state;
  for (let n = 0; n < rows; n++) {
    if (!scanner.next(null, bounds)) return false;
    if (scanner.cellCount !== width) {
      state.errors.push(
        new ParseError(
          `row has ${scanner.cellCount} cells, the header has ${width}`,
          state.file,
          scanner.startLine,
          undefined,
          "csv_ragged_row",
        ),
      );
      continue;
    }
    for (let i = 0; i < width; i++) {
      const start = bounds[2 * i];
      const end = bounds[2 * i + 1];
      const values = tables[i];
      if (text.charCodeAt(start) === QUOTE) {
        const cell = unquote(text, start, end);
        cells.push(values ? values.intern(cell) : cell);
      } else cells.push(values ? values.internSpan(text, start, end) : text.slice(start, end));
      if (values?.full) tables[i] = undefined; // a unique-valued column
    }
    lines.push(scanner.startLine);
  }
  return true;
}

/**
 * The result of {@link parseCsvTableSteps}, made outside its loop: an object literal reached
 * only once per file made V8 drop the loop's optimized code at the end of every file.
 */
function csvTable(
  header: string[],
  cells: string[],
  lines: number[],
  errors: ParseError[],
): CsvTable {
  return { header, cells, lines, errors };
}

const QUOTE = 34;

/** The value of the quoted cell spanning `text[start..end]` (both quotes included). */
function unquote(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.indexOf('"') < 0 ? inner : inner.replaceAll('""', '"');
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
