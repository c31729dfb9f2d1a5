/**
 * Linear-time replacements for JMESPath built-ins whose library implementations are not:
 * `trim_right` (and so `trim`) runs an unanchored lazy regular expression that is quadratic in
 * the subject's length, and `replace(…, count)` allocates an array of `count` items before doing
 * anything. A query is user input (header `jmespath`, the `jmespath` filter, generator filters),
 * so both are denial-of-service vectors. The replacements give exactly the library's results.
 *
 * @module
 */
import { registerFunction, TYPE_NUMBER, TYPE_STRING } from "@jmespath-community/jmespath";

/** Characters of JavaScript's `\s` plus U+0085: the library's default trim set. */
const DEFAULT_TRIM = new Set(
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
    "\u2028\u2029\u202f\u205f\u3000\ufeff\u0085",
);

/** Most characters a counted `replace` may scan in total (each round scans the subject). */
export const MAX_REPLACE_WORK = 64 * 1024 * 1024;

function trimSet(chars: unknown): Set<string> {
  // The library builds a regex character class from the code units of `chars` (no `u` flag).
  return typeof chars === "string" && chars !== "" ? new Set(chars.split("")) : DEFAULT_TRIM;
}

/**
 * Removes leading characters of `set` (code units).
 *
 * @example
 * ```ts
 * import { trimLeft } from "./jmespath_linear.ts";
 * trimLeft("xxab", "x"); // "ab"
 * ```
 */
export function trimLeft(subject: string, chars?: string): string {
  const set = trimSet(chars);
  let i = 0;
  while (i < subject.length && set.has(subject[i])) i++;
  return subject.slice(i);
}

/**
 * Removes trailing characters of `set` (code units).
 *
 * @example
 * ```ts
 * import { trimRight } from "./jmespath_linear.ts";
 * trimRight("abxx", "x"); // "ab"
 * ```
 */
export function trimRight(subject: string, chars?: string): string {
  const set = trimSet(chars);
  let end = subject.length;
  while (end > 0 && set.has(subject[end - 1])) end--;
  return subject.slice(0, end);
}

/**
 * The library's `replace(subject, old, new, count?)`: without count every occurrence; with count
 * the first occurrence, `count` times over (so replacements can create new occurrences). Stops
 * as soon as nothing changes; scanning more than {@link MAX_REPLACE_WORK} characters in total is
 * an error (a replacement that keeps re-creating its pattern would otherwise run for hours).
 */
export function replaceCounted(
  subject: string,
  search: string,
  by: string,
  count?: number | null,
): string {
  if (count === 0) return subject;
  if (count === undefined || count === null) return subject.split(search).join(by);
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(`invalid value, expected a non-negative integer, got ${count}`);
  }
  let work = 0;
  for (let i = 0; i < count; i++) {
    work += subject.length + 1;
    if (work > MAX_REPLACE_WORK) {
      throw new Error(`replace() exceeded its budget of ${MAX_REPLACE_WORK} characters scanned`);
    }
    const next = subject.replace(search, by);
    if (next === subject) break;
    subject = next;
  }
  return subject;
}

const STRING = { types: [TYPE_STRING] };
const OPTIONAL_STRING = { types: [TYPE_STRING], optional: true };
const override = { override: true };
registerFunction(
  "trim",
  ([s, chars]) => trimLeft(trimRight(s as string, chars as string), chars as string),
  [STRING, OPTIONAL_STRING],
  override,
);
registerFunction(
  "trim_left",
  ([s, chars]) => trimLeft(s as string, chars as string),
  [STRING, OPTIONAL_STRING],
  override,
);
registerFunction(
  "trim_right",
  ([s, chars]) => trimRight(s as string, chars as string),
  [STRING, OPTIONAL_STRING],
  override,
);
registerFunction(
  "replace",
  ([s, search, by, count]) =>
    replaceCounted(s as string, search as string, by as string, count as number | undefined),
  [STRING, STRING, STRING, { types: [TYPE_NUMBER], optional: true }],
  override,
);
