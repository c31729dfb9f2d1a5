/**
 * Character-level scanning for the Tera grammar: a cursor with backtracking and the atomic
 * tokens (identifiers, numbers, strings, paths). The parser is a hand-written PEG that mirrors
 * Tera's pest grammar rule by rule, so it accepts and rejects the same templates.
 * @module
 */

import type { Path } from "./ast.ts";
import { SyntaxFailure } from "./errors.ts";

/** Marker returned by a rule that did not match (the cursor is restored by the caller). */
export const FAIL: unique symbol = Symbol("fail");
/** A rule result or {@link FAIL}. */
export type R<T> = T | typeof FAIL;

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** `[a-zA-Z0-9_]` */
export function isIdentChar(c: number): boolean {
  return isAlpha(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Deepest nesting of tag bodies, brackets, calls and subscripts the parser accepts (issue 16:
 * 10 000 nested `{% if %}` or `((((` used to overflow the stack). Real templates stay below 10.
 */
export const MAX_NESTING = 200;

/** A backtracking cursor over the template source that records the farthest failure. */
export class Cursor {
  pos = 0;
  /** Farthest position where a token was expected. */
  farthest = 0;
  expected = new Set<string>();
  /** Current nesting (see {@link MAX_NESTING}). */
  depth = 0;

  constructor(readonly src: string) {}

  /** Records an expectation at the current position (for error messages). */
  expect(what: string): typeof FAIL {
    if (this.pos > this.farthest) {
      this.farthest = this.pos;
      this.expected.clear();
    }
    if (this.pos === this.farthest) this.expected.add(what);
    return FAIL;
  }

  /** The syntax error for the farthest failure. */
  failure(): SyntaxFailure {
    const list = [...this.expected];
    const found = this.farthest >= this.src.length
      ? "end of input"
      : JSON.stringify(this.src.slice(this.farthest, this.farthest + 12));
    const msg = list.length ? `expected ${list.join(", ")}; found ${found}` : `unexpected ${found}`;
    return new SyntaxFailure(msg, this.farthest);
  }

  /** Runs `f` one nesting level deeper; past {@link MAX_NESTING} a syntax error at `pos`. */
  nested<T>(f: () => T, pos: number = this.pos): T {
    if (this.depth >= MAX_NESTING) {
      throw new SyntaxFailure(`nested too deeply (more than ${MAX_NESTING} levels)`, pos);
    }
    this.depth++;
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  peek(offset = 0): number {
    return this.src.charCodeAt(this.pos + offset);
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Matches a literal; records the expectation on failure. */
  lit(s: string): boolean {
    if (this.src.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    this.expect("`" + s + "`");
    return false;
  }

  /** Implicit whitespace of non-atomic rules: `[ \t\r\n]*`. */
  ws(): void {
    const s = this.src;
    let p = this.pos;
    while (p < s.length) {
      const c = s.charCodeAt(p);
      if (c === 32 || c === 9 || c === 13 || c === 10) p++;
      else break;
    }
    this.pos = p;
  }

  /** One or more whitespace characters. */
  ws1(): boolean {
    const before = this.pos;
    this.ws();
    if (this.pos === before) {
      this.expect("whitespace");
      return false;
    }
    return true;
  }

  /** `ident = @{ [a-zA-Z_] [a-zA-Z0-9_]* }` */
  ident(): R<string> {
    const s = this.src;
    const start = this.pos;
    if (!isAlpha(s.charCodeAt(start))) return this.expect("an identifier");
    let p = start + 1;
    while (p < s.length && isIdentChar(s.charCodeAt(p))) p++;
    this.pos = p;
    return s.slice(start, p);
  }

  /** `dotted_ident = @{ ident ("." all_chars+)* }` */
  dottedIdent(): R<string> {
    const start = this.pos;
    if (this.ident() === FAIL) return FAIL;
    this.dotSegments();
    return this.src.slice(start, this.pos);
  }

  private dotSegments(): void {
    const s = this.src;
    while (s.charCodeAt(this.pos) === 46 && isIdentChar(s.charCodeAt(this.pos + 1))) {
      let p = this.pos + 2;
      while (p < s.length && isIdentChar(s.charCodeAt(p))) p++;
      this.pos = p;
    }
  }

  /** `int = @{ "-"? ("0" | [1-9][0-9]*) }` */
  int(): R<string> {
    const s = this.src;
    const start = this.pos;
    let p = start;
    if (s.charCodeAt(p) === 45) p++;
    const c = s.charCodeAt(p);
    if (c === 48) p++;
    else if (c >= 49 && c <= 57) {
      p++;
      while (isDigit(s.charCodeAt(p))) p++;
    } else return this.expect("an integer");
    this.pos = p;
    return s.slice(start, p);
  }

  /** `float = @{ "-"? ("0" | [1-9][0-9]*) "." [0-9]+ }` */
  float(): R<string> {
    const start = this.pos;
    if (this.int() === FAIL) return FAIL;
    if (this.peek() !== 46 || !isDigit(this.peek(1))) {
      this.pos += this.peek() === 46 ? 1 : 0;
      this.expect("a float");
      this.pos = start;
      return FAIL;
    }
    this.pos += 2;
    while (isDigit(this.peek())) this.pos++;
    return this.src.slice(start, this.pos);
  }

  /** A string in `"`, `'` or backticks (no escapes); returns the raw text with quotes. */
  stringRaw(): R<string> {
    const q = this.peek();
    if (q !== 34 && q !== 39 && q !== 96) return this.expect("a string");
    const end = this.src.indexOf(String.fromCharCode(q), this.pos + 1);
    if (end < 0) {
      this.pos = this.src.length;
      this.expect("a closing quote");
      return FAIL;
    }
    const raw = this.src.slice(this.pos, end + 1);
    this.pos = end + 1;
    return raw;
  }

  /** A string literal's value. */
  string(): R<string> {
    const raw = this.stringRaw();
    return raw === FAIL ? FAIL : raw.slice(1, -1);
  }

  /**
   * `dotted_square_bracket_ident = @{ dotted_ident (("." all_chars+) | square_brackets)* }`
   * with `square_brackets = @{ "[" (int | string | dotted_square_bracket_ident) "]" }`.
   */
  path(): R<Path> {
    const start = this.pos;
    if (this.ident() === FAIL) return FAIL;
    const root = this.src.slice(start, this.pos);
    const segs: (string | Path)[] = [];
    const s = this.src;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (c === 46 && isIdentChar(s.charCodeAt(this.pos + 1))) {
        let p = this.pos + 2;
        while (p < s.length && isIdentChar(s.charCodeAt(p))) p++;
        segs.push(jsonPointerKey(s.slice(this.pos + 1, p)));
        this.pos = p;
        continue;
      }
      if (c === 91) {
        const save = this.pos;
        this.pos++;
        const seg = this.bracketContent();
        if (seg !== FAIL && this.peek() === 93) {
          this.pos++;
          segs.push(seg);
          continue;
        }
        if (seg !== FAIL) this.expect("`]`");
        this.pos = save;
      }
      break;
    }
    return { root, segs, raw: s.slice(start, this.pos) };
  }

  private bracketContent(): R<string | Path> {
    const start = this.pos;
    const i = this.int();
    if (i !== FAIL) {
      // Tera treats a non-`usize` literal (e.g. `-1`) as the name of a variable.
      if (i.startsWith("-")) return { root: i, segs: [], raw: i };
      return i;
    }
    this.pos = start;
    const q = this.peek();
    const str = this.stringRaw();
    if (str !== FAIL) {
      // Tera rewrites `["k"]`/`['k']` to a key; a backtick string keeps its quotes.
      return q === 96 ? jsonPointerKey(str) : jsonPointerKey(str.slice(1, -1));
    }
    this.pos = start;
    return this.nested(() => this.path());
  }
}

/** Tera builds a JSON pointer from keys (`/` escaped as `~1`, then unescaped by the lookup). */
export function jsonPointerKey(k: string): string {
  if (k.indexOf("~") < 0) return k;
  return k.replaceAll("~1", "/").replaceAll("~0", "~");
}
