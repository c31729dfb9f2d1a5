/**
 * Small helpers over forced JSON values shared by the std modules: Jsonnet type names, code-point
 * string access, sorted object fields and argument checks.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";

/** The Jsonnet type names (`std.type`) of forced values. */
export type JsonnetType = "null" | "boolean" | "number" | "string" | "array" | "object";

/** Returns the Jsonnet type name of a forced value. */
export function typeOf(v: JsonValue): JsonnetType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      return "object";
  }
}

/** True when `v` is a JSON object (not null, not an array). */
export function isObject(v: JsonValue): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The code points of a string, each as a one-code-point string (Jsonnet string indexing). */
export function chars(s: string): string[] {
  return Array.from(s);
}

/** Number of code points in `s` (Jsonnet `std.length` of a string). */
export function cpLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Compares two strings by code point, as Jsonnet orders strings and object fields. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** The visible fields of an object in Jsonnet order (sorted by code point). */
export function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareStrings);
}

/** Throws unless `v` is a string; `what` names the parameter in the message. */
export function needString(v: JsonValue, what: string): string {
  if (typeof v !== "string") throw new StdError(`${what} should be a string, got ${typeOf(v)}`);
  return v;
}

/** Throws unless `v` is a number; `what` names the parameter in the message. */
export function needNumber(v: JsonValue, what: string): number {
  if (typeof v !== "number") throw new StdError(`${what} should be a number, got ${typeOf(v)}`);
  return v;
}

/** Throws unless `v` is an array; `what` names the parameter in the message. */
export function needArray(v: JsonValue, what: string): JsonValue[] {
  if (!Array.isArray(v)) throw new StdError(`${what} should be an array, got ${typeOf(v)}`);
  return v;
}

/** Throws unless `v` is an object; `what` names the parameter in the message. */
export function needObject(v: JsonValue, what: string): JsonObject {
  if (!isObject(v)) throw new StdError(`${what} should be an object, got ${typeOf(v)}`);
  return v;
}

/**
 * Checks the argument types of a builtin the reference implements natively, failing with its
 * message: `Builtin function pow expected (number, number) but got (string, number)`.
 */
export function checkBuiltin(name: string, args: JsonValue[], types: JsonnetType[]): void {
  const got = args.map(typeOf);
  if (got.every((t, i) => t === types[i])) return;
  throw new StdError(
    `Builtin function ${name} expected (${types.join(", ")}) but got (${got.join(", ")})`,
  );
}

/** Deep structural equality of forced values (Jsonnet `==`). */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  const ta = typeOf(a);
  if (ta !== typeOf(b)) return false;
  if (ta === "array") {
    const x = a as JsonValue[], y = b as JsonValue[];
    return x.length === y.length && x.every((v, i) => jsonEquals(v, y[i]));
  }
  if (ta === "object") {
    const x = a as JsonObject, y = b as JsonObject;
    const kx = sortedKeys(x), ky = sortedKeys(y);
    return kx.length === ky.length &&
      kx.every((k, i) => k === ky[i] && jsonEquals(x[k], y[k]));
  }
  return false;
}
