/**
 * String std functions. Strings are sequences of Unicode code points: lengths, indices and
 * substrings count code points, not UTF-16 units.
 *
 * @module
 */
import type { JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { chargeAlloc } from "./limits.ts";
import { toStringValue } from "./to_string.ts";
import { chars, checkBuiltin, cpLength, typeOf } from "./values.ts";

function lengthOf(v: JsonValue, _name: string): number {
  if (typeof v === "string") return cpLength(v);
  if (Array.isArray(v)) return v.length;
  if (v !== null && typeof v === "object") return Object.keys(v).length;
  throw new StdError(`length operates on strings, objects, and arrays, got ${typeOf(v)}`);
}

function str(v: JsonValue, msg: string): string {
  if (typeof v !== "string") throw new StdError(msg + typeOf(v));
  return v;
}

/** `std.substr(str, from, len)` over code points (fractions truncated). */
export function substr(s: JsonValue, from: JsonValue, len: JsonValue): string {
  checkBuiltin("substr", [s, from, len], ["string", "number", "number"]);
  const f = from as number, l = len as number;
  if (f < 0) throw new StdError(`substr second parameter should be greater than zero, got ${f}`);
  if (l < 0) throw new StdError(`substr third parameter should be greater than zero, got ${l}`);
  const cs = chars(s as string);
  const start = Math.trunc(f);
  return cs.slice(start, start + Math.trunc(l)).join("");
}

/** Splits on every occurrence of `sep` (1+ code points), at most `max` times from the left. */
export function splitLimit(s: string, sep: string, max: number): string[] {
  const out: string[] = [];
  const cs = chars(s), sc = chars(sep);
  let cur = "";
  let i = 0;
  while (i < cs.length) {
    if ((max === -1 || out.length < max) && sc.every((c, k) => cs[i + k] === c)) {
      out.push(cur);
      cur = "";
      i += sc.length;
    } else {
      cur += cs[i++];
    }
  }
  out.push(cur);
  return out;
}

function checkSplitArgs(name: string, s: JsonValue, c: JsonValue): [string, string] {
  const a = str(s, `std.${name} first parameter should be a string, got `);
  const b = str(c, `std.${name} second parameter should be a string, got `);
  if (b.length === 0) {
    throw new StdError(`std.${name} second parameter should have length 1, got 0`);
  }
  return [a, b];
}

function reverse(s: string): string {
  return chars(s).reverse().join("");
}

function stripSet(cs: JsonValue): (c: string) => boolean {
  if (typeof cs === "string") {
    const set = new Set(chars(cs));
    return (c) => set.has(c);
  }
  if (Array.isArray(cs)) return (c) => cs.includes(c);
  throw new StdError("std.member first argument must be an array or a string");
}

function lstrip(s: JsonValue, cs: JsonValue): string {
  const a = chars(String(s)), has = stripSet(cs);
  let i = 0;
  while (i < a.length && has(a[i])) i++;
  return a.slice(i).join("");
}

function rstrip(s: JsonValue, cs: JsonValue): string {
  const a = chars(String(s)), has = stripSet(cs);
  let n = a.length;
  while (n > 0 && has(a[n - 1])) n--;
  return a.slice(0, n).join("");
}

function needStr(v: JsonValue): string {
  if (typeof v !== "string") {
    throw new StdError(`length operates on strings, objects, and arrays, got ${typeOf(v)}`);
  }
  return v;
}

function asciiMap(name: string, s: JsonValue, lower: boolean): string {
  checkBuiltin(name, [s], ["string"]);
  return (s as string).replace(
    lower ? /[A-Z]+/g : /[a-z]+/g,
    (m) => lower ? m.toLowerCase() : m.toUpperCase(),
  );
}

/** `std.findSubstr(pat, str)`: code-point indices of every (overlapping) occurrence. */
export function findSubstr(pat: JsonValue, s: JsonValue): number[] {
  const p = str(pat, "findSubstr first parameter should be a string, got ");
  const t = str(s, "findSubstr second parameter should be a string, got ");
  const pc = chars(p), tc = chars(t);
  if (pc.length === 0) return [];
  const out: number[] = [];
  for (let i = 0; i + pc.length <= tc.length; i++) {
    if (pc.every((c, k) => tc[i + k] === c)) out.push(i);
  }
  return out;
}

function strReplace(s: JsonValue, from: JsonValue, to: JsonValue): string {
  checkBuiltin("strReplace", [s, from, to], ["string", "string", "string"]);
  if (from === "") throw new StdError("'from' string must not be zero length.");
  const parts = (s as string).split(from as string);
  chargeAlloc((s as string).length + (parts.length - 1) * (to as string).length);
  return parts.join(to as string);
}

function parseNat(s: string, base: number): number {
  let acc = 0;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    const d = code >= 97 ? code - 97 + 10 : code >= 65 ? code - 65 + 10 : code - 48;
    if (!(d >= 0 && d < base)) throw new StdError(`${s} is not a base ${base} integer`);
    acc = base * acc + d;
  }
  // The reference computes in doubles and rejects an infinite result.
  if (!Number.isFinite(acc)) throw new StdError("overflow");
  return acc;
}

function parseInt(s: JsonValue): number {
  const t = str(s, "Expected string, got ");
  if (t.length === 0 || t === "-") throw new StdError(`Not an integer: "${t}"`);
  return t[0] === "-" ? -parseNat(t.slice(1), 10) : parseNat(t, 10);
}

/** The string std functions keyed by std name. */
export const stringFunctions: Record<string, (...a: JsonValue[]) => JsonValue> = {
  toString: (a: JsonValue) => toStringValue(a),
  substr,
  startsWith: (a, b) => {
    const x = needStr(a), y = needStr(b);
    return x.startsWith(y);
  },
  endsWith: (a, b) => {
    const x = needStr(a), y = needStr(b);
    return x.endsWith(y);
  },
  lstripChars: (s, cs) => lstrip(needStr(s), cs),
  rstripChars: (s, cs) => rstrip(needStr(s), cs),
  stripChars: (s, cs) => lstrip(rstrip(needStr(s), cs), cs),
  trim: (s) => lstrip(rstrip(needStr(s), " \t\n\f\r\u0085"), " \t\n\f\r\u0085"),
  stringChars: (s) => chars(needStr(s)),
  split: (s, c) => {
    const [a, b] = checkSplitArgs("split", s, c);
    return splitLimit(a, b, -1);
  },
  splitLimit: (s, c, max) => {
    const [a, b] = checkSplitArgs("splitLimit", s, c);
    if (typeof max !== "number") {
      throw new StdError(`std.splitLimit third parameter should be a number, got ${typeOf(max)}`);
    }
    return splitLimit(a, b, max);
  },
  splitLimitR: (s, c, max) => {
    const [a, b] = checkSplitArgs("splitLimitR", s, c);
    if (typeof max !== "number") {
      throw new StdError(`std.splitLimitR third parameter should be a number, got ${typeOf(max)}`);
    }
    if (max === -1) return splitLimit(a, b, -1);
    return splitLimit(reverse(a), reverse(b), max).reverse().map(reverse);
  },
  strReplace,
  asciiUpper: (s) => asciiMap("asciiUpper", s, false),
  asciiLower: (s) => asciiMap("asciiLower", s, true),
  equalsIgnoreCase: (a, b) => asciiMap("asciiLower", a, true) === asciiMap("asciiLower", b, true),
  isEmpty: (s) => lengthOf(s, "isEmpty") === 0,
  findSubstr,
  lines: (arr) => {
    if (!Array.isArray(arr)) {
      throw new StdError(`join second parameter should be array, got ${typeOf(arr)}`);
    }
    let out = "";
    arr.forEach((v, i) => {
      if (v === null) return;
      if (typeof v !== "string") {
        throw new StdError(`expected string but arr[${i}] was ${typeOf(v)}`);
      }
      out += v + "\n";
    });
    return out;
  },
  parseInt,
  parseOctal: (s) => {
    const t = str(s, "Expected string, got ");
    if (t.length === 0) throw new StdError('Not an octal number: ""');
    return parseNat(t, 8);
  },
  parseHex: (s) => {
    const t = str(s, "Expected string, got ");
    if (t.length === 0) throw new StdError('Not hexadecimal: ""');
    return parseNat(t, 16);
  },
};
