/**
 * Value helpers shared by the extensions: argument validation, Tera-compatible printing and the
 * compact JSON serialisation used by `sha256`, `base64_encode` and `hmac_sha256` (T29, T30).
 *
 * @module
 */

import { ExtensionError } from "./errors.ts";

/**
 * Converts an engine value (possibly lazy) into plain JSON data.
 *
 * @example
 * ```ts
 * const toJson: ToJson = (v) => v;
 * ```
 */
export type ToJson = (value: unknown) => unknown;

/**
 * Default {@link ToJson}: deep copy of plain data. Objects with a `toJSON` method are asked
 * first (lets lazy resource views serialise themselves); `undefined` becomes `null`.
 */
export function defaultToJson(value: unknown): unknown {
  return plain(value, 0);
}

function plain(value: unknown, depth: number): unknown {
  if (depth > 256) throw new ExtensionError("json", "value is nested too deeply (cycle?)");
  if (value === undefined || value === null) return null;
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "object") return value;
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") return plain(withToJson.toJSON(), depth + 1);
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = plain(v, depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = plain(v, depth + 1);
  return out;
}

/** Code-point order, i.e. the byte order of UTF-8 (serde_json's BTreeMap key order). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/**
 * Compact JSON exactly as Tera's `json_encode` writes it (serde_json): no spaces, object keys in
 * code-point order, non-ASCII characters unescaped.
 *
 * @example
 * ```ts
 * compactJson({ b: 1, a: ["é"] }); // '{"a":["é"],"b":1}'
 * ```
 */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "object": {
      if (Array.isArray(value)) return `[${value.map(compactJson).join(",")}]`;
      const keys = Object.keys(value).sort(compareCodePoints);
      const obj = value as Record<string, unknown>;
      return `{${keys.map((k) => `${JSON.stringify(k)}:${compactJson(obj[k])}`).join(",")}}`;
    }
    default:
      return "null";
  }
}

/**
 * The text a value prints as in `{{ }}` (T9): strings verbatim, numbers/booleans as JSON, null
 * empty, arrays `[a, b]`, objects `[object]`.
 */
export function printValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(printValue).join(", ")}]`;
  return "[object]";
}

/** Text form used by the hashing/encoding filters: strings as-is, everything else compact JSON. */
export function textOrJson(value: unknown, toJson: ToJson): string {
  return typeof value === "string" ? value : compactJson(toJson(value));
}

/** Reads a required string argument. */
export function requireString(
  ext: string,
  args: Record<string, unknown>,
  name: string,
): string {
  const v = args[name];
  if (v === undefined || v === null) {
    throw new ExtensionError(ext, `missing required argument \`${name}\``, name);
  }
  if (typeof v !== "string") {
    throw new ExtensionError(ext, `expected a string, got ${describe(v)}`, name);
  }
  return v;
}

/** Reads an optional string argument. */
export function optionalString(
  ext: string,
  args: Record<string, unknown>,
  name: string,
): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") {
    throw new ExtensionError(ext, `expected a string, got ${describe(v)}`, name);
  }
  return v;
}

/**
 * Reads a required integer argument. Integer-valued numbers and decimal integer strings (CSV
 * properties are strings) are accepted.
 */
export function requireInt(ext: string, args: Record<string, unknown>, name: string): number {
  const v = args[name];
  if (v === undefined || v === null) {
    throw new ExtensionError(ext, `missing required argument \`${name}\``, name);
  }
  return toInt(ext, v, name);
}

/** Converts a number or decimal string to a safe integer or throws. */
export function toInt(ext: string, v: unknown, name: string): number {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) {
    const n = Number(v.trim());
    if (Number.isSafeInteger(n)) return n;
  }
  throw new ExtensionError(ext, `expected an integer, got ${describe(v)}`, name);
}

/** Reads a required array argument. */
export function requireArray(
  ext: string,
  args: Record<string, unknown>,
  name: string,
): unknown[] {
  const v = args[name];
  if (v === undefined || v === null) {
    throw new ExtensionError(ext, `missing required argument \`${name}\``, name);
  }
  if (!Array.isArray(v)) {
    throw new ExtensionError(ext, `expected an array, got ${describe(v)}`, name);
  }
  return v;
}

/** Short description of a value for error messages: type plus a truncated rendering. */
export function describe(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  const type = Array.isArray(v) ? "array" : typeof v === "object" ? "object" : typeof v;
  let shown: string;
  try {
    shown = typeof v === "string" ? JSON.stringify(v) : compactJson(defaultToJson(v));
  } catch {
    shown = "…";
  }
  if (shown.length > 60) shown = `${shown.slice(0, 57)}...`;
  return `${type} ${shown}`;
}

/** True for a non-null, non-array object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
