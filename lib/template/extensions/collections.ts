/**
 * Collection filters of the original: `jmespath(query=)` (T26, T33), `select(from=, match=)`
 * (T27) and `intersect(with=)` (T28).
 *
 * JMESPath is evaluated by @jmespath-community/jmespath. It implements the community
 * specification, a superset of jmespath.org's: every query valid on jmespath.org gives the same
 * result, with these differences on queries that jmespath.org rejects or treats specially:
 * arithmetic operators (`a - b` is a subtraction, so an unquoted `foo-bar` is not a syntax error
 * but a subtraction), `$` (root) and `let` variables, extra functions (`items`, `from_items`,
 * `zip`, `group_by`, `find_first`, `lower`, `upper`, `pad_left`, `replace`, `split`, `trim`, …).
 * Real modules only use the standard subset (`length(@) > \`1\``,
 * `values(@)[?city == 'Zurich'] | [0]`, `["Amazon Web Services"]`).
 *
 * @module
 */

import { search } from "@jmespath-community/jmespath";
import "./jmespath_linear.ts";
import { ExtensionError } from "./errors.ts";
import {
  compactJson,
  describe,
  isObject,
  printValue,
  requireString,
  type ToJson,
} from "./values.ts";

type Json = Parameters<typeof search>[0];

/**
 * Runs a JMESPath query; errors become {@link ExtensionError}s of `ext` (usable for header
 * `jmespath` pre-filters, generator `jmespath!` filters and `cursor_jmespath`).
 *
 * @example
 * ```ts
 * runJmespath("jmespath", [1, 2], "length(@)"); // 2
 * ```
 */
export function runJmespath(ext: string, data: unknown, query: string): unknown {
  try {
    return search(data as Json, query);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new ExtensionError(
      ext,
      `JMESPath query ${JSON.stringify(query)} failed: ${msg}`,
      "query",
      {
        cause: e,
      },
    );
  }
}

/** Filter `jmespath(query=Q)`; a string input that parses as JSON is parsed first. */
export function jmespathFilter(
  value: unknown,
  args: Record<string, unknown>,
  toJson: ToJson,
): unknown {
  const query = requireString("jmespath", args, "query");
  let data: unknown = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch {
      data = value;
    }
  } else {
    data = toJson(value);
  }
  return runJmespath("jmespath", data, query);
}

/**
 * Filter `select(from=F, match="k=v")`: the `F` values of the objects whose property `k` prints
 * as `v` (T9 printing, so `port=53` matches the number 53). Objects without `F` and non-object
 * elements are skipped.
 */
export function selectFilter(
  value: unknown,
  args: Record<string, unknown>,
  toJson: ToJson,
): unknown[] {
  const ext = "select";
  const from = requireString(ext, args, "from");
  const match = requireString(ext, args, "match");
  const eq = match.indexOf("=");
  if (eq <= 0) {
    throw new ExtensionError(ext, `expected "key=value", got ${JSON.stringify(match)}`, "match");
  }
  const key = match.slice(0, eq);
  const wanted = match.slice(eq + 1);
  const list = toJson(value);
  if (!Array.isArray(list)) {
    throw new ExtensionError(ext, `expected an array, got ${describe(list)}`, "value");
  }
  const out: unknown[] = [];
  for (const item of list) {
    if (!isObject(item) || !(key in item) || !(from in item)) continue;
    if (printValue(item[key]) === wanted) out.push(item[from]);
  }
  return out;
}

/**
 * Filter `intersect(with=[…])`: the input elements (input order, first occurrence only) that are
 * equal (as JSON) to an element of `with`.
 */
export function intersectFilter(
  value: unknown,
  args: Record<string, unknown>,
  toJson: ToJson,
): unknown[] {
  const ext = "intersect";
  if (args.with === undefined || args.with === null) {
    throw new ExtensionError(ext, "missing required argument `with`", "with");
  }
  const other = toJson(args.with);
  if (!Array.isArray(other)) {
    throw new ExtensionError(ext, `expected an array, got ${describe(other)}`, "with");
  }
  const list = toJson(value);
  if (!Array.isArray(list)) {
    throw new ExtensionError(ext, `expected an array, got ${describe(list)}`, "value");
  }
  const allowed = new Set(other.map(compactJson));
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of list) {
    const k = compactJson(item);
    if (allowed.has(k) && !seen.has(k)) {
      seen.add(k);
      out.push(item);
    }
  }
  return out;
}
