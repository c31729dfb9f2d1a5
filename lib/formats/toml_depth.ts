/**
 * Nesting bound of TOML documents (issue 16, hostile input). smol-toml accepts dotted keys and
 * table headers of any length (`a.b.c.… = 1` with 10 000 segments parses), and every consumer of
 * the parsed value then recurses once per level, so such a file used to end in a stack overflow
 * without a location. A light lexical pass measures the nesting of every key and bracket before
 * the document is converted and reports the first place that goes past the bound as a located
 * {@link ParseError} (code `toml_too_deep`).
 *
 * The measure is conservative: table-header segments (plus one for `[[array]]` headers), the
 * segments of every open dotted key, and one per open `[` array.
 *
 * @module
 */
import { ParseError } from "./errors.ts";

/** Deepest nesting a TOML document may have (real modules stay below 10). */
export const TOML_MAX_DEPTH = 100;

interface Frame {
  /** `{` inline table or `[` array. */
  kind: number;
  /** Nesting before this frame was opened. */
  base: number;
}

const LBRACE = 123;
const RBRACE = 125;
const LBRACKET = 91;
const RBRACKET = 93;
const NEWLINE = 10;

/**
 * Throws a located {@link ParseError} (code `toml_too_deep`) when `text` nests deeper than
 * {@link TOML_MAX_DEPTH} levels. Lenient about syntax: whatever it cannot read is left to the
 * parser.
 *
 * @example
 * ```ts
 * import { checkTomlDepth } from "./toml_depth.ts";
 * checkTomlDepth("a.b.c = 1\n[x.y]\nz = [[1]]\n", "module.toml"); // fine
 * try {
 *   checkTomlDepth("a" + ".a".repeat(200) + " = 1\n", "module.toml");
 * } catch (e) {
 *   console.log((e as Error).message); // "module.toml:1:…: nesting deeper than 100 levels"
 * }
 * ```
 */
export function checkTomlDepth(text: string, file: string, limit = TOML_MAX_DEPTH): void {
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let table = 0; // nesting of the current [table] / [[array]] header
  const stack: Frame[] = [];
  let valueBase = 0; // nesting a value opened here starts from
  let expectKey = true; // at line start (outside brackets), after `{` or `,` in an inline table
  const fail = (at: number): never => {
    throw new ParseError(
      `nesting deeper than ${limit} levels`,
      file,
      line,
      at - lineStart + 1,
      "toml_too_deep",
    );
  };
  const depth = () => (stack.length ? stack[stack.length - 1].base : table);
  /** Skips a string starting at `i` (an unterminated one ends at the line or text end). */
  const skipString = () => {
    const q = text[i];
    if (text.startsWith(q + q + q, i)) {
      i += 3;
      while (i < n && !text.startsWith(q + q + q, i)) {
        if (q === '"' && text[i] === "\\") i++; // the escaped character may be a line break
        if (text.charCodeAt(i) === NEWLINE) {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      i += 3;
      while (i < n && text[i] === q) i++;
      return;
    }
    i++;
    while (i < n && text[i] !== q && text.charCodeAt(i) !== NEWLINE) {
      if (q === '"' && text[i] === "\\") i++;
      i++;
    }
    if (text[i] === q) i++;
  };
  /** Reads a (dotted) key at `i`; returns its segment count, or 0 when it is not a key. */
  const readKey = (): number => {
    let segments = 1;
    while (i < n) {
      const ch = text[i];
      if (ch === "=") return segments;
      if (ch === '"' || ch === "'") skipString();
      else if (ch === ".") {
        segments++;
        i++;
      } else if (
        ch === "\n" || ch === "#" || ch === "," || ch === "[" || ch === "{" || ch === "}"
      ) return 0; // not a key; stopping here keeps the pass linear (`{,,,,…}`)
      else i++;
    }
    return 0;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) {
      i++;
      continue;
    }
    if (c === NEWLINE) {
      line++;
      lineStart = i + 1;
      i++;
      if (stack.length === 0) expectKey = true;
      continue;
    }
    if (c === 35) { // '#': comment
      while (i < n && text.charCodeAt(i) !== NEWLINE) i++;
      continue;
    }
    if (expectKey && stack.length === 0 && c === LBRACKET) {
      // [table] or [[array]] header: its segments set the nesting of the keys below it
      const start = i;
      const isArray = text.charCodeAt(i + 1) === LBRACKET;
      i += isArray ? 2 : 1;
      let segments = 1;
      while (i < n && text.charCodeAt(i) !== RBRACKET && text.charCodeAt(i) !== NEWLINE) {
        if (text[i] === '"' || text[i] === "'") skipString();
        else {
          if (text[i] === ".") segments++;
          i++;
        }
      }
      table = segments + (isArray ? 1 : 0);
      if (table > limit) fail(start);
      while (i < n && text.charCodeAt(i) === RBRACKET) i++;
      expectKey = false;
      continue;
    }
    if (expectKey && c !== RBRACE) {
      const [start, startLine, startLineStart] = [i, line, lineStart];
      const segments = readKey();
      if (segments > 0) {
        if (depth() + segments > limit) fail(start);
        // the value's frame base: what an inline table or array opened next would start from
        valueBase = depth() + segments;
        i++; // '='
        expectKey = false;
        continue;
      }
      [i, line, lineStart] = [start, startLine, startLineStart];
      expectKey = false;
    }
    if (c === 34 || c === 39) {
      skipString();
      continue;
    }
    if (c === LBRACE || c === LBRACKET) {
      const base = c === LBRACKET ? valueBase + 1 : valueBase;
      if (base > limit) fail(i);
      stack.push({ kind: c, base });
      valueBase = base;
      i++;
      expectKey = c === LBRACE;
      continue;
    }
    if (c === RBRACE || c === RBRACKET) {
      stack.pop();
      valueBase = depth();
      i++;
      continue;
    }
    if (c === 44) { // ','
      const top = stack[stack.length - 1];
      expectKey = top !== undefined && top.kind === LBRACE;
      valueBase = depth();
      i++;
      continue;
    }
    i++;
  }
}
