/**
 * The `filter: JSON` argument of root fields (reference graphql.md G8): every entry must hold;
 * an entry is either an exact match (models.md M73 equality) or an operator object.
 *
 * @module
 */

import { compareStrings, type JsonValue, type Resource } from "../../graph/graph.ts";
import { FilterError } from "./errors.ts";
import {
  compileUserRegex,
  RegexTranslationError,
  type UserRegex,
} from "../../template/extensions/user_regex.ts";

/** Operators accepted in the operator form of a filter entry. */
export const FILTER_OPERATORS: readonly string[] = [
  "eq",
  "ne",
  "contains",
  "in",
  "exists",
  "gt",
  "lt",
  "regex",
];

type Test = (value: JsonValue | undefined) => boolean;

/** A compiled filter: true when the resource satisfies every entry. */
export type ResourcePredicate = (resource: Resource) => boolean;

/**
 * Compiles a filter argument into a predicate. Throws {@link FilterError} for a filter that is
 * not an object, an unknown operator, or an operand of the wrong shape.
 *
 * @example
 * ```ts
 * const keep = compileFilter({ env: "prod", port: { gt: 80 } });
 * ```
 */
export function compileFilter(filter: unknown): ResourcePredicate {
  if (filter === null || filter === undefined) return () => true;
  if (!isPlainObject(filter)) throw new FilterError("expected an object of property conditions");
  const tests: { key: string; test: Test }[] = [];
  for (const key of Object.keys(filter)) {
    const condition = filter[key] as JsonValue;
    if (isPlainObject(condition)) {
      for (const op of Object.keys(condition)) {
        tests.push({ key, test: compileOperator(key, op, condition[op] as JsonValue) });
      }
    } else {
      tests.push({ key, test: (value) => matches(value, condition) });
    }
  }
  return (resource) => {
    for (const { key, test } of tests) {
      const value = key === "name" ? resource.name : resource.properties[key];
      if (!test(value)) return false;
    }
    return true;
  };
}

/**
 * The only resource names a filter can match, when its top level restricts `name` to a few exact
 * strings: through `name: <value>`, `name: { eq: <value> }` or `name: { in: [...] }` (several
 * such conditions: the smallest set). `undefined` when no condition restricts it that way, e.g.
 * an operand that is a number or a numeric-looking string (M73 compares those numerically, so
 * `"42"`, `"42.0"` and `"4.2e1"` all match: no finite list of names). The names are distinct and
 * ordered by code unit (the order of a type's resources in a root field).
 *
 * Every resource the filter accepts has its `name` in the list, so looking these names up in the
 * graph's name index and applying {@link compileFilter}'s predicate to the hits gives exactly
 * the resources a scan would keep. Call it only on a filter that {@link compileFilter} accepted.
 *
 * @example
 * ```ts
 * console.log(candidateNames({ name: { in: ["b", "a", "b"] }, env: "prod" })); // ["a", "b"]
 * console.log(candidateNames({ name: { eq: "42" } })); // undefined
 * ```
 */
export function candidateNames(filter: unknown): string[] | undefined {
  if (!isPlainObject(filter) || !Object.hasOwn(filter, "name")) return undefined;
  const condition = filter.name as JsonValue;
  let best: Set<string> | undefined;
  const consider = (names: Set<string> | undefined) => {
    if (names !== undefined && (best === undefined || names.size < best.size)) best = names;
  };
  if (isPlainObject(condition)) {
    for (const op of Object.keys(condition)) {
      const operand = condition[op] as JsonValue;
      if (op === "eq") consider(namesEqualTo(operand, new Set()));
      else if (op === "in" && Array.isArray(operand)) {
        let names: Set<string> | undefined = new Set();
        for (const option of operand) {
          names = namesEqualTo(option, names);
          if (names === undefined) break;
        }
        consider(names);
      }
    }
  } else {
    consider(namesEqualTo(condition, new Set()));
  }
  return best === undefined ? undefined : [...best].sort(compareStrings);
}

/**
 * Adds to `into` every string `s` with `matches(s, expected)` (a resource name is always a
 * string): `expected` itself for a non-numeric string; `true`/`True` or `false`/`False` for a
 * boolean; none for null, an object or an array (M73 never equates them with a string).
 * `undefined` for a number or numeric-looking string, which numerically equal names match.
 */
function namesEqualTo(expected: JsonValue, into: Set<string>): Set<string> | undefined {
  if (expected === null || typeof expected === "object") return into;
  if (typeof expected === "boolean") {
    return into.add(expected ? "True" : "False").add(expected ? "true" : "false");
  }
  if (typeof expected === "number" || toNumber(expected) !== undefined) return undefined;
  return into.add(expected);
}

function compileOperator(key: string, op: string, operand: JsonValue): Test {
  switch (op) {
    case "eq":
      return (value) => matches(value, operand);
    case "ne":
      return (value) => !matches(value, operand);
    case "contains":
      if (operand === null || typeof operand === "object") {
        throw new FilterError("'contains' expects a string, number or boolean", key);
      }
      return (value) => {
        if (typeof value === "string") return value.includes(String(operand));
        if (Array.isArray(value)) return value.some((e) => scalarEquals(e, operand));
        return false;
      };
    case "in": {
      if (!Array.isArray(operand)) throw new FilterError("'in' expects an array", key);
      const options = operand;
      return (value) => options.some((o) => matches(value, o));
    }
    case "exists":
      if (typeof operand !== "boolean") throw new FilterError("'exists' expects a boolean", key);
      return (value) => (value !== undefined && value !== null) === operand;
    case "gt":
    case "lt": {
      const bound = toNumber(operand);
      if (bound === undefined) throw new FilterError(`'${op}' expects a number`, key);
      return op === "gt"
        ? (value) => {
          const n = toNumber(value);
          return n !== undefined && n > bound;
        }
        : (value) => {
          const n = toNumber(value);
          return n !== undefined && n < bound;
        };
    }
    case "regex": {
      if (typeof operand !== "string") throw new FilterError("'regex' expects a string", key);
      const re = compileRegex(key, operand);
      const test = (v: JsonValue | undefined): boolean =>
        (typeof v === "string" || typeof v === "number" || typeof v === "boolean") &&
        re.test(String(v));
      return (value) => Array.isArray(value) ? value.some(test) : test(value);
    }
    default:
      throw new FilterError(
        `unknown operator '${op}' (expected one of ${FILTER_OPERATORS.join(", ")})`,
        key,
      );
  }
}

/**
 * Compiles a regular expression written for the original (Rust `regex` syntax, e.g. `(?i)` flags,
 * Unicode `\d`) on the linear-time engine; the search is unanchored. An invalid pattern, or one
 * using look-around or back-references, is a {@link FilterError} naming it.
 */
function compileRegex(key: string, source: string): UserRegex {
  try {
    return compileUserRegex(source);
  } catch (e) {
    if (e instanceof RegexTranslationError) throw new FilterError(e.message, key);
    throw e;
  }
}

/**
 * Exact match (M73): an array property matches a scalar when any element equals it; arrays and
 * objects compare structurally; a missing property matches only `null`.
 */
export function matches(value: JsonValue | undefined, expected: JsonValue): boolean {
  if (value === undefined) return expected === null;
  if (Array.isArray(value) && (expected === null || typeof expected !== "object")) {
    return value.some((e) => scalarEquals(e, expected));
  }
  return scalarEquals(value, expected);
}

/**
 * M73 equality of two values: booleans equal `true/false/True/False` strings, numbers compare
 * numerically when both sides parse as numbers, otherwise string equality; structured values
 * compare by their JSON text.
 */
export function scalarEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (typeof a === "object" || typeof b === "object") {
    return typeof a === "object" && typeof b === "object" && canonical(a) === canonical(b);
  }
  if (typeof a === "boolean" || typeof b === "boolean") {
    return boolOf(a) !== undefined && boolOf(a) === boolOf(b);
  }
  const x = toNumber(a);
  if (x !== undefined) {
    const y = toNumber(b);
    if (y !== undefined) return x === y;
  }
  return String(a) === String(b);
}

function boolOf(v: string | number | boolean): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "True") return true;
  if (v === "false" || v === "False") return false;
  return undefined;
}

/** The number a value denotes: a number, or a string holding a finite numeric literal. */
export function toNumber(v: JsonValue | undefined): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  if (t === "" || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Key-sorted JSON text of a value, built with an explicit stack: property values may nest
 * deeper than the call stack allows (JSON inputs are not depth-bounded; issue 16).
 */
function canonical(root: JsonValue): string {
  const parts: string[] = [];
  const todo: ({ text: string } | { value: JsonValue })[] = [{ value: root }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if ("text" in item) {
      parts.push(item.text);
      continue;
    }
    const v = item.value;
    if (v === null || typeof v !== "object") {
      parts.push(JSON.stringify(v));
      continue;
    }
    // pushed in reverse: the stack pops them in document order
    const entries: ({ text: string } | { value: JsonValue })[] = [];
    if (Array.isArray(v)) {
      entries.push({ text: "[" });
      v.forEach((e, i) => entries.push(...(i ? [{ text: "," }] : []), { value: e }));
      entries.push({ text: "]" });
    } else {
      entries.push({ text: "{" });
      Object.keys(v).sort().forEach((k, i) => {
        entries.push({ text: `${i ? "," : ""}${JSON.stringify(k)}:` }, { value: v[k] });
      });
      entries.push({ text: "}" });
    }
    for (let i = entries.length - 1; i >= 0; i--) todo.push(entries[i]);
  }
  return parts.join("");
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
