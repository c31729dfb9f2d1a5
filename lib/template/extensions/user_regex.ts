/**
 * The one compiled form of every user-supplied regular expression (Tera `is matching`, the
 * `regexp` filter, rule conditions, GraphQL filters): Rust `regex` syntax translated by
 * {@link translateRustRegex} and run by RE2 (`re2js`), so matching takes time linear in the input
 * whatever the pattern (no catastrophic backtracking). Compiled patterns are cached.
 *
 * @module
 */

import { RE2JS, RE2JSException } from "re2js";
import { RegexTranslationError, translateRustRegex } from "./rust_regex.ts";

export { RegexTranslationError };

/**
 * One match: offsets in UTF-16 code units and the groups.
 *
 * @example
 * ```ts
 * const m = compileUserRegex("(?P<y>\\d+)-(\\d+)").first("on 2024-05")!;
 * [m.start, m.end, m.group("y"), m.group(2)]; // [3, 10, "2024", "05"]
 * ```
 */
export interface RegexMatch {
  /** Offset of the first code unit of the match. */
  readonly start: number;
  /** Offset just after the match. */
  readonly end: number;
  /** The matched text. */
  readonly text: string;
  /** A group by number (0 = whole match) or name; `undefined` when it did not participate. */
  group(ref: number | string): string | undefined;
}

/**
 * A compiled user regex (Rust syntax, linear-time engine).
 *
 * @example
 * ```ts
 * const re = compileUserRegex("(?i)^web-\\d+$");
 * re.test("WEB-١٢"); // true: Rust's \d is Unicode-aware
 * ```
 */
export class UserRegex {
  readonly #re: RE2JS;
  readonly #names: Record<string, number>;
  readonly #groups: number;

  /** @internal Use {@link compileUserRegex}. */
  constructor(
    /** The pattern as the user wrote it. */
    readonly pattern: string,
    /** Extra global flags (`i`, `m`, `s`). */
    readonly flags: string,
    /** The translated RE2 source. */
    readonly source: string,
    re: RE2JS,
  ) {
    this.#re = re;
    this.#names = re.namedGroups();
    this.#groups = re.groupCount();
  }

  /** True when the pattern matches somewhere in `input` (unanchored search). */
  test(input: string): boolean {
    return this.#re.test(input);
  }

  /** The leftmost-first match, or `undefined`. */
  first(input: string): RegexMatch | undefined {
    for (const m of this.matches(input)) return m;
    return undefined;
  }

  /**
   * Successive non-overlapping matches, like Rust's `find_iter`: an empty match right where the
   * previous match ended is skipped, and the search then moves on by one code point.
   */
  *matches(input: string): Generator<RegexMatch> {
    const m = this.#re.matcher(input);
    const names = this.#names;
    const groups = this.#groups;
    let pos = 0;
    let lastEnd = -1;
    while (pos <= input.length && m.find(pos)) {
      const start = m.start();
      const end = m.end();
      if (start === end && start === lastEnd) {
        pos = nextCodePoint(input, start);
        continue;
      }
      const values: (string | undefined)[] = [];
      for (let g = 0; g <= groups; g++) values.push(m.group(g) ?? undefined);
      yield {
        start,
        end,
        text: values[0]!,
        group: (ref) => {
          const n = typeof ref === "number" ? ref : names[ref];
          return n === undefined ? undefined : values[n];
        },
      };
      lastEnd = end;
      pos = end;
    }
  }

  /**
   * Replaces the first match (or every match with `all`) by what `replacer` returns.
   *
   * @example
   * ```ts
   * compileUserRegex("a").replace("banana", () => "o", true); // "bonono"
   * ```
   */
  replace(input: string, replacer: (m: RegexMatch) => string, all: boolean): string {
    let out = "";
    let last = 0;
    for (const m of this.matches(input)) {
      out += input.slice(last, m.start) + replacer(m);
      last = m.end;
      if (!all) break;
    }
    return out + input.slice(last);
  }
}

function nextCodePoint(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return i + 2;
  }
  return i + 1;
}

const CACHE_SIZE = 1024;
const cache = new Map<string, UserRegex>();

/**
 * Compiles a user regex written in Rust `regex` syntax (cached, least recently used first out).
 * `flags` may hold `i`, `m`, `s` for the whole pattern. Throws {@link RegexTranslationError}
 * naming the pattern when it is invalid or uses a construct the linear-time engine lacks.
 *
 * @example
 * ```ts
 * compileUserRegex("^(.|.)*Z$").test("a".repeat(100_000)); // false, in linear time
 * ```
 */
export function compileUserRegex(pattern: string, flags = ""): UserRegex {
  const key = `${flags}\u0000${pattern}`;
  let re = cache.get(key);
  if (re !== undefined) {
    cache.delete(key);
    cache.set(key, re);
    return re;
  }
  const t = translateRustRegex(pattern, flags);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(t.source);
  } catch (e) {
    if (e instanceof RE2JSException) {
      throw new RegexTranslationError(
        (e as RE2JSException & { getDescription(): string }).getDescription?.() ?? e.message,
        pattern,
      );
    }
    throw e;
  }
  re = new UserRegex(pattern, flags, t.source, compiled);
  cache.set(key, re);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return re;
}

/**
 * Former name of {@link compileUserRegex}, kept for callers of the extensions module.
 *
 * @example
 * ```ts
 * compileRustRegex("^\\d+$").test("١٢٣"); // true
 * ```
 */
export function compileRustRegex(pattern: string, extraFlags = ""): UserRegex {
  return compileUserRegex(pattern, extraFlags);
}
