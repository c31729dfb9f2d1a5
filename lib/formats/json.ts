/**
 * JSON input files with located errors: the engine's own parser (`JSON.parse`) does the work, and
 * when it refuses a text, a small iterative scanner finds the first offending character so the
 * error names file, line and column — never an excerpt of the file's content.
 *
 * @module
 */
import { lineColumnAt, ParseError } from "./errors.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Parses JSON text (a leading BOM is allowed); syntax errors are {@link ParseError}s with code
 * `json_syntax`, line and column.
 *
 * @example
 * ```ts
 * import { parseJson } from "./json.ts";
 * parseJson('{"a": [1, 2]}', "input/x.json"); // { a: [1, 2] }
 * try { parseJson('{"a": tru}', "input/x.json"); } catch (e) { console.log(String(e)); }
 * // ParseError: input/x.json:1:7: invalid JSON: invalid literal
 * ```
 */
export function parseJson(text: string, file: string): Json {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body) as Json;
  } catch {
    const { offset, reason } = locateJsonError(body);
    const at = lineColumnAt(body, offset);
    throw new ParseError(`invalid JSON: ${reason}`, file, at.line, at.column, "json_syntax");
  }
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Offset and reason of the first syntax error of a text that `JSON.parse` refused. Iterative
 * (an explicit stack), so deeply nested input cannot overflow the call stack.
 */
export function locateJsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const n = text.length;
  // Stack of open containers: "[" or "{"; `expect` is what may come next.
  const stack: string[] = [];
  type Expect = "value" | "key" | "colon" | "comma-or-close" | "end";
  let expect: Expect = "value";
  let first = false; // right after an opening bracket (a close is allowed)
  const fail = (reason: string, at = i) => ({ offset: Math.min(at, n), reason });
  const skipWs = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  const afterValue = (): Expect => (stack.length === 0 ? "end" : "comma-or-close");
  for (;;) {
    skipWs();
    if (i >= n) {
      return fail(expect === "end" ? "unexpected error" : "unexpected end of input");
    }
    const c = text[i];
    switch (expect) {
      case "end":
        return fail("unexpected text after the value");
      case "colon":
        if (c !== ":") return fail("expected ':' after a property name");
        i++;
        expect = "value";
        first = false;
        continue;
      case "comma-or-close": {
        const top = stack[stack.length - 1];
        if (c === ",") {
          i++;
          expect = top === "{" ? "key" : "value";
          first = false;
          continue;
        }
        if ((c === "]" && top === "[") || (c === "}" && top === "{")) {
          i++;
          stack.pop();
          expect = afterValue();
          continue;
        }
        return fail(top === "{" ? "expected ',' or '}'" : "expected ',' or ']'");
      }
      case "key":
        if (c === "}" && first) {
          i++;
          stack.pop();
          expect = afterValue();
          continue;
        }
        if (c !== '"') return fail("expected a double-quoted property name");
        {
          const end = scanString(text, i);
          if (typeof end !== "number") return end;
          i = end;
        }
        expect = "colon";
        continue;
      case "value": {
        if (c === "]" && first && stack[stack.length - 1] === "[") {
          i++;
          stack.pop();
          expect = afterValue();
          continue;
        }
        if (c === "[" || c === "{") {
          stack.push(c);
          i++;
          expect = c === "{" ? "key" : "value";
          first = true;
          continue;
        }
        first = false;
        if (c === '"') {
          const end = scanString(text, i);
          if (typeof end !== "number") return end;
          i = end;
        } else if (c === "-" || (c >= "0" && c <= "9")) {
          const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
          if (!m || m[0] === "-") return fail("invalid number");
          i += m[0].length;
        } else {
          const word = /^[a-zA-Z]+/.exec(text.slice(i, i + 16))?.[0] ?? "";
          if (word === "true" || word === "false" || word === "null") i += word.length;
          else return fail(word ? "invalid literal" : `unexpected character '${c}'`);
        }
        expect = afterValue();
        continue;
      }
    }
  }
}

/** End offset of the string starting at `start`, or the error inside it. */
function scanString(text: string, start: number): number | { offset: number; reason: string } {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return { offset: i, reason: "control character in a string (escape it)" };
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          return { offset: i, reason: "invalid \\u escape" };
        }
        i += 6;
        continue;
      }
      if (!e || !'"\\/bfnrt'.includes(e)) return { offset: i, reason: "invalid escape" };
      i += 2;
      continue;
    }
    i++;
  }
  return { offset: text.length, reason: "unterminated string" };
}
