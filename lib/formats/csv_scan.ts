/**
 * The RFC 4180 record scanner shared by the CSV parser (csv.ts) and the CSV editor
 * (csv_edit.ts). It walks records one at a time, skips blank lines, reports where each record's
 * text starts and ends, and can optionally decode cells and record their raw spans — so the
 * editor can validate a large file without allocating a string per cell.
 *
 * @module
 */
import { ParseError } from "./errors.ts";

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * Scans CSV text record by record. After {@link CsvScanner.next} returns true, `start`/`end`
 * delimit the record's text (its line break excluded), `startLine` is its 1-based line and
 * `cellCount` its number of cells; `pos`/`line` point at the next record.
 *
 * @example
 * ```ts
 * import { CsvScanner } from "./csv_scan.ts";
 * const s = new CsvScanner('a,"b\nc"\n\nd\n', "f.csv");
 * const cells: string[] = [];
 * s.next(cells, null); // true: cells = ["a", "b\nc"], s.startLine = 1
 * s.next(null, null); // true: the blank line is skipped, s.startLine = 4, s.cellCount = 1
 * s.next(null, null); // false
 * ```
 */
export class CsvScanner {
  /** Offset where the next record begins. */
  pos: number;
  /** 1-based line of `pos`. */
  line: number;
  /** Offset where the last record's text begins. */
  start = 0;
  /** Offset just after the last record's text (before its line break). */
  end = 0;
  /** 1-based line on which the last record begins. */
  startLine = 0;
  /** Number of cells of the last record. */
  cellCount = 0;

  /**
   * Starts a scanner at `pos` (a record start).
   *
   * @param text the whole file
   * @param file workspace-relative path, for errors
   * @param pos where to start (default: after a leading UTF-8 BOM)
   * @param line the 1-based line of `pos`
   */
  constructor(readonly text: string, readonly file: string, pos?: number, line = 1) {
    this.pos = pos ?? (text.charCodeAt(0) === 0xfeff ? 1 : 0);
    this.line = line;
  }

  /**
   * Scans the next non-blank record. Its decoded cells are put in `cells` and its raw cell
   * spans (`start, end` offset pairs, quotes included) in `bounds` when given (each then holds
   * this record's entries only). Returns false at the end of the text. Throws
   * {@link ParseError} on broken quoting.
   */
  next(cells: string[] | null, bounds: number[] | null): boolean {
    const text = this.text;
    const n = text.length;
    let i = this.pos;
    let line = this.line;
    while (i < n) {
      const startLine = line;
      const start = i;
      let count = 0;
      let blank = true;
      let end: number;
      for (;;) {
        // One cell.
        const cellStart = i;
        if (text.charCodeAt(i) === QUOTE) {
          blank = false;
          const quoteLine = line;
          i++;
          let out = "";
          let segment = i;
          for (;;) {
            if (i >= n) {
              throw new ParseError(
                "unterminated quoted cell (missing closing '\"')",
                this.file,
                quoteLine,
                columnOf(text, cellStart),
                "csv_unterminated_quote",
              );
            }
            const c = text.charCodeAt(i);
            if (c === QUOTE) {
              if (text.charCodeAt(i + 1) === QUOTE) {
                if (cells) out += text.slice(segment, i + 1);
                i += 2;
                segment = i;
                continue;
              }
              if (cells) out += text.slice(segment, i);
              i++;
              break;
            }
            if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line++;
            i++;
          }
          if (cells) cells[count] = out;
          const next = text.charCodeAt(i);
          if (i < n && next !== COMMA && next !== LF && next !== CR) {
            throw new ParseError(
              "unexpected text after a closing quote (quote the whole cell and double inner quotes)",
              this.file,
              line,
              columnOf(text, i),
              "csv_bad_quote",
            );
          }
        } else {
          while (i < n) {
            const c = text.charCodeAt(i);
            if (c === COMMA || c === LF || c === CR) break;
            i++;
          }
          if (i !== cellStart) blank = false;
          if (cells) cells[count] = text.slice(cellStart, i);
        }
        if (bounds) {
          bounds[2 * count] = cellStart;
          bounds[2 * count + 1] = i;
        }
        count++;
        if (i >= n) {
          end = i;
          break;
        }
        const c = text.charCodeAt(i);
        if (c === COMMA) {
          blank = false;
          i++;
          continue;
        }
        // End of record.
        end = i;
        i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
        line++;
        break;
      }
      if (!blank) {
        // Written in place and cut to length, not emptied first: emptying an array makes V8
        // give up its storage, and every record would allocate it again.
        if (cells && cells.length !== count) cells.length = count;
        if (bounds && bounds.length !== 2 * count) bounds.length = 2 * count;
        this.pos = i;
        this.line = line;
        this.start = start;
        this.end = end;
        this.startLine = startLine;
        this.cellCount = count;
        return true;
      }
    }
    this.pos = i;
    this.line = line;
    if (cells) cells.length = 0;
    if (bounds) bounds.length = 0;
    return false;
  }
}

/** 1-based column of a string offset (counted from the last line break before it). */
export function columnOf(text: string, offset: number): number {
  let start = offset;
  while (start > 0) {
    const c = text.charCodeAt(start - 1);
    if (c === LF || c === CR) break;
    start--;
  }
  return offset - start + 1;
}

/**
 * Trims header names and rejects an empty or duplicated one (A4), naming the header's line.
 */
export function checkHeader(cells: readonly string[], file: string, line: number): string[] {
  const header = cells.map((h) => h.trim());
  const seen = new Map<string, number>();
  header.forEach((h, index) => {
    if (h === "") {
      throw new ParseError(
        `header column ${index + 1} is empty`,
        file,
        line,
        undefined,
        "csv_empty_header",
      );
    }
    if (seen.has(h)) {
      throw new ParseError(
        `duplicate header '${h}' (columns ${seen.get(h)! + 1} and ${index + 1})`,
        file,
        line,
        undefined,
        "csv_duplicate_header",
      );
    }
    seen.set(h, index);
  });
  return header;
}

/**
 * Decodes cell `column` of a record already validated by the scanner, spanning [start, end):
 * skips the cells before it without decoding them (a key lookup reads one cell per row).
 */
export function cellAt(text: string, start: number, end: number, column: number): string {
  let i = start;
  for (let c = 0;; c++) {
    let next: number;
    if (text.charCodeAt(i) === QUOTE) {
      let close = text.indexOf('"', i + 1);
      while (text.charCodeAt(close + 1) === QUOTE) close = text.indexOf('"', close + 2);
      if (c === column) return text.slice(i + 1, close).replaceAll('""', '"');
      next = close + 1;
    } else {
      next = i;
      while (next < end && text.charCodeAt(next) !== COMMA) next++;
      if (c === column) return text.slice(i, next);
    }
    i = next + 1; // past the comma
  }
}

/** The line end of the first line break outside quoted cells; LF when the file has none. */
export function detectEol(text: string, headerStart: number, headerEnd: number): string {
  // Blank lines before the header come first; otherwise the header's own line break.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const at = headerStart > bom ? bom : headerEnd;
  if (text.charCodeAt(at) === CR) return text.charCodeAt(at + 1) === LF ? "\r\n" : "\r";
  return "\n";
}
