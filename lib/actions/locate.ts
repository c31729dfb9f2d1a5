/**
 * Finding where a key of an action file is written, so that errors about parsed values can be
 * located at `file:line:col` (TOML parsers return plain values without positions).
 *
 * @module
 */

/** A 1-based position in a file. */
export interface KeyPosition {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function positionAt(text: string, offset: number): KeyPosition {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

function keyPattern(key: string): string {
  return `(?:${escape(key)}|"${escape(key)}"|'${escape(key)}')`;
}

/** Offset of `key = …` at the start of a line, or of a `[key…]` header, from `from`. */
function findKey(text: string, key: string, from: number, to: number): number | undefined {
  const re = new RegExp(
    `^([ \\t]*)(?:${keyPattern(key)}[ \\t]*=|\\[\\[?[ \\t]*${keyPattern(key)}[ \\t]*[\\].])`,
    "gm",
  );
  re.lastIndex = from;
  const m = re.exec(text);
  if (!m || m.index >= to) return undefined;
  return m.index + m[1].length;
}

/**
 * Position of a key path such as `["input", 2, "type"]` (third `[[input]]` table, its `type`) or
 * `["run_mode"]`; the nearest known position when the exact key is not found (line 1 at worst).
 *
 * @example
 * ```ts
 * import { locateKey } from "./locate.ts";
 * const text = 'name = "a"\n[[input]]\nname = "x"\ntype = "float"\n';
 * console.log(locateKey(text, ["input", 0, "type"])); // { line: 4, column: 1 }
 * ```
 */
export function locateKey(text: string, path: readonly (string | number)[]): KeyPosition {
  if (path.length === 0 || typeof path[0] !== "string") return { line: 1, column: 1 };
  const head = path[0];
  let offset: number | undefined;
  if (typeof path[1] === "number") {
    const re = new RegExp(`^[ \\t]*\\[\\[[ \\t]*${keyPattern(head)}[ \\t]*\\]\\]`, "gm");
    let m: RegExpExecArray | null;
    let i = 0;
    while ((m = re.exec(text)) !== null) {
      if (i++ === path[1]) {
        offset = m.index;
        break;
      }
    }
    if (offset !== undefined && typeof path[2] === "string") {
      const lineEnd = text.indexOf("\n", offset);
      const from = lineEnd < 0 ? text.length : lineEnd + 1;
      const next = text.slice(from).search(/^[ \t]*\[/m);
      const end = next < 0 ? text.length : from + next;
      offset = findKey(text, path[2], from, end) ?? offset;
    }
  }
  if (offset === undefined) {
    offset = findKey(text, head, 0, text.length);
    if (offset !== undefined && typeof path[1] === "string") {
      offset = findKey(text, path[1], offset, text.length) ?? offset;
    }
  }
  return offset === undefined ? { line: 1, column: 1 } : positionAt(text, offset);
}
