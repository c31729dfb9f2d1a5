/**
 * The fast path of `json_encode` (issue 15 item 4): a value is turned into one that the native
 * `JSON.stringify` prints exactly as serde_json prints the original — objects with their keys
 * in code point order (copied only when their order differs), numbers that JS would print
 * differently as `JSON.rawJSON` text — so the string building and escaping run natively.
 * @module
 */

import { compareCodePoints, ryuF64, TeraFloat } from "./value.ts";

/** `jsonReady` cannot prepare the value (the caller uses its general writer). */
export const NOT_READY: unique symbol = Symbol("not ready");

const MAX_DEPTH = 256;

/**
 * `JSON.rawJSON` (the JSON source text access proposal, which `parseJsonPreservingFloats`
 * also relies on); where it is missing such numbers make the value not ready.
 */
const rawJSON: (text: string) => unknown = (JSON as { rawJSON?: (text: string) => unknown })
  .rawJSON ?? (() => NOT_READY);

/** Keys whose insertion order V8 would not keep (array indices) or that set the prototype. */
function awkwardKey(k: string): boolean {
  if (k === "__proto__") return true;
  if (k === "") return false;
  const c = k.charCodeAt(0);
  if (c < 48 || c > 57 || k.length > 10) return false;
  for (let i = 1; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return k === "0" || c !== 48; // canonical index (V8 also bounds it, 2^32 - 2: stay safe)
}

/** Sorted key lists of the last object shapes seen (objects of an array share them). */
let lastKeys: string[] = [];
let lastSorted: string[] = [];
let lastSame = true;

function sortedOf(keys: string[]): string[] | null {
  let same = keys.length === lastKeys.length;
  for (let i = 0; same && i < keys.length; i++) same = keys[i] === lastKeys[i];
  if (!same) {
    for (const k of keys) if (awkwardKey(k)) return null;
    lastKeys = keys;
    lastSorted = [...keys].sort(compareCodePoints);
    lastSame = true;
    for (let i = 0; lastSame && i < keys.length; i++) lastSame = keys[i] === lastSorted[i];
  }
  return lastSame ? keys : lastSorted;
}

function numberReady(v: number): unknown {
  if (Number.isInteger(v)) {
    // ints print alike (the i64 bounds and integral floats beyond u64 do not)
    if (v > -9223372036854775808 && v < 9223372036854775808) return v;
    if (v === -9223372036854775808) return rawJSON("-9223372036854775808");
    if (v === 9223372036854775808) return rawJSON("9223372036854775807");
    if (v > 0 && v < 18446744073709551616) return v;
    return rawJSON(ryuF64(v));
  }
  const a = v < 0 ? -v : v;
  return (a >= 1e-5 && a < 1e16) || !Number.isFinite(v) ? v : rawJSON(ryuF64(v));
}

/**
 * `v` (or a copy) such that `JSON.stringify` prints it as serde_json prints `v`; `NOT_READY`
 * for keys V8 would reorder and `__proto__`. Throws a RangeError past 256 levels, like the
 * general writer.
 */
export function jsonReady(v: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new RangeError("value nested too deeply to serialise");
  if (typeof v === "string" || typeof v === "boolean" || v == null) return v;
  if (typeof v === "number") return numberReady(v);
  if (v instanceof TeraFloat) return rawJSON(ryuF64(v.value));
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const y = jsonReady(x, depth + 1);
      if (y === NOT_READY) return NOT_READY;
      if (y !== x && out === null) out = v.slice(0, i);
      if (out !== null) out.push(y);
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const sorted = sortedOf(keys);
  if (sorted === null) return NOT_READY;
  const proto = Object.getPrototypeOf(o);
  // plain objects print their own keys in place; anything else (a toJSON method, a class
  // instance) is copied
  let copy = sorted !== keys || (proto !== Object.prototype && proto !== null);
  const vals: unknown[] = new Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    const x = o[sorted[i]];
    const y = jsonReady(x, depth + 1);
    if (y === NOT_READY) return NOT_READY;
    vals[i] = y;
    if (y !== x) copy = true;
  }
  if (!copy) return o;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < sorted.length; i++) if (vals[i] !== undefined) out[sorted[i]] = vals[i];
  return out;
}
