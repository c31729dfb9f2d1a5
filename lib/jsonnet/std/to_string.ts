/**
 * Conversion of forced values to text the way Jsonnet's `"" + v` and `std.toString` do: numbers
 * in the engine's number form, strings unchanged at the top level, arrays and objects in the
 * single-line JSON form (`[1, {"a": [ ]}]`).
 *
 * @module
 */
import type { JsonValue } from "../json_value.ts";
import { escapeStringJson } from "./escape.ts";
import { isObject, sortedKeys } from "./values.ts";

/**
 * Renders a number as Jsonnet does: integral values as exact decimal integers (`1e21` ->
 * `1000000000000000000000`), other values with the shortest round-trip digits laid out like C's
 * `%g` (`0.1`, `1.5e-05`).
 */
export function formatNumber(n: number): string {
  if (Number.isInteger(n)) {
    if (Object.is(n, -0)) return "-0";
    return Math.abs(n) < 1e21 ? n.toFixed(0) : BigInt(n).toString();
  }
  if (!Number.isFinite(n)) return String(n);
  const e = n.toExponential(); // shortest round-trip digits, e.g. "-1.5e-7"
  const at = e.indexOf("e");
  const exp = Number(e.slice(at + 1));
  let mant = e.slice(0, at);
  const neg = mant.startsWith("-");
  if (neg) mant = mant.slice(1);
  const digits = mant.replace(".", "");
  if (exp < -4) {
    const abs = Math.abs(exp);
    return `${neg ? "-" : ""}${mant}e${exp < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`;
  }
  let out: string;
  if (exp < 0) out = "0." + "0".repeat(-exp - 1) + digits;
  else if (digits.length <= exp + 1) out = digits + "0".repeat(exp + 1 - digits.length);
  else out = digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  return (neg ? "-" : "") + out;
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
