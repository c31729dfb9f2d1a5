/**
 * Parse errors shared by every input format (CSV, TOML, JSON, manifests).
 *
 * @module
 */

/**
 * A syntax or structure error in an input file, with its location.
 *
 * @example
 * ```ts
 * import { ParseError } from "./errors.ts";
 * const e = new ParseError("unterminated quote", "assets/host.csv", 3, 7);
 * console.log(e.message); // "assets/host.csv:3:7: unterminated quote"
 * ```
 */
export class ParseError extends Error {
  /**
   * @param reason what is wrong, without location
   * @param file workspace-relative path
   * @param line 1-based line, when known
   * @param column 1-based column, when known
   * @param code stable machine-readable code
   */
  /** Creates the error; the message is prefixed with `file:line:column`. */
  constructor(
    readonly reason: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
    readonly code = "parse_error",
  ) {
    super(
      `${file}${
        line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ""}` : ""
      }: ${reason}`,
    );
    this.name = "ParseError";
  }
}

/** Line and column (1-based) of a string offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
