/**
 * Filter `regexp(expr='s/<regex>/<replacement>/<flags>')`: sed-style substitution with Rust regex
 * syntax (used by historic aws-region-module models, e.g.
 * `city | regexp(expr='s/.*\((.*)\)/\1/')`).
 *
 * Rules:
 * - the character after `s` is the delimiter (usually `/`); `\<delimiter>` stands for the
 *   delimiter itself; the closing delimiter after the replacement may be omitted;
 * - flags: `g` replaces every match (default: only the first), `i` ignores case, `m` multi-line,
 *   `s` dot matches newline;
 * - replacement: `\1`…`\9` (sed) and `$1`, `${1}`, `$name`, `${name}` (Rust) insert a group
 *   (empty when it did not participate), `\0` the whole match, `$$` a dollar, `\n`/`\t` a
 *   newline/tab, `\\` a backslash; any other `\c` is `c`; `&` is literal (the original uses
 *   Rust's replacer, not sed's).
 *
 * @module
 */

import { ExtensionError } from "./errors.ts";
import { compileUserRegex, RegexTranslationError, type UserRegex } from "./user_regex.ts";
import { describe, printValue, requireString } from "./values.ts";

type Part = string | { group: number | string };

/** A parsed `s/…/…/flags` expression. */
export interface SedExpression {
  /** The compiled pattern (Rust syntax, linear-time engine). */
  regex: UserRegex;
  replacement: Part[];
  global: boolean;
}

function splitUnescaped(text: string, delim: string, from: number): [string, number] {
  let i = from;
  let out = "";
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) {
      out += c + text[i + 1]; // `\<delim>` stays escaped; regex and replacement parsers unescape it
      i += 2;
      continue;
    }
    if (c === delim) return [out, i];
    out += c;
    i++;
  }
  return [out, -1];
}

function parseReplacement(text: string, delim: string): Part[] {
  const parts: Part[] = [];
  let lit = "";
  const flush = () => {
    if (lit) parts.push(lit);
    lit = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) {
      const n = text[++i];
      if (/[0-9]/.test(n)) {
        flush();
        parts.push({ group: Number(n) });
      } else if (n === "n") lit += "\n";
      else if (n === "t") lit += "\t";
      else if (n === delim) lit += delim;
      else lit += n;
    } else if (c === "$") {
      const braced = /^\$\{([^}]*)\}/.exec(text.slice(i));
      const bare = /^\$([A-Za-z0-9_]+)/.exec(text.slice(i));
      if (text[i + 1] === "$") {
        lit += "$";
        i++;
      } else if (braced) {
        flush();
        parts.push({ group: /^\d+$/.test(braced[1]) ? Number(braced[1]) : braced[1] });
        i += braced[0].length - 1;
      } else if (bare) {
        flush();
        parts.push({ group: /^\d+$/.test(bare[1]) ? Number(bare[1]) : bare[1] });
        i += bare[0].length - 1;
      } else lit += "$";
    } else lit += c;
  }
  flush();
  return parts;
}

/**
 * Parses a sed-style substitution.
 *
 * @example
 * ```ts
 * const e = parseSedExpression("s/a(b)/<\\1>/g");
 * applySed(e, "abab"); // "<b><b>"
 * ```
 */
export function parseSedExpression(expr: string): SedExpression {
  const ext = "regexp";
  if (expr[0] !== "s" || expr.length < 2) {
    throw new ExtensionError(
      ext,
      `expected 's/<regex>/<replacement>/<flags>', got ${JSON.stringify(expr)}`,
      "expr",
    );
  }
  const delim = expr[1];
  if (/[A-Za-z0-9\\\s]/.test(delim)) {
    throw new ExtensionError(ext, `invalid delimiter ${JSON.stringify(delim)}`, "expr");
  }
  const [pattern, end1] = splitUnescaped(expr, delim, 2);
  if (end1 < 0) {
    throw new ExtensionError(ext, `unterminated regex in ${JSON.stringify(expr)}`, "expr");
  }
  const [repl, end2] = splitUnescaped(expr, delim, end1 + 1);
  const flagText = end2 < 0 ? "" : expr.slice(end2 + 1);
  let global = false;
  let extra = "";
  for (const f of flagText) {
    if (f === "g") global = true;
    else if (f === "i" || f === "m" || f === "s") extra += f;
    else throw new ExtensionError(ext, `unsupported flag ${JSON.stringify(f)}`, "expr");
  }
  let regex: UserRegex;
  try {
    regex = compileUserRegex(pattern, extra);
  } catch (e) {
    if (e instanceof RegexTranslationError) {
      throw new ExtensionError(ext, e.message, "expr", { cause: e });
    }
    throw e;
  }
  return { regex, replacement: parseReplacement(repl, delim), global };
}

/** Applies a parsed substitution to a string (Rust `replace`/`replace_all` match iteration). */
export function applySed(e: SedExpression, input: string): string {
  return e.regex.replace(input, (m) => {
    let out = "";
    for (const p of e.replacement) out += typeof p === "string" ? p : m.group(p.group) ?? "";
    return out;
  }, e.global);
}

/** The `regexp` filter. */
export function regexpFilter(value: unknown, args: Record<string, unknown>): string {
  const expr = requireString("regexp", args, "expr");
  if (value === null || value === undefined || typeof value === "object") {
    throw new ExtensionError("regexp", `expected a string, got ${describe(value)}`, "value");
  }
  return applySed(parseSedExpression(expr), printValue(value));
}
