/**
 * Array, object, number and general filters of Tera (`sort`, `group_by`, `length`,
 * `json_encode`, `round`, `filesizeformat`...).
 * @module
 */

import { parseShortDecimal } from "../float_text.ts";
import { pointer } from "../runtime.ts";
import {
  compareCodePoints,
  describe,
  getOwn,
  isFloat,
  isNumber,
  isObject,
  mkFloat,
  num,
  renderValue,
  sortedKeys,
  strictEquals,
  toJson,
  trim,
} from "../value.ts";
import { argBool, argF64, argInt, argStr, arrValue, type FilterTable } from "./args.ts";

/** Tera's `get_json_pointer` for filter attributes (`a.b` or `a."b.c"`). */
export function attributeKeys(attr: string): string[] {
  if (attr === "") return [];
  if (attr.includes('"')) {
    return (attr.match(/"[^"]*"|[^.]+/g) ?? []).map((s) => s.replace(/^"+|"+$/g, ""));
  }
  return attr.split(".");
}

function attrOf(filter: string, a: Record<string, unknown>, required: boolean): string[] {
  if (a.attribute === undefined) {
    if (required) throw new Error(`The \`${filter}\` filter has to have an \`attribute\` argument`);
    return [];
  }
  return attributeKeys(argStr(filter, "attribute", a.attribute));
}

function sortKind(v: unknown): string {
  if (v === null) throw new Error("Null is not a sortable value");
  if (typeof v === "boolean") return "bool";
  if (isNumber(v)) return "number";
  if (typeof v === "string") return "string";
  if (Array.isArray(v)) return "array";
  throw new Error("Object is not a sortable value");
}

function sortKey(kind: string, v: unknown): number | string | boolean {
  switch (kind) {
    case "bool":
      if (typeof v !== "boolean") throw new Error(`expected bool got ${describe(v)}`);
      return v;
    case "number":
      if (!isNumber(v)) throw new Error(`expected number got ${describe(v)}`);
      return num(v);
    case "string":
      if (typeof v !== "string") throw new Error(`expected string got ${describe(v)}`);
      return v;
    default:
      if (!Array.isArray(v)) throw new Error(`expected array got ${describe(v)}`);
      return v.length;
  }
}

function sortFilter(v: unknown, a: Record<string, unknown>): unknown {
  const arr = arrValue("sort", v);
  if (arr.length === 0) return arr;
  const keys = attrOf("sort", a, false);
  const attr = a.attribute === undefined ? "" : String(a.attribute);
  const pairs = arr.map((x) => {
    const k = pointer(x, keys);
    if (k === undefined) throw new Error(`attribute '${attr}' does not reference a field`);
    return { x, k };
  });
  const kind = sortKind(pairs[0].k);
  const keyed = pairs.map((p) => ({ x: p.x, k: sortKey(kind, p.k) }));
  if (kind === "string") {
    // UTF-16 order is code point order unless a string holds a surrogate (U+10000 and up)
    const plain = keyed.every((p) => !SURROGATE.test(p.k as string));
    keyed.sort(
      plain
        ? (p, q) => p.k < q.k ? -1 : p.k > q.k ? 1 : 0
        : (p, q) => compareCodePoints(p.k as string, q.k as string),
    );
  } else keyed.sort((p, q) => Number(p.k) - Number(q.k));
  return keyed.map((p) => p.x);
}

function uniqueFilter(v: unknown, a: Record<string, unknown>): unknown {
  const arr = arrValue("unique", v);
  if (arr.length === 0) return arr;
  const cs = a.case_sensitive === undefined
    ? false
    : argBool("unique", "case_sensitive", a.case_sensitive);
  const keys = attrOf("unique", a, false);
  const first = pointer(arr[0], keys);
  if (first === undefined) {
    throw new Error(`attribute '${String(a.attribute ?? "")}' does not reference a field`);
  }
  const kind = (x: unknown) =>
    x === null ? "null" : isNumber(x) ? "number" : Array.isArray(x) ? "array" : typeof x;
  const k0 = kind(first);
  if (k0 === "null") throw new Error("Null is not a unique value");
  if (k0 === "number" && isFloat(first)) throw new Error("Unique floats are not implemented");
  if (k0 === "array") throw new Error("Unique arrays are not implemented");
  if (k0 === "object") throw new Error("Unique objects are not implemented");
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const x of arr) {
    const key = pointer(x, keys);
    if (key === undefined) continue;
    if (kind(key) !== k0) throw new Error("unique filter can't compare multiple types");
    let id: unknown = key;
    if (k0 === "number") {
      if (isFloat(key)) throw new Error(`expected number got ${describe(key)}`);
      id = num(key as number);
    } else if (k0 === "string" && !cs) id = (key as string).toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(x);
  }
  return out;
}

const SURROGATE = /[\ud800-\udfff]/;

/** Rust's `chars().count()`: a surrogate pair is one character. */
function codePointCount(s: string): number {
  let n = s.length;
  SURROGATE_PAIR.lastIndex = 0;
  while (SURROGATE_PAIR.test(s)) n--;
  return n;
}

const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

function sliceIndex(i: number, len: number): number {
  const r = i >= 0 ? Math.trunc(i) : Math.trunc(len + i);
  return r < 0 ? 0 : r;
}

function filesize(v: unknown): string {
  if (!(typeof v === "number" && Number.isInteger(v) && v >= 0)) {
    throw new Error(
      `Filter \`filesizeformat\` was called on an incorrect value: got \`${
        describe(v)
      }\` but expected a usize`,
    );
  }
  const units = ["B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
  let size = v;
  let i = 0;
  while (size >= 1024) {
    size /= 1024;
    i++;
  }
  const text = Number.isInteger(size) ? String(size) : toFixedEven(size, 2);
  return `${text} ${units[i]}`;
}

/** Rust's `{:.N}` formatting (round half to even on the exact binary value). */
export function toFixedEven(x: number, digits: number): string {
  const s = x.toFixed(digits);
  // An exact tie needs at most digits + 1 binary fraction bits; then x · 10^(digits + 1) is
  // an exact integer ending in 5. toFixed picks the larger magnitude there, Rust the even one.
  const a = x < 0 ? -x : x;
  const scaled = a * 10 ** (digits + 1);
  if (!Number.isInteger(a * 2 ** (digits + 1)) || !Number.isSafeInteger(scaled)) return s;
  if (scaled % 10 !== 5) return s;
  const lower = (scaled - 5) / 10;
  if (lower % 2 !== 0) return s;
  const d = String(lower).padStart(digits + 1, "0");
  const body = digits === 0 ? d : d.slice(0, d.length - digits) + "." + d.slice(d.length - digits);
  return x < 0 ? "-" + body : body;
}

function roundHalfAway(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

function intFilter(v: unknown, a: Record<string, unknown>): number {
  const def = a.default === undefined ? 0 : argInt("int", "default", a.default);
  const base = a.base === undefined ? 10 : argInt("int", "base", a.base, 0);
  if (typeof v === "string") {
    let s = trim(v);
    if (base === 2) s = trimPrefix(s, "0b");
    else if (base === 8) s = trimPrefix(s, "0o");
    else if (base === 16) s = trimPrefix(s, "0x");
    const parsed = parseRadix(s, base);
    if (parsed !== null) return parsed;
    if (s.includes(".")) {
      const f = parseRustFloat(s);
      return f === null ? def : saturatingI64(f);
    }
    return def;
  }
  if (isNumber(v)) return saturatingI64(num(v));
  throw new Error("Filter `int` received an unexpected type");
}

/** Rust's `f as i64`: truncates, saturates at the bounds, NaN becomes 0. */
function saturatingI64(f: number): number {
  if (Number.isNaN(f)) return 0;
  const t = Math.trunc(f) + 0;
  return t >= 9223372036854775807
    ? 9223372036854775807
    : t < -9223372036854775808
    ? -9223372036854775808
    : t;
}

function trimPrefix(s: string, p: string): string {
  while (s.startsWith(p)) s = s.slice(p.length);
  return s;
}

function parseRadix(s: string, base: number): number | null {
  if (base < 2 || base > 36) throw new Error(`invalid base ${base}`);
  let body = s;
  let sign = 1;
  if (body.startsWith("+")) body = body.slice(1);
  else if (body.startsWith("-")) {
    sign = -1;
    body = body.slice(1);
  }
  if (body === "") return null;
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    const d = c >= 48 && c <= 57
      ? c - 48
      : c >= 97 && c <= 122
      ? c - 87
      : c >= 65 && c <= 90
      ? c - 55
      : 99;
    if (d >= base) return null;
    n = n * base + d;
  }
  // i64::from_str_radix fails on overflow (then `int` falls back to its default)
  if (n >= 2 ** 53) return exactI64(body, base, sign);
  return sign * n + 0;
}

/** Large digit strings: the value rounded once (i64 bounds print exactly), null beyond i64. */
function exactI64(digits: string, base: number, sign: number): number | null {
  let b = 0n;
  for (const ch of digits.toLowerCase()) b = b * BigInt(base) + BigInt(parseInt(ch, 36));
  if (sign < 0 ? b > 2n ** 63n : b >= 2n ** 63n) return null;
  return Number(sign < 0 ? -b : b);
}

/** Rust's `str::parse::<f64>` (no surrounding whitespace, `inf`/`nan` accepted). */
export function parseRustFloat(s: string): number | null {
  const quick = parseShortDecimal(s);
  if (quick !== null) return quick;
  if (/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(s)) return Number(s);
  const l = s.toLowerCase().replace(/^[+]/, "");
  if (l === "inf" || l === "infinity") return Infinity;
  if (l === "-inf" || l === "-infinity") return -Infinity;
  if (l === "nan" || l === "-nan") return NaN;
  return null;
}

/** The collection, number and general filters. */
export const collectionFilters: FilterTable = {
  length: (v) => {
    if (Array.isArray(v)) return v.length;
    if (typeof v === "string") return codePointCount(v);
    if (isObject(v)) return sortedKeys(v).length;
    throw new Error(
      "Filter `length` was used on a value that isn't an array, an object, or a string.",
    );
  },
  reverse: (v) => {
    if (Array.isArray(v)) return [...v].reverse();
    if (typeof v === "string") return [...v].reverse().join("");
    throw new Error(
      `Filter \`reverse\` received an incorrect type for arg \`value\`: got \`${
        describe(v)
      }\` but expected Array|String`,
    );
  },
  first: (v) => {
    const a = arrValue("first", v);
    return a.length ? a[0] : "";
  },
  last: (v) => {
    const a = arrValue("last", v);
    return a.length ? a[a.length - 1] : "";
  },
  nth: (v, a) => {
    const arr = arrValue("nth", v);
    if (arr.length === 0) return "";
    if (a.n === undefined) throw new Error("The `nth` filter has to have an `n` argument");
    const n = argInt("nth", "n", a.n, 0);
    return n < arr.length ? arr[n] : "";
  },
  join: (v, a) => {
    const arr = arrValue("join", v);
    const sep = a.sep === undefined ? "" : argStr("join", "sep", a.sep);
    return arr.map(renderValue).join(sep.replaceAll("\\n", "\n").replaceAll("\\t", "\t"));
  },
  sort: sortFilter,
  unique: uniqueFilter,
  slice: (v, a) => {
    const arr = arrValue("slice", v);
    if (arr.length === 0) return arr;
    const start = a.start === undefined
      ? 0
      : sliceIndex(argF64("slice", "start", a.start), arr.length);
    let end = a.end === undefined
      ? arr.length
      : sliceIndex(argF64("slice", "end", a.end), arr.length);
    if (end > arr.length) end = arr.length;
    return start >= end ? [] : arr.slice(start, end);
  },
  group_by: (v, a) => {
    const arr = arrValue("group_by", v);
    if (arr.length === 0) return {};
    const keys = attrOf("group_by", a, true);
    const out: Record<string, unknown[]> = {};
    for (const x of arr) {
      const k = pointer(x, keys);
      if (k === undefined || k === null) continue;
      const sk = typeof k === "string" ? k : toJson(k);
      (Object.prototype.hasOwnProperty.call(out, sk) ? out[sk] : (out[sk] = [])).push(x);
    }
    return out;
  },
  filter: (v, a) => {
    const arr = arrValue("filter", v);
    if (arr.length === 0) return arr;
    const keys = attrOf("filter", a, true);
    const want = a.value === undefined ? null : a.value;
    return arr.filter((x) => {
      const got = pointer(x, keys) ?? null;
      return want === null ? got !== null : strictEquals(got, want);
    });
  },
  map: (v, a) => {
    const arr = arrValue("map", v);
    if (arr.length === 0) return arr;
    const keys = attrOf("map", a, true);
    const out: unknown[] = [];
    for (const x of arr) {
      const got = pointer(x, keys);
      if (got !== undefined && got !== null) out.push(got);
    }
    return out;
  },
  concat: (v, a) => {
    const arr = arrValue("concat", v);
    if (a.with === undefined) throw new Error("The `concat` filter has to have a `with` argument");
    return Array.isArray(a.with) ? [...arr, ...a.with] : [...arr, a.with];
  },
  get: (v, a) => {
    if (a.key === undefined) throw new Error("The `get` filter has to have an `key` argument");
    const key = argStr("get", "key", a.key);
    if (!isObject(v)) throw new Error("Filter `get` was used on a value that isn't an object");
    const got = getOwn(v, key);
    if (got !== undefined) return got;
    if (a.default !== undefined) return a.default;
    throw new Error(`Filter \`get\` tried to get key \`${key}\` but it wasn't found`);
  },
  json_encode: (v, a) => toJson(v, a.pretty === true),
  as_str: (v) => renderValue(v),
  pluralize: (v, a) => {
    if (!isNumber(v)) {
      throw new Error(
        `Filter \`pluralize\` was called on an incorrect value: got \`${
          describe(v)
        }\` but expected a f64`,
      );
    }
    const plural = a.plural === undefined ? "s" : argStr("pluralize", "plural", a.plural);
    const singular = a.singular === undefined ? "" : argStr("pluralize", "singular", a.singular);
    return Math.abs(Math.abs(num(v)) - 1) > Number.EPSILON ? plural : singular;
  },
  round: (v, a) => {
    if (!isNumber(v)) {
      throw new Error(
        `Filter \`round\` was called on an incorrect value: got \`${
          describe(v)
        }\` but expected a f64`,
      );
    }
    const method = a.method === undefined ? "common" : argStr("round", "method", a.method);
    const precision = a.precision === undefined ? 0 : argInt("round", "precision", a.precision);
    const m = precision === 0 ? 1 : Math.pow(10, precision);
    const x = num(v) * m;
    let r: number;
    if (method === "common") r = roundHalfAway(x) / m;
    else if (method === "ceil") r = Math.ceil(x) / m;
    else if (method === "floor") r = Math.floor(x) / m;
    else {
      throw new Error(
        `Filter \`round\` received an incorrect value for arg \`method\`: got \`"${method}"\`, only common, ceil and floor are allowed`,
      );
    }
    return Number.isFinite(r) ? mkFloat(r) : null;
  },
  abs: (v) => {
    if (!isNumber(v)) {
      throw new Error(
        `Filter \`abs\` was called on an incorrect value: got \`${
          describe(v)
        }\` but expected a number`,
      );
    }
    return isFloat(v) ? mkFloat(Math.abs(num(v))) : Math.abs(num(v));
  },
  filesizeformat: filesize,
  int: intFilter,
  float: (v, a) => {
    const def = a.default === undefined ? 0 : argF64("float", "default", a.default);
    let r: number;
    if (typeof v === "string") {
      const f = parseRustFloat(trim(v));
      r = f === null ? def : f;
    } else if (isNumber(v)) r = num(v);
    else throw new Error("Filter `float` received an unexpected type");
    return Number.isFinite(r) ? mkFloat(r) : null;
  },
};
