/**
 * Translation of Rust `regex` crate syntax (what the original's Tera and `regexp` filter use) to
 * an equivalent JavaScript `RegExp` with the `u` flag.
 *
 * Differences handled: `(?P<name>…)` groups; inline flags `(?i)`, `(?m)`, `(?s)`, `(?is:…)`
 * (anywhere, scoped to the enclosing group like in Rust); Unicode-aware `\d`, `\w`, `\s`, `\b`
 * (JavaScript's are ASCII-only); `.` not matching `\n` only, and multi-line `^`/`$` only
 * breaking at `\n` (JavaScript also uses `\r`, U+2028, U+2029); `\A`, `\z`; `\x{…}`, `\u{…}`, `\UHHHHHHHH`, `\a`; ASCII classes
 * `[[:alpha:]]`; `\pL` and script names in `\p{Greek}`; escaped punctuation such as `\#`.
 * Constructs that Rust rejects (look-around, back-references) are rejected too; Rust-only
 * constructs without a JavaScript equivalent (nested classes, class set operations, flags
 * `x`, `U`, `R`, `-u`) raise an error naming the construct.
 *
 * @module
 */

/**
 * Thrown for a pattern that is invalid or cannot be translated.
 *
 * @example
 * ```ts
 * try {
 *   translateRustRegex("(?=a)");
 * } catch (e) {
 *   e instanceof RegexTranslationError; // true: Rust has no look-around
 * }
 * ```
 */
export class RegexTranslationError extends Error {
  /** Creates the error with a message describing the construct. */
  constructor(message: string) {
    super(message);
    this.name = "RegexTranslationError";
  }
}

const WORD_ITEMS = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
const WORD = `[${WORD_ITEMS}]`;
const NOT_WORD = `[^${WORD_ITEMS}]`;
const BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const NOT_BOUNDARY = `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`;
const SYNTAX_CHARS = new Set("^$\\.*+?()[]{}|/");

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

interface Group {
  flags: Flags;
  /** Inline `(?x)` wrappers opened inside this group, closed at `|` and at the group's end. */
  wrappers: string[];
}

/**
 * Result of {@link translateRustRegex}.
 *
 * @example
 * ```ts
 * const t: TranslatedRegex = translateRustRegex("(?i)abc");
 * t.flags; // "ui"
 * ```
 */
export interface TranslatedRegex {
  /** JavaScript pattern source. */
  source: string;
  /** JavaScript flags (always contains `u`). */
  flags: string;
}

function propertyEscape(name: string, negated: boolean): string {
  const p = negated ? "P" : "p";
  const candidates = [name, `Script=${name}`, `General_Category=${name}`];
  for (const c of candidates) {
    try {
      new RegExp(`\\${p}{${c}}`, "u");
      return `\\${p}{${c}}`;
    } catch {
      // try the next spelling
    }
  }
  throw new RegexTranslationError(`unknown Unicode class \\${p}{${name}}`);
}

function hexEscape(hex: string, pattern: string): string {
  if (!/^[0-9a-fA-F]{1,8}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) {
    throw new RegexTranslationError(`invalid hex escape in ${JSON.stringify(pattern)}`);
  }
  return `\\u{${hex}}`;
}

/**
 * Translates a Rust regex into a JavaScript source + flags.
 *
 * @example
 * ```ts
 * const t = translateRustRegex("(?P<zone>[a-z]+)\\.ch$");
 * new RegExp(t.source, t.flags).exec("www.example.ch")?.groups?.zone; // "example"
 * ```
 */
export function translateRustRegex(pattern: string, extraFlags = ""): TranslatedRegex {
  const global: Flags = { i: false, m: false, s: false };
  for (const f of extraFlags) {
    if (f === "i" || f === "m" || f === "s") global[f] = true;
    else throw new RegexTranslationError(`unsupported flag ${JSON.stringify(f)}`);
  }
  let i = 0;
  // Leading inline flags apply to the whole pattern: turn them into JavaScript flags.
  for (;;) {
    const m = /^\(\?([a-zA-Z]+)\)/.exec(pattern.slice(i));
    if (!m) break;
    for (const f of m[1]) {
      if (f === "i" || f === "m" || f === "s") global[f] = true;
      else if (f !== "u") throw new RegexTranslationError(`unsupported inline flag ${f}`);
    }
    i += m[0].length;
  }
  const stack: Group[] = [{ flags: { ...global }, wrappers: [] }];
  let out = "";
  const top = () => stack[stack.length - 1];

  const escape = (inClass: boolean): string => {
    const c = pattern[i + 1];
    if (c === undefined) throw new RegexTranslationError("pattern ends with a backslash");
    i += 2;
    switch (c) {
      case "d":
        return "\\p{Nd}";
      case "D":
        return "\\P{Nd}";
      case "s":
        return "\\p{White_Space}";
      case "S":
        return "\\P{White_Space}";
      case "w":
        return inClass ? WORD_ITEMS : WORD;
      case "W":
        if (inClass) {
          throw new RegexTranslationError("\\W inside a character class is not supported");
        }
        return NOT_WORD;
      case "b":
        if (inClass) throw new RegexTranslationError("\\b inside a character class");
        return BOUNDARY;
      case "B":
        if (inClass) throw new RegexTranslationError("\\B inside a character class");
        return NOT_BOUNDARY;
      case "A":
        return "(?<![\\s\\S])";
      case "z":
        return "(?![\\s\\S])";
      case "a":
        return "\\x07";
      case "n":
      case "t":
      case "r":
      case "f":
      case "v":
        return `\\${c}`;
      case "p":
      case "P": {
        if (pattern[i] === "{") {
          const close = pattern.indexOf("}", i);
          if (close < 0) throw new RegexTranslationError("unclosed \\p{…}");
          const name = pattern.slice(i + 1, close);
          i = close + 1;
          return propertyEscape(name, c === "P");
        }
        const one = pattern[i++];
        if (one === undefined) throw new RegexTranslationError("incomplete \\p escape");
        return propertyEscape(one, c === "P");
      }
      case "x":
      case "u":
      case "U": {
        if (pattern[i] === "{") {
          const close = pattern.indexOf("}", i);
          if (close < 0) throw new RegexTranslationError("unclosed hex escape");
          const hex = pattern.slice(i + 1, close);
          i = close + 1;
          return hexEscape(hex, pattern);
        }
        const len = c === "x" ? 2 : c === "u" ? 4 : 8;
        const hex = pattern.slice(i, i + len);
        if (hex.length !== len) throw new RegexTranslationError(`incomplete \\${c} escape`);
        i += len;
        return hexEscape(hex, pattern);
      }
      default:
        if (/[0-9]/.test(c)) {
          throw new RegexTranslationError("back-references are not supported (Rust regex)");
        }
        if (/[A-Za-z]/.test(c)) throw new RegexTranslationError(`unknown escape \\${c}`);
        if (SYNTAX_CHARS.has(c)) return `\\${c}`;
        if (c === "-") return inClass ? "\\-" : "-";
        return c;
    }
  };

  const parseClass = (): string => {
    // pattern[i] === "["
    let res = "[";
    i++;
    if (pattern[i] === "^") {
      res += "^";
      i++;
    }
    let first = true;
    for (;;) {
      const c = pattern[i];
      if (c === undefined) throw new RegexTranslationError("unclosed character class");
      if (c === "]" && !first) {
        i++;
        return `${res}]`;
      }
      first = false;
      if (c === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
        if (posix) {
          const set = POSIX[posix[2]];
          if (!set) throw new RegexTranslationError(`unknown ASCII class [:${posix[2]}:]`);
          if (posix[1]) throw new RegexTranslationError("negated ASCII classes are not supported");
          res += set;
          i += posix[0].length;
          continue;
        }
        throw new RegexTranslationError("nested character classes are not supported");
      }
      if ((c === "&" || c === "~") && pattern[i + 1] === c) {
        throw new RegexTranslationError("character class set operations are not supported");
      }
      if (c === "-" && pattern[i + 1] === "-") {
        throw new RegexTranslationError("character class set operations are not supported");
      }
      if (c === "\\") {
        res += escape(true);
        continue;
      }
      if (c === "]" || c === "/") res += `\\${c}`;
      else res += c;
      i++;
    }
  };

  const closeWrappers = (g: Group) => {
    out += ")".repeat(g.wrappers.length);
    g.wrappers = [];
  };

  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "\\") {
      out += escape(false);
    } else if (c === "[") {
      out += parseClass();
    } else if (c === ".") {
      out += top().flags.s ? "[\\s\\S]" : "[^\\n]";
      i++;
    } else if (c === "^") {
      // Rust: start of text, or (multi-line) after "\n" only; JavaScript would also accept \r etc.
      out += top().flags.m ? "(?<![^\\n])" : "(?<![\\s\\S])";
      i++;
    } else if (c === "$") {
      out += top().flags.m ? "(?![^\\n])" : "(?![\\s\\S])";
      i++;
    } else if (c === "|") {
      const g = top();
      const reopen = g.wrappers;
      closeWrappers(g);
      out += "|";
      for (const w of reopen) out += w;
      g.wrappers = reopen;
      i++;
    } else if (c === ")") {
      if (stack.length === 1) throw new RegexTranslationError("unopened group");
      closeWrappers(top());
      stack.pop();
      out += ")";
      i++;
    } else if (c === "(") {
      const rest = pattern.slice(i);
      const parent = top().flags;
      let m: RegExpExecArray | null;
      if ((m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest))) {
        out += `(?<${m[1]}>`;
        stack.push({ flags: { ...parent }, wrappers: [] });
        i += m[0].length;
      } else if (/^\(\?(=|!|<=|<!)/.test(rest)) {
        throw new RegexTranslationError("look-around is not supported (Rust regex)");
      } else if ((m = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest))) {
        const flags = { ...parent };
        const mods = applyFlags(flags, m[1], m[2] ?? "");
        i += m[0].length;
        if (m[3] === ":") {
          out += mods ? `(?${mods}:` : "(?:";
          stack.push({ flags, wrappers: [] });
        } else {
          // `(?i)` mid-pattern: applies until the end of the enclosing group.
          const g = top();
          g.flags = flags;
          if (mods) {
            const w = `(?${mods}:`;
            out += w;
            g.wrappers.push(w);
          }
        }
      } else if (rest.startsWith("(?")) {
        throw new RegexTranslationError(
          `unsupported group syntax ${JSON.stringify(rest.slice(0, 4))}`,
        );
      } else {
        out += "(";
        stack.push({ flags: { ...parent }, wrappers: [] });
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  if (stack.length !== 1) throw new RegexTranslationError("unclosed group");
  closeWrappers(top());
  const flags = `u${global.i ? "i" : ""}`;
  try {
    new RegExp(out, flags);
  } catch (e) {
    throw new RegexTranslationError(
      `invalid regex ${JSON.stringify(pattern)}: ${(e as Error).message}`,
    );
  }
  return { source: out, flags };
}

/** Applies `(?on-off)` to `flags`; returns the JavaScript modifier text for `i`. */
function applyFlags(flags: Flags, on: string, off: string): string {
  let js = "";
  let jsOff = "";
  for (const [list, value] of [[on, true], [off, false]] as const) {
    for (const f of list) {
      if (f === "i") {
        flags.i = value;
        if (value) js += f;
        else jsOff += f;
      } else if (f === "s" || f === "m") flags[f] = value;
      else if (f === "u" && value) continue;
      else throw new RegexTranslationError(`unsupported inline flag ${value ? "" : "-"}${f}`);
    }
  }
  return jsOff ? `${js}-${jsOff}` : js;
}

/**
 * Compiles a Rust regex to a JavaScript `RegExp`.
 *
 * @example
 * ```ts
 * compileRustRegex("^\\d+$").test("١٢٣"); // true: Rust's \d is Unicode-aware
 * ```
 */
export function compileRustRegex(pattern: string, extraFlags = "", jsFlags = ""): RegExp {
  const t = translateRustRegex(pattern, extraFlags);
  return new RegExp(t.source, t.flags + jsFlags);
}
