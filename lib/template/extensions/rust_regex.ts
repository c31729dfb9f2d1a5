/**
 * Translation of Rust `regex` crate syntax (what the original's Tera, `regexp` filter, rule
 * conditions and GraphQL filters use) to the syntax of RE2 (`re2js`), a linear-time engine like
 * Rust's own: no back-references, no look-around, so no catastrophic backtracking.
 *
 * Differences handled: Unicode-aware `\d`, `\s`, `\w` (RE2's are ASCII-only); `(?x)` verbose mode
 * (whitespace and `#` comments ignored, scoped to the enclosing group like every Rust flag);
 * `(?u)` (the default) dropped; `(?<name>…)` groups; `\u{…}`, `\uHHHH`, `\UHHHHHHHH` escapes;
 * long Unicode class names (`\p{Letter}`, `\p{Script=Greek}`, `\p{greek}`).
 * Passed through unchanged (same meaning in both engines): `(?P<name>…)`, flags `i`, `m`, `s`,
 * `U` (global or scoped), `.` (not `\n`), `^`/`$`, `\A`, `\z`, `\x{…}`, `\pL`, `\p{Greek}`,
 * `[[:alpha:]]`, escaped punctuation such as `\#`.
 * Rejected like Rust: look-around, back-references, unknown escapes. Rejected because RE2 has no
 * equivalent: nested classes and class set operations, `\W` inside a class, flags `R` and `-u`.
 * Known approximation: `\b` and `\B` are ASCII word boundaries (Rust: Unicode).
 *
 * @module
 */

import { RE2JS } from "re2js";

/**
 * Thrown for a pattern that is invalid or cannot be translated; the message names the pattern.
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
  /** The user's pattern (when known). */
  readonly pattern?: string;
  /** Creates the error; with `pattern`, the message names it. */
  constructor(message: string, pattern?: string) {
    super(
      pattern === undefined
        ? message
        : `invalid regular expression ${JSON.stringify(pattern)}: ${message}`,
    );
    this.name = "RegexTranslationError";
    this.pattern = pattern;
  }
}

/** Rust's Unicode `\w`: Alphabetic, marks, decimal digits, connector punctuation, joiners. */
const WORD_ITEMS = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}";
const WORD = `[${WORD_ITEMS}]`;
const NOT_WORD = `[^${WORD_ITEMS}]`;
const SPACE = "\\p{White_Space}";
const NOT_SPACE = "\\P{White_Space}";

/** Long general-category names (Rust accepts them; RE2 only the short ones). */
const CATEGORIES: Record<string, string> = {
  letter: "L",
  uppercaseletter: "Lu",
  lowercaseletter: "Ll",
  titlecaseletter: "Lt",
  modifierletter: "Lm",
  otherletter: "Lo",
  mark: "M",
  nonspacingmark: "Mn",
  spacingmark: "Mc",
  enclosingmark: "Me",
  number: "N",
  decimalnumber: "Nd",
  digit: "Nd",
  letternumber: "Nl",
  othernumber: "No",
  punctuation: "P",
  connectorpunctuation: "Pc",
  dashpunctuation: "Pd",
  openpunctuation: "Ps",
  closepunctuation: "Pe",
  initialpunctuation: "Pi",
  finalpunctuation: "Pf",
  otherpunctuation: "Po",
  symbol: "S",
  mathsymbol: "Sm",
  currencysymbol: "Sc",
  modifiersymbol: "Sk",
  othersymbol: "So",
  separator: "Z",
  spaceseparator: "Zs",
  lineseparator: "Zl",
  paragraphseparator: "Zp",
  other: "C",
  control: "Cc",
  format: "Cf",
  surrogate: "Cs",
  privateuse: "Co",
  unassigned: "Cn",
};

/**
 * Result of {@link translateRustRegex}.
 *
 * @example
 * ```ts
 * const t: TranslatedRegex = translateRustRegex("(?i)abc");
 * t.source; // "(?i)abc"
 * ```
 */
export interface TranslatedRegex {
  /** RE2 pattern source (global flags included as a leading `(?…)`). */
  source: string;
  /** The global flags that were applied (`i`, `m`, `s`), for information. */
  flags: string;
}

const probed = new Map<string, boolean>();

/** True when RE2 knows the Unicode class escape `text` (e.g. `\\p{Greek}`). */
function re2Knows(text: string): boolean {
  let ok = probed.get(text);
  if (ok === undefined) {
    try {
      RE2JS.compile(text);
      ok = true;
    } catch {
      ok = false;
    }
    probed.set(text, ok);
  }
  return ok;
}

function propertyEscape(name: string, negated: boolean): string {
  const p = negated ? "P" : "p";
  let n = name.trim();
  let neg = false;
  if (n.startsWith("^")) {
    neg = true;
    n = n.slice(1);
  }
  const eq = n.search(/[=:]/);
  let kind = "";
  if (eq >= 0) {
    kind = n.slice(0, eq).replace(/[\s_-]/g, "").toLowerCase();
    n = n.slice(eq + 1);
  }
  const loose = n.replace(/[\s_-]/g, "").toLowerCase();
  const titled = n.trim().split(/[\s_-]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("_");
  const candidates: string[] = [];
  if (kind === "" || kind === "generalcategory" || kind === "gc") {
    if (CATEGORIES[loose]) candidates.push(CATEGORIES[loose]);
  }
  candidates.push(n.trim(), titled, titled.toLowerCase() === "any" ? "Any" : titled);
  const flip = negated !== neg;
  for (const c of candidates) {
    const text = `\\${flip ? "P" : "p"}{${c}}`;
    if (re2Knows(text)) return text;
  }
  throw new RegexTranslationError(`unknown Unicode class \\${p}{${name}}`);
}

function hexEscape(hex: string): string {
  if (!/^[0-9a-fA-F]{1,8}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) {
    throw new RegexTranslationError(`invalid hex escape ${JSON.stringify(hex)}`);
  }
  const cp = parseInt(hex, 16);
  if (cp >= 0xd800 && cp <= 0xdfff) {
    throw new RegexTranslationError(`escape of a surrogate code point ${JSON.stringify(hex)}`);
  }
  return `\\x{${hex}}`;
}

/**
 * Translates a Rust regex into an RE2 pattern. `extraFlags` (`i`, `m`, `s`) apply to the whole
 * pattern. Throws {@link RegexTranslationError} naming the pattern.
 *
 * @example
 * ```ts
 * translateRustRegex("(?P<zone>[a-z]+)\\.ch$").source; // "(?P<zone>[a-z]+)\\.ch$"
 * translateRustRegex("^\\d+$").source; // "^\\p{Nd}+$"
 * ```
 */
export function translateRustRegex(pattern: string, extraFlags = ""): TranslatedRegex {
  try {
    return translate(pattern, extraFlags);
  } catch (e) {
    if (e instanceof RegexTranslationError && e.pattern === undefined) {
      throw new RegexTranslationError(e.message, pattern);
    }
    throw e;
  }
}

function translate(pattern: string, extraFlags: string): TranslatedRegex {
  let global = "";
  for (const f of extraFlags) {
    if (f === "i" || f === "m" || f === "s") {
      if (!global.includes(f)) global += f;
    } else throw new RegexTranslationError(`unsupported flag ${JSON.stringify(f)}`);
  }
  let i = 0;
  /** Verbose mode per open group (top = innermost). */
  const verbose: boolean[] = [false];
  let out = "";
  const isVerbose = () => verbose[verbose.length - 1];

  /** In verbose mode, skips whitespace and `#` comments; returns true when something was skipped. */
  const skipSpace = (): boolean => {
    if (!isVerbose()) return false;
    const from = i;
    for (;;) {
      const c = pattern[i];
      if (c === undefined) break;
      if (/\s/u.test(c)) i++;
      else if (c === "#") {
        const nl = pattern.indexOf("\n", i);
        i = nl < 0 ? pattern.length : nl + 1;
      } else break;
    }
    return i > from;
  };

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
        return SPACE;
      case "S":
        return NOT_SPACE;
      case "w":
        return inClass ? WORD_ITEMS : WORD;
      case "W":
        if (inClass) {
          throw new RegexTranslationError("\\W inside a character class is not supported");
        }
        return NOT_WORD;
      case "b":
      case "B":
      case "A":
      case "z":
        if (inClass) throw new RegexTranslationError(`\\${c} inside a character class`);
        return `\\${c}`;
      case "a":
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
          return hexEscape(hex);
        }
        const len = c === "x" ? 2 : c === "u" ? 4 : 8;
        const hex = pattern.slice(i, i + len);
        if (hex.length !== len) throw new RegexTranslationError(`incomplete \\${c} escape`);
        i += len;
        return hexEscape(hex);
      }
      default:
        if (/[0-9]/.test(c)) {
          throw new RegexTranslationError("back-references are not supported (Rust regex)");
        }
        if (/[A-Za-z]/.test(c)) throw new RegexTranslationError(`unknown escape \\${c}`);
        if (/[!-/:-@[-`{-~]/.test(c)) return `\\${c}`; // escaped ASCII punctuation: literal
        if (c === " " || c === "\t" || c === "\n") return hexEscape(c.charCodeAt(0).toString(16));
        throw new RegexTranslationError(`unknown escape \\${c}`);
    }
  };

  const parseClass = (): string => {
    // pattern[i] === "["
    let res = "[";
    i++;
    skipSpace();
    if (pattern[i] === "^") {
      res += "^";
      i++;
    }
    let first = true;
    for (;;) {
      skipSpace();
      const c = pattern[i];
      if (c === undefined) throw new RegexTranslationError("unclosed character class");
      if (c === "]" && !first) {
        i++;
        return `${res}]`;
      }
      first = false;
      if (c === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i, i + 16));
        if (posix) {
          res += posix[0]; // same ASCII classes in RE2, negated ones included
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
      res += c === "]" ? "\\]" : c;
      i++;
    }
  };

  while (i < pattern.length) {
    if (skipSpace()) continue;
    const c = pattern[i];
    if (c === "\\") {
      out += escape(false);
    } else if (c === "[") {
      out += parseClass();
    } else if (c === "|") {
      out += "|";
      i++;
    } else if (c === ")") {
      if (verbose.length === 1) throw new RegexTranslationError("unopened group");
      verbose.pop();
      out += ")";
      i++;
    } else if (c === "(") {
      const rest = pattern.slice(i, i + 64);
      let m: RegExpExecArray | null;
      if ((m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest))) {
        out += `(?P<${m[1]}>`;
        verbose.push(isVerbose());
        i += m[0].length;
      } else if (/^\(\?(=|!|<=|<!)/.test(rest)) {
        throw new RegexTranslationError("look-around is not supported (Rust regex)");
      } else if ((m = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest))) {
        let x = isVerbose();
        let on = "";
        let off = "";
        for (const [list, value] of [[m[1], true], [m[2] ?? "", false]] as const) {
          for (const f of list) {
            if (f === "x") x = value;
            else if (f === "u" && value) continue;
            else if ("imsU".includes(f)) {
              if (value) on += f;
              else off += f;
            } else {
              throw new RegexTranslationError(`unsupported inline flag ${value ? "" : "-"}${f}`);
            }
          }
        }
        const mods = off ? `${on}-${off}` : on;
        i += m[0].length;
        if (m[3] === ":") {
          out += mods ? `(?${mods}:` : "(?:";
          verbose.push(x);
        } else {
          // `(?i)` mid-pattern: applies until the end of the enclosing group (RE2 and Rust).
          if (mods) out += `(?${mods})`;
          verbose[verbose.length - 1] = x;
        }
      } else if (rest.startsWith("(?")) {
        throw new RegexTranslationError(
          `unsupported group syntax ${JSON.stringify(rest.slice(0, 4))}`,
        );
      } else {
        out += "(";
        verbose.push(isVerbose());
        i++;
      }
    } else {
      const cp = pattern.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += ch;
      i += ch.length;
    }
  }
  if (verbose.length !== 1) throw new RegexTranslationError("unclosed group");
  return { source: global ? `(?${global})${out}` : out, flags: global };
}
