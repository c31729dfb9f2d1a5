/**
 * Jsonnet lexer: turns source text into tokens with precise locations.
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import { JsonnetError } from "./errors.ts";

/** Token categories. `str` tokens carry the decoded string value. */
export type TokenKind = "id" | "kw" | "num" | "str" | "op" | "punc" | "eof";

/** A lexed token. */
export interface Token {
  kind: TokenKind;
  value: string;
  num?: number;
  loc: Loc;
}

const KEYWORDS = new Set([
  "assert",
  "else",
  "error",
  "false",
  "for",
  "function",
  "if",
  "import",
  "importstr",
  "importbin",
  "in",
  "local",
  "null",
  "tailstrict",
  "then",
  "self",
  "super",
  "true",
]);

const OPS = new Set([
  "!",
  "!=",
  "==",
  "=",
  "<",
  "<=",
  ">",
  ">=",
  "<<",
  ">>",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "|",
  "^",
  "&&",
  "||",
  "~",
  ":",
  "::",
  ":::",
  "+:",
  "+::",
  "+:::",
]);

const OP_CHARS = "!$:~+-&|^=<>*/%";

function isIdStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}
function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

/** Splits `src` into tokens; throws a static JsonnetError on malformed input. */
export function lex(src: string, file: string): Token[] {
  const toks: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = src.length;

  const fail = (msg: string, at = i): never => {
    const col = at - lineStart + 1;
    throw new JsonnetError("STATIC ERROR", msg, { file, line, col, endLine: line, endCol: col });
  };
  const advanceNewlines = (from: number, to: number) => {
    for (let j = from; j < to; j++) {
      if (src.charCodeAt(j) === 10) {
        line++;
        lineStart = j + 1;
      }
    }
  };

  while (true) {
    // Whitespace and comments.
    while (i < n) {
      const c = src[i];
      if (c === " " || c === "\t" || c === "\r") i++;
      else if (c === "\n") {
        i++;
        line++;
        lineStart = i;
      } else if (c === "#" || (c === "/" && src[i + 1] === "/")) {
        while (i < n && src[i] !== "\n") i++;
      } else if (c === "/" && src[i + 1] === "*") {
        const end = src.indexOf("*/", i + 2);
        if (end < 0) fail("Multi-line comment has no terminating */.");
        advanceNewlines(i, end + 2);
        i = end + 2;
      } else break;
    }
    const startLine = line;
    const startCol = i - lineStart + 1;
    const mk = (kind: TokenKind, value: string, num?: number): Token => ({
      kind,
      value,
      num,
      loc: { file, line: startLine, col: startCol, endLine: line, endCol: i - lineStart + 1 },
    });
    if (i >= n) {
      toks.push(mk("eof", ""));
      return toks;
    }
    const c = src[i];
    if ("{}[](),.;".includes(c)) {
      i++;
      toks.push(mk("punc", c));
    } else if (isIdStart(c)) {
      const s = i;
      while (i < n && (isIdStart(src[i]) || isDigit(src[i]))) i++;
      const w = src.slice(s, i);
      toks.push(mk(KEYWORDS.has(w) ? "kw" : "id", w));
    } else if (isDigit(c)) {
      const m = /^(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i, i + 400))!;
      const after = src[i + m[0].length];
      if (after === "." || after === "e" || after === "E") {
        fail(`Couldn't lex number, junk after decimal point: ${after}`, i + m[0].length);
      }
      i += m[0].length;
      toks.push(mk("num", m[0], Number(m[0])));
    } else if (c === '"' || c === "'") {
      toks.push(mk("str", lexQuoted(c)));
      toks[toks.length - 1].loc = {
        file,
        line: startLine,
        col: startCol,
        endLine: line,
        endCol: i - lineStart + 1,
      };
    } else if (c === "@" && (src[i + 1] === '"' || src[i + 1] === "'")) {
      const q = src[i + 1];
      i += 2;
      let out = "";
      while (true) {
        if (i >= n) fail("unterminated string");
        if (src[i] === q) {
          if (src[i + 1] === q) {
            out += q;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (src[i] === "\n") {
          line++;
          lineStart = i + 1;
        }
        out += src[i++];
      }
      const t = mk("str", out);
      toks.push(t);
    } else if (c === "|" && src.startsWith("|||", i)) {
      const value = lexTextBlock();
      toks.push(mk("str", value));
    } else if (c === "$" && !OP_CHARS.includes(src[i + 1] ?? "x")) {
      i++;
      toks.push(mk("kw", "$"));
    } else if (OP_CHARS.includes(c)) {
      let j = i;
      while (j < n && OP_CHARS.includes(src[j])) {
        if (
          j > i && (src.startsWith("//", j) || src.startsWith("/*", j) || src.startsWith("|||", j))
        ) {
          break;
        }
        j++;
      }
      let op = src.slice(i, j);
      while (op.length > 1 && "+-~!$".includes(op[op.length - 1])) op = op.slice(0, -1);
      if (!OPS.has(op)) fail(`Not a valid operator: ${op}`);
      i += op.length;
      toks.push(mk("op", op));
    } else {
      fail(`Could not lex the character '${c}'`);
    }
  }

  function lexQuoted(q: string): string {
    i++;
    let out = "";
    while (true) {
      if (i >= n) fail("unterminated string");
      const ch = src[i];
      if (ch === q) {
        i++;
        return out;
      }
      if (ch === "\n") {
        line++;
        lineStart = i + 1;
        out += ch;
        i++;
        continue;
      }
      if (ch !== "\\") {
        out += ch;
        i++;
        continue;
      }
      const e = src[i + 1];
      i += 2;
      switch (e) {
        case '"':
        case "'":
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hex = src.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Unicode escape sequence was truncated.");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default:
          fail(`Unknown escape sequence in string literal: '\\${e ?? ""}'`, i - 2);
      }
    }
  }

  function lexTextBlock(): string {
    i += 3;
    let chomp = false;
    if (src[i] === "-") {
      chomp = true;
      i++;
    }
    while (i < n && (src[i] === " " || src[i] === "\t" || src[i] === "\r")) i++;
    if (src[i] !== "\n") fail("text block syntax requires new line after |||.");
    i++;
    line++;
    lineStart = i;
    // Skip fully empty lines before the first content line.
    let out = "";
    while (src[i] === "\n") {
      out += "\n";
      i++;
      line++;
      lineStart = i;
    }
    let ws = 0;
    while (src[i + ws] === " " || src[i + ws] === "\t") ws++;
    if (ws === 0) fail("text block's first line must start with whitespace.");
    const prefix = src.slice(i, i + ws);
    while (true) {
      if (src.startsWith(prefix, i)) {
        i += prefix.length;
        const e = src.indexOf("\n", i);
        if (e < 0) fail("Unexpected EOF");
        out += src.slice(i, e + 1);
        i = e + 1;
        line++;
        lineStart = i;
        while (src[i] === "\n") {
          out += "\n";
          i++;
          line++;
          lineStart = i;
        }
        continue;
      }
      // End of block: optional whitespace then |||.
      let j = i;
      while (src[j] === " " || src[j] === "\t") j++;
      if (!src.startsWith("|||", j)) {
        fail("Text block not terminated with |||", j);
      }
      i = j + 3;
      break;
    }
    return chomp ? out.replace(/\n$/, "") : out;
  }
}
