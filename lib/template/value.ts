/**
 * The value model of the Tera dialect.
 *
 * Template values are plain JS values: `null`, booleans, strings, numbers, arrays and objects
 * (any non-array object is a map; its own enumerable keys are its entries, read lazily).
 * Tera distinguishes integers from floats (`{{ 2.0 | json_encode }}` is `2.0`); a JS number
 * that is an integer is an int, a non-integer is a float, and an integral float is carried as
 * a {@link TeraFloat} box. Callers pass `new TeraFloat(1)` for a TOML/JSON `1.0`.
 * `undefined` (or a missing key) means "not defined".
 * @module
 */

import { shortDecimal } from "./float_text.ts";
import { jsonReady, NOT_READY } from "./json_fast.ts";
/** An integral float (e.g. TOML `1.0`), which Tera keeps distinct from the int `1`. */
export class TeraFloat {
  /** @param value the float value */
  constructor(readonly value: number) {}
  /** The numeric value. */
  valueOf(): number {
    return this.value;
  }
  /** JSON serialisation as a plain number. */
  toJSON(): number {
    return this.value;
  }
}

/** A map-like template object. */
export type TObject = Record<string, unknown>;

/** Wraps a float result, boxing integral values so they stay floats. */
export function mkFloat(x: number): number | TeraFloat {
  return Number.isInteger(x) ? new TeraFloat(x) : x;
}

/** True for ints and floats. */
export function isNumber(v: unknown): v is number | TeraFloat {
  return typeof v === "number" || v instanceof TeraFloat;
}

/**
 * Integral JS numbers outside `i64`/`u64` (below -2^63 or at least 2^64) cannot be Tera ints:
 * serde_json reads such a JSON number as an f64, so they are floats here too.
 */
const INT_MIN = -9223372036854775808;
const INT_END = 18446744073709551616;

/** True for a float (boxed, non-integral, or an integral number outside i64/u64). */
export function isFloat(v: unknown): boolean {
  return v instanceof TeraFloat ||
    (typeof v === "number" && (!Number.isInteger(v) || v < INT_MIN || v >= INT_END));
}

/** True for an int. */
export function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= INT_MIN && v < INT_END;
}

/** Decimal text of an int (the i64 bounds, which JS cannot hold exactly, print as in Rust). */
function intToString(v: number): string {
  if (v === 9223372036854775808) return "9223372036854775807";
  return v === -9223372036854775808 ? "-9223372036854775808" : String(v);
}

/** Numeric value of an int or float. */
export function num(v: number | TeraFloat): number {
  return typeof v === "number" ? v : v.value;
}

/** True for a map (any object that is not an array or a number box). */
export function isObject(v: unknown): v is TObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof TeraFloat);
}

/** Compares strings by Unicode code point (Rust's `String` order). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Own enumerable keys in sorted (BTreeMap) order. */
export function sortedKeys(o: TObject): string[] {
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  return keys.sort(compareCodePoints);
}

/** Reads an own property; `undefined` when absent. Getters run only here. */
export function getOwn(o: unknown, key: string): unknown {
  if (Array.isArray(o)) {
    const idx = parseIndex(key);
    return idx === undefined ? undefined : o[idx];
  }
  if (isObject(o) && Object.prototype.hasOwnProperty.call(o, key)) return o[key];
  return undefined;
}

/** JSON pointer array index rules: no sign, no leading zeros. */
export function parseIndex(key: string): number | undefined {
  if (key.length === 0 || key.length > 15) return undefined;
  if (key[0] === "0" && key.length > 1) return undefined;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(key);
}

function digitsAndExponent(x: number): [string, number] {
  const s = Math.abs(x).toExponential();
  const e = s.indexOf("e");
  const digits = s.slice(0, e).replace(".", "");
  return [digits, Number(s.slice(e + 1)) + 1];
}

/** Rust's `Display` for f64: shortest round-trip digits, never an exponent. */
export function displayF64(x: number): string {
  // JS prints the same shortest digits without an exponent for 1e-6 <= |x| < 1e21.
  const a = x < 0 ? -x : x;
  if (a >= 1e-6 && a < 1e21) return shortDecimal(x) ?? String(x);
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return sign + "0";
  const [d, kk] = digitsAndExponent(x);
  let body: string;
  if (kk <= 0) body = "0." + "0".repeat(-kk) + d;
  else if (kk >= d.length) body = d + "0".repeat(kk - d.length);
  else body = d.slice(0, kk) + "." + d.slice(kk);
  return sign + body;
}

/** The `ryu` format serde_json uses for floats (`1.0`, `0.1`, `1e20`). */
export function ryuF64(x: number): string {
  // Between 1e-5 and 1e16 ryu and JS agree on plain notation; ryu adds `.0` to integers.
  const a = x < 0 ? -x : x;
  if (a >= 1e-5 && a < 1e16) {
    return Number.isInteger(x) ? String(x) + ".0" : shortDecimal(x) ?? String(x);
  }
  if (!Number.isFinite(x)) return "null";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return sign + "0.0";
  const [d, kk] = digitsAndExponent(x);
  const len = d.length;
  let body: string;
  if (kk >= len && kk <= 16) body = d + "0".repeat(kk - len) + ".0";
  else if (kk > 0 && kk <= 16) body = d.slice(0, kk) + "." + d.slice(kk);
  else if (kk > -5 && kk <= 0) body = "0." + "0".repeat(-kk) + d;
  else if (len === 1) body = d + "e" + (kk - 1);
  else body = d[0] + "." + d.slice(1) + "e" + (kk - 1);
  return sign + body;
}

/** serde_json's `Number` display: ints plain, floats in ryu format. */
export function numberToString(v: number | TeraFloat): string {
  return isFloat(v) ? ryuF64(num(v)) : intToString(num(v));
}

/** Key under which a structured value keeps the text it was parsed from (`withSourceText`). */
const SOURCE_TEXT: unique symbol = Symbol("graphsvc.sourceText");

/**
 * Marks an array or object parsed from JSON text so that printing it (`{{ value }}`, `~`,
 * `as_str`, `join`) yields that text again instead of Tera's display (`[a, b]`,
 * `[object]`). Filters, loops, tests and indexing still see the structure. Used for
 * `template!` header output (reference M3): modules write JSON in a block and both
 * query it (`nth`, `jmespath`) and print it into a property that a Jsonnet output parses
 * back (public_dns `provider_roles`). Derived values (`x | concat(…)`) are plain again.
 *
 * @example
 * ```ts
 * import { renderValue, withSourceText } from "./value.ts";
 * const v = withSourceText([{ a: 1 }], '[{"a":1}]');
 * console.log(renderValue(v)); // [{"a":1}]
 * console.log(renderValue([{ a: 1 }])); // [[object]]
 * ```
 */
export function withSourceText<T extends object>(value: T, text: string): T {
  Object.defineProperty(value, SOURCE_TEXT, { value: text, enumerable: false });
  return value;
}

/** How `{{ value }}` prints a value (Tera's `ValueRender`). */
export function renderValue(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  if (typeof v === "object") {
    const source = (v as { [SOURCE_TEXT]?: string })[SOURCE_TEXT];
    if (source !== undefined) return source;
  }
  if (typeof v === "number") return isInt(v) ? intToString(v) : displayF64(v);
  if (v instanceof TeraFloat) return displayF64(v.value);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) {
    let s = "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ", ";
      s += renderValue(v[i]);
    }
    return s + "]";
  }
  return "[object]";
}

/** Tera's truthiness. */
export function isTruthy(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (v instanceof TeraFloat) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return sortedKeys(v).length > 0;
  return false;
}

/** serde_json `Value` equality: ints and floats are never equal to each other. */
export function strictEquals(a: unknown, b: unknown): boolean {
  if (a === b) return !(a === undefined);
  if (isNumber(a) && isNumber(b)) return isFloat(a) === isFloat(b) && num(a) === num(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!strictEquals(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    const ka = sortedKeys(a);
    const kb = sortedKeys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i] || !strictEquals(a[ka[i]], b[kb[i]])) return false;
    }
    return true;
  }
  return false;
}

/** The type name used in messages. */
export function typeName(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "boolean") return "bool";
  if (isNumber(v)) return isFloat(v) ? "float" : "int";
  if (typeof v === "string") return "string";
  if (Array.isArray(v)) return "array";
  return "object";
}

const MAX_JSON_DEPTH = 256;

/** serde_json serialisation (sorted keys; `pretty` = two-space indentation). */
export function toJson(v: unknown, pretty = false): string {
  if (pretty) return writeJson(v, "\n", 0);
  const ready = jsonReady(v);
  if (ready === NOT_READY) return writeCompact(v, 0);
  return ready === undefined ? "null" : JSON.stringify(ready);
}

/** Quoted JSON keys already seen (keys repeat across the objects of an array). */
const quotedKeys = new Map<string, string>();

function quoteKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 4096) quotedKeys.set(k, q);
  }
  return q;
}

/** Own keys in code point order, skipping undefined values; no sort when already ordered. */
function orderedKeys(o: TObject): string[] {
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    if (compareCodePoints(keys[i - 1], keys[i]) > 0) return sortedKeys(o);
  }
  for (const k of keys) if (o[k] === undefined) return keys.filter((k) => o[k] !== undefined);
  return keys;
}

/**
 * `toJson` without indentation by the general writer (one string built left to right): used
 * when `jsonReady` declines, and as the reference of its tests.
 */
export function writeCompact(v: unknown, depth: number): string {
  if (depth > MAX_JSON_DEPTH) throw new RangeError("value nested too deeply to serialise");
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return isInt(v) ? intToString(v) : ryuF64(v);
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof TeraFloat) return ryuF64(v.value);
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += ",";
      out += writeCompact(v[i], depth + 1);
    }
    return out + "]";
  }
  const o = v as TObject;
  const keys = orderedKeys(o);
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ",";
    out += quoteKey(keys[i]) + ":" + writeCompact(o[keys[i]], depth + 1);
  }
  return out + "}";
}

function writeJson(v: unknown, nl: string, depth: number): string {
  if (depth > MAX_JSON_DEPTH) throw new RangeError("value nested too deeply to serialise");
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (isNumber(v)) {
    if (isFloat(v)) return ryuF64(num(v));
    return intToString(v as number);
  }
  const inner = nl === "" ? "" : nl + "  ".repeat(depth + 1);
  const close = nl === "" ? "" : nl + "  ".repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    const parts = v.map((x) => writeJson(x, nl, depth + 1));
    return "[" + inner + parts.join("," + inner) + close + "]";
  }
  const o = v as TObject;
  const keys = sortedKeys(o);
  if (keys.length === 0) return "{}";
  const sep = nl === "" ? ":" : ": ";
  const parts = keys.map((k) => JSON.stringify(k) + sep + writeJson(o[k], nl, depth + 1));
  return "{" + inner + parts.join("," + inner) + close + "}";
}

/** Serialises for messages (like serde_json's `Display` of a Value). */
export function describe(v: unknown): string {
  try {
    return v === undefined ? "undefined" : toJson(v);
  } catch {
    return typeName(v);
  }
}

/** Rust's `char::is_whitespace` (Unicode White_Space). */
export function isRustWhitespace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000;
}

/** Rust `str::trim_start`. */
export function trimStart(s: string): string {
  let i = 0;
  while (i < s.length && isRustWhitespace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

/** Rust `str::trim_end`. */
export function trimEnd(s: string): string {
  let j = s.length;
  while (j > 0 && isRustWhitespace(s.charCodeAt(j - 1))) j--;
  return j === s.length ? s : s.slice(0, j);
}

/** Rust `str::trim`. */
export function trim(s: string): string {
  return trimEnd(trimStart(s));
}

/**
 * Parses JSON keeping the int/float distinction: numbers written with a fraction or an
 * exponent become floats ({@link TeraFloat} when integral), as serde_json does.
 */
export function parseJsonPreservingFloats(text: string): unknown {
  return JSON.parse(
    text,
    function (this: unknown, _key, value, context?: { source?: string }) {
      if (typeof value === "number" && context?.source && /[.eE]/.test(context.source)) {
        return mkFloat(value);
      }
      return value;
    } as (this: unknown, key: string, value: unknown) => unknown,
  );
}
