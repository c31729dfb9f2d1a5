/**
 * Conversion of forced values to text the way Jsonnet's `"" + v` and `std.toString` do: numbers
 * in the engine's number form, strings unchanged at the top level, arrays and objects in the
 * single-line JSON form (`[1, {"a": [ ]}]`).
 *
 * @module
 */
import type { JsonValue } from "../json_value.ts";
import { formatNumber as engineFormatNumber } from "../strings.ts";
import { escapeStringJson } from "./escape.ts";
import { isObject, sortedKeys } from "./values.ts";

/**
 * Renders a number as Jsonnet does: integral values as exact decimal integers (`1e21` ->
 * `1000000000000000000000`), other values in the engine's shortest round-trip form. Shared with
 * the evaluator's manifestation (lib/jsonnet/strings.ts) so both print numbers identically.
 */
export function formatNumber(n: number): string {
  return engineFormatNumber(n);
}

/** Single-line JSON form used when arrays/objects are converted to strings. */
function inline(v: JsonValue): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "string") return escapeStringJson(v);
  if (Array.isArray(v)) return v.length === 0 ? "[ ]" : `[${v.map(inline).join(", ")}]`;
  if (isObject(v)) {
    const keys = sortedKeys(v);
    if (keys.length === 0) return "{ }";
    return `{${keys.map((k) => `${escapeStringJson(k)}: ${inline(v[k])}`).join(", ")}}`;
  }
  throw new TypeError("not a JSON value");
}

/** `std.toString(v)`: strings unchanged, everything else in its inline text form. */
export function toStringValue(v: JsonValue): string {
  return typeof v === "string" ? v : inline(v);
}
