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

interface RawRecord {
  line: number;
  cells: string[];
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Splits text into records, honouring quotes. Throws ParseError on broken quoting. */
function* records(text: string, file: string): Generator<RawRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const startLine = line;
    const cells: string[] = [];
    let blank = true;
    for (;;) {
      // One cell.
      let cell: string;
      if (text.charCodeAt(i) === QUOTE) {
        blank = false;
        const quoteLine = line;
        const quoteCol = columnOf(text, i);
        i++;
        let out = "";
        let segment = i;
        for (;;) {
          if (i >= n) {
            throw new ParseError(
              "unterminated quoted cell (missing closing '\"')",
              file,
              quoteLine,
              quoteCol,
              "csv_unterminated_quote",
            );
          }
          const c = text.charCodeAt(i);
          if (c === QUOTE) {
            if (text.charCodeAt(i + 1) === QUOTE) {
              out += text.slice(segment, i + 1);
              i += 2;
              segment = i;
              continue;
            }
            out += text.slice(segment, i);
            i++;
            break;
          }
          if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line++;
          i++;
        }
        cell = out;
        const next = text.charCodeAt(i);
        if (i < n && next !== COMMA && next !== LF && next !== CR) {
          throw new ParseError(
            "unexpected text after a closing quote (quote the whole cell and double inner quotes)",
            file,
            line,
            columnOf(text, i),
            "csv_bad_quote",
          );
        }
      } else {
        const start = i;
        while (i < n) {
          const c = text.charCodeAt(i);
          if (c === COMMA || c === LF || c === CR) break;
          i++;
        }
        cell = text.slice(start, i);
        if (cell !== "") blank = false;
      }
      cells.push(cell);
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        blank = false;
        i++;
        continue;
      }
      // End of record.
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      break;
    }
    if (!blank) yield { line: startLine, cells };
  }
}

function columnOf(text: string, offset: number): number {
  let start = offset;
  while (start > 0) {
    const c = text.charCodeAt(start - 1);
    if (c === LF || c === CR) break;
    start--;
  }
  return offset - start + 1;
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
  const it = records(text, file);
  const first = it.next();
  if (first.done) {
    throw new ParseError("file has no header row", file, 1, 1, "csv_empty_header");
  }
  const header = first.value.cells.map((h) => h.trim());
  const seen = new Map<string, number>();
  header.forEach((h, index) => {
    if (h === "") {
      throw new ParseError(
        `header column ${index + 1} is empty`,
        file,
        first.value.line,
        undefined,
        "csv_empty_header",
      );
    }
    if (seen.has(h)) {
      throw new ParseError(
        `duplicate header '${h}' (columns ${seen.get(h)! + 1} and ${index + 1})`,
        file,
        first.value.line,
        undefined,
        "csv_duplicate_header",
      );
    }
    seen.set(h, index);
  });
  const rows: CsvRow[] = [];
  const errors: ParseError[] = [];
  for (const record of it) {
    if (record.cells.length !== header.length) {
      errors.push(
        new ParseError(
          `row has ${record.cells.length} cells, the header has ${header.length}`,
          file,
          record.line,
          undefined,
          "csv_ragged_row",
        ),
      );
      continue;
    }
    rows.push(record);
  }
  return { header, rows, errors };
}

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
