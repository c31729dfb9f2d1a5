/**
 * A byte-faithful CSV editor for write-back (A27–A30): the user's file changes only where an
 * edit requires it.
 *
 * Untouched rows keep their exact bytes (quoting, embedded newlines, spacing, blank lines before
 * them); the file keeps its line ends, its UTF-8 BOM and whether it ends with a line break. In a
 * changed row only the changed cells are re-encoded (quoted only when needed); the other cells
 * keep their raw text. New columns are appended to the header and as empty cells to every row,
 * new rows are appended at the end (before trailing blank lines).
 *
 * Parsing follows {@link parseCsv} exactly, except that a ragged row throws: a broken file is
 * never rewritten. Cells are decoded lazily, so parsing a large file allocates one small record
 * per row, and printing reuses unchanged stretches of the original text as single slices.
 *
 * @module
 */
import { formatCsvCell } from "./csv.ts";
import { cellAt, checkHeader, CsvScanner, detectEol } from "./csv_scan.ts";
import { ParseError } from "./errors.ts";

/**
 * Misuse of the {@link CsvEditor} API: an index out of range, a duplicate or invalid column
 * name, a row with too many cells.
 *
 * @example
 * ```ts
 * import { CsvEditError, CsvEditor } from "./csv_edit.ts";
 * try {
 *   CsvEditor.create(["name"], "f.csv").addColumn("name");
 * } catch (e) {
 *   console.log(e instanceof CsvEditError, (e as CsvEditError).code); // true "csv_duplicate_column"
 * }
 * ```
 */
export class CsvEditError extends Error {
  /** Creates the error; the message is prefixed with the file. */
  constructor(readonly reason: string, readonly file: string, readonly code: string) {
    super(`${file}: ${reason}`);
    this.name = "CsvEditError";
  }
}

/** One data row: a span of the source text until it is changed. */
interface Row {
  /** Source offset of the line break(s) before the row; -1: the editor's line end. */
  leadStart: number;
  /** Source span of the row's text (line break excluded); unused once `raw` is set. */
  start: number;
  end: number;
  /** 1-based source line where the row starts; 0 for appended rows. */
  line: number;
  /** Cells in the row's text (columns appended later are padded with empty cells). */
  width: number;
  /** Raw cell texts once the row was changed or appended. */
  raw?: string[];
  /** Decoded cells, kept with `raw`. */
  values?: string[];
}

/**
 * An editable CSV file that prints back byte-identical except for the edits.
 *
 * @example
 * ```ts
 * import { CsvEditor } from "./csv_edit.ts";
 * const ed = CsvEditor.parse('name,note\r\nweb-1,"a, b"\r\nweb-2,x\r\n', "assets/host.csv");
 * ed.setCell(1, 1, "y z");
 * ed.appendRow(["web-3"]);
 * ed.toString(); // 'name,note\r\nweb-1,"a, b"\r\nweb-2,y z\r\nweb-3,\r\n'
 * ```
 */
export class CsvEditor {
  #text: string;
  /** End of the header's text in the source. */
  #headerEnd: number;
  /** Header text when a column was added (prefix included); undefined while untouched. */
  #headerText: string | undefined;
  #header: string[];
  #index: Map<string, number>;
  #rows: Row[];
  /** Where the source's trailing part (last line break and trailing blank lines) starts. */
  #trailStart: number;
  #eol: string;
  #scanner: CsvScanner;

  private constructor(
    readonly file: string,
    text: string,
    header: string[],
    headerEnd: number,
    rows: Row[],
    eol: string,
  ) {
    this.#text = text;
    this.#header = header;
    this.#headerEnd = headerEnd;
    this.#rows = rows;
    this.#trailStart = rows.length > 0 ? rows[rows.length - 1].end : headerEnd;
    this.#eol = eol;
    this.#index = new Map(header.map((h, i) => [h, i]));
    this.#scanner = new CsvScanner(text, file);
  }

  /**
   * Parses text for editing; throws {@link ParseError} (with file:line:col) on what
   * {@link parseCsv} rejects, and on the first ragged row.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.parse("name,v\na,1\n", "assets/x.csv");
   * console.log(ed.rowCount, ed.cell(0, 1)); // 1 "1"
   * ```
   */
  static parse(text: string, file: string): CsvEditor {
    const scanner = new CsvScanner(text, file);
    const headerCells: string[] = [];
    if (!scanner.next(headerCells, null)) {
      throw new ParseError("file has no header row", file, 1, 1, "csv_empty_header");
    }
    const header = checkHeader(headerCells, file, scanner.startLine);
    const headerStart = scanner.start;
    const headerEnd = scanner.end;
    const width = header.length;
    const rows: Row[] = [];
    let previousEnd = headerEnd;
    // The first ragged row is thrown after the scan, so fatal quoting errors later in the file
    // win exactly as in parseCsv (which reports ragged rows only when the file scans).
    let ragged: ParseError | undefined;
    while (scanner.next(null, null)) {
      if (scanner.cellCount !== width) {
        ragged ??= new ParseError(
          `row has ${scanner.cellCount} cells, the header has ${width}`,
          file,
          scanner.startLine,
          undefined,
          "csv_ragged_row",
        );
        continue;
      }
      rows.push({
        leadStart: previousEnd,
        start: scanner.start,
        end: scanner.end,
        line: scanner.startLine,
        width,
      });
      previousEnd = scanner.end;
    }
    if (ragged) throw ragged;
    return new CsvEditor(
      file,
      text,
      header,
      headerEnd,
      rows,
      detectEol(text, headerStart, headerEnd),
    );
  }

  /**
   * A new, empty file with this header (LF line ends, trailing newline, no BOM). Names must be
   * non-empty, unique and without edge whitespace.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.create(["name", "ip"], "assets/host.csv");
   * ed.appendRow(["web-1", "10.0.0.1"]);
   * ed.toString(); // "name,ip\nweb-1,10.0.0.1\n"
   * ```
   */
  static create(header: readonly string[], file: string): CsvEditor {
    if (header.length === 0) {
      throw new CsvEditError("a CSV file needs at least one column", file, "csv_invalid_column");
    }
    const seen = new Set<string>();
    for (const name of header) {
      checkColumnName(name, file);
      if (seen.has(name)) {
        throw new CsvEditError(`duplicate column '${name}'`, file, "csv_duplicate_column");
      }
      seen.add(name);
    }
    return CsvEditor.parse(header.map(formatCsvCell).join(",") + "\n", file);
  }

  /**
   * Header names as parsed (trimmed like parseCsv does), in file order.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * CsvEditor.parse(" name , v\n", "f.csv").header; // ["name", "v"]
   * ```
   */
  get header(): readonly string[] {
    return this.#header;
  }

  /**
   * Number of data rows (blank lines are not rows).
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * CsvEditor.parse("name\na\n\nb\n", "f.csv").rowCount; // 2
   * ```
   */
  get rowCount(): number {
    return this.#rows.length;
  }

  /**
   * 1-based source line where row `row` starts (appended rows: undefined).
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * CsvEditor.parse('name\n"a\nb"\nc\n', "f.csv").lineOf(1); // 4
   * ```
   */
  lineOf(row: number): number | undefined {
    const r = this.#row(row);
    return r.line === 0 ? undefined : r.line;
  }

  /**
   * The decoded value of one cell.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * CsvEditor.parse('name,v\na,"x ""y"""\n', "f.csv").cell(0, 1); // 'x "y"'
   * ```
   */
  cell(row: number, column: number): string {
    const r = this.#row(row);
    this.#checkColumn(column);
    return this.#cell(r, column);
  }

  /**
   * The decoded cells of one row (a fresh array), as many as header columns.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * CsvEditor.parse("name,v\na,1\n", "f.csv").cells(0); // ["a", "1"]
   * ```
   */
  cells(row: number): string[] {
    const r = this.#row(row);
    if (r.values !== undefined) return this.#pad(r.values).slice();
    const cells: string[] = [];
    this.#decode(r, cells, null);
    return this.#pad(cells);
  }

  /**
   * Index of a header name, or -1.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * CsvEditor.parse("name,v\n", "f.csv").columnIndex("v"); // 1
   * ```
   */
  columnIndex(name: string): number {
    return this.#index.get(name) ?? -1;
  }

  /**
   * Appends a column (every existing row gets an empty cell); returns its index. Throws
   * {@link CsvEditError} if it exists or is not a valid header name (empty, edge whitespace).
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.parse("name\na\n", "f.csv");
   * ed.addColumn("ip"); // 1
   * ed.toString(); // "name,ip\na,\n"
   * ```
   */
  addColumn(name: string): number {
    checkColumnName(name, this.file);
    if (this.#index.has(name)) {
      throw new CsvEditError(`column '${name}' already exists`, this.file, "csv_duplicate_column");
    }
    this.#headerText ??= this.#text.slice(0, this.#headerEnd);
    this.#headerText += "," + formatCsvCell(name);
    const index = this.#header.length;
    this.#header = [...this.#header, name];
    this.#index.set(name, index);
    return index;
  }

  /**
   * Sets one cell; a no-op (row stays byte-identical) when the value is unchanged. Only that
   * cell's text changes; it is quoted only when it needs to be.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.parse('"name","v"\n"a","1"\n', "f.csv");
   * ed.setCell(0, 1, "2");
   * ed.toString(); // '"name","v"\n"a",2\n'
   * ```
   */
  setCell(row: number, column: number, value: string): void {
    const r = this.#row(row);
    this.#checkColumn(column);
    if (this.#cell(r, column) === value) return;
    const raw = this.#materialize(r);
    r.values![column] = value;
    raw[column] = this.#encode(value);
  }

  /**
   * Appends a row; missing trailing cells are empty; more cells than columns throws
   * {@link CsvEditError}. Returns its index.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.parse("name,v\na,1", "f.csv");
   * ed.appendRow(["b, c"]); // 1
   * ed.toString(); // 'name,v\na,1\n"b, c",'
   * ```
   */
  appendRow(cells: readonly string[]): number {
    const width = this.#header.length;
    if (cells.length > width) {
      throw new CsvEditError(
        `row has ${cells.length} cells, the header has ${width}`,
        this.file,
        "csv_ragged_row",
      );
    }
    const values = Array.from({ length: width }, (_, i) => cells[i] ?? "");
    const raw = values.map((v) => this.#encode(v));
    this.#rows.push({ leadStart: -1, start: 0, end: 0, line: 0, width, raw, values });
    return this.#rows.length - 1;
  }

  /**
   * Removes a row (with the blank lines just before it); later rows shift down by one.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.parse("name\na\nb\nc\n", "f.csv");
   * ed.removeRow(1);
   * ed.toString(); // "name\na\nc\n"
   * ```
   */
  removeRow(row: number): void {
    this.#row(row);
    this.#rows.splice(row, 1);
  }

  /**
   * Removes several rows in one pass (any order, duplicates ignored; all indices are checked
   * before anything is removed); returns how many were removed. Same result as calling
   * {@link CsvEditor.removeRow} from the highest index down, in linear time.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const ed = CsvEditor.parse("name\na\nb\nc\n", "f.csv");
   * ed.removeRows([2, 0, 2]); // 2
   * ed.toString(); // "name\nb\n"
   * ```
   */
  removeRows(rows: Iterable<number>): number {
    const doomed = new Set<number>();
    for (const row of rows) {
      this.#row(row);
      doomed.add(row);
    }
    if (doomed.size > 0) this.#rows = this.#rows.filter((_, i) => !doomed.has(i));
    return doomed.size;
  }

  /**
   * The file text: untouched parts byte-identical to the input.
   *
   * @example
   * ```ts
   * import { CsvEditor } from "./csv_edit.ts";
   * const text = "\uFEFFname,v\r\n\r\na,1";
   * CsvEditor.parse(text, "f.csv").toString() === text; // true
   * ```
   */
  toString(): string {
    const text = this.#text;
    const width = this.#header.length;
    const parts: string[] = [];
    // [runStart, runEnd): a stretch of the source printed unchanged as one slice.
    let runStart = 0;
    let runEnd = this.#headerEnd;
    if (this.#headerText !== undefined) {
      parts.push(this.#headerText);
      runStart = runEnd = -1;
    }
    for (const r of this.#rows) {
      if (r.raw === undefined && r.width === width) {
        // An untouched row: extend the run, or start a new one (after a removal or a change).
        if (r.leadStart !== runEnd) {
          if (runStart >= 0) parts.push(text.slice(runStart, runEnd));
          runStart = r.leadStart;
        }
        runEnd = r.end;
        continue;
      }
      if (runStart >= 0) parts.push(text.slice(runStart, runEnd));
      runStart = runEnd = -1;
      if (r.raw === undefined) {
        // Untouched but narrower than the header (columns were added): pad with empty cells.
        parts.push(text.slice(r.leadStart, r.end) + ",".repeat(width - r.width));
      } else {
        const lead = r.leadStart < 0 ? this.#eol : text.slice(r.leadStart, r.start);
        parts.push(lead + r.raw.join(",") + ",".repeat(width - r.raw.length));
      }
    }
    if (runStart >= 0 && runEnd === this.#trailStart) {
      parts.push(text.slice(runStart));
    } else {
      if (runStart >= 0) parts.push(text.slice(runStart, runEnd));
      parts.push(text.slice(this.#trailStart));
    }
    return parts.join("");
  }

  #row(row: number): Row {
    const r = Number.isInteger(row) ? this.#rows[row] : undefined;
    if (r === undefined) {
      throw new CsvEditError(
        `row ${row} is out of range (the file has ${this.#rows.length} rows)`,
        this.file,
        "csv_index_out_of_range",
      );
    }
    return r;
  }

  #checkColumn(column: number): void {
    if (!Number.isInteger(column) || column < 0 || column >= this.#header.length) {
      throw new CsvEditError(
        `column ${column} is out of range (the file has ${this.#header.length} columns)`,
        this.file,
        "csv_index_out_of_range",
      );
    }
  }

  /** Decoded cells of a row, padded to the header width (do not mutate). */
  #cell(r: Row, column: number): string {
    if (r.values !== undefined) return r.values[column] ?? "";
    return column < r.width ? cellAt(this.#text, r.start, r.end, column) : "";
  }

  #pad(values: string[]): string[] {
    while (values.length < this.#header.length) values.push("");
    return values;
  }

  #decode(r: Row, cells: string[], bounds: number[] | null): void {
    const s = this.#scanner;
    s.pos = r.start;
    s.line = r.line;
    s.next(cells, bounds);
  }

  /** Gives a row raw cell texts (the source's, untouched) so single cells can be replaced. */
  #materialize(r: Row): string[] {
    if (r.raw !== undefined) {
      this.#pad(r.values!);
      while (r.raw.length < this.#header.length) r.raw.push("");
      return r.raw;
    }
    const values: string[] = [];
    const bounds: number[] = [];
    this.#decode(r, values, bounds);
    const raw: string[] = [];
    for (let i = 0; i < bounds.length; i += 2) raw.push(this.#text.slice(bounds[i], bounds[i + 1]));
    r.values = this.#pad(values);
    r.raw = this.#pad(raw);
    return r.raw;
  }

  /** Encodes a new cell value; a lone empty cell is quoted so the row is not a blank line. */
  #encode(value: string): string {
    return value === "" && this.#header.length === 1 ? '""' : formatCsvCell(value);
  }
}

function checkColumnName(name: string, file: string): void {
  if (name === "" || name.trim() !== name) {
    throw new CsvEditError(
      `invalid column name ${JSON.stringify(name)} (empty or with edge whitespace)`,
      file,
      "csv_invalid_column",
    );
  }
}
