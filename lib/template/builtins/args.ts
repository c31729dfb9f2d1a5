/**
 * Argument coercion for built-ins, following serde's conversions as Tera uses them
 * (`String` only from strings, `usize`/`i64` only from ints, `f64` from any number).
 * @module
 */

import { describe, isInt, isNumber, num } from "../value.ts";

/** A table of filters by name. */
export type FilterTable = Record<
  string,
  (value: unknown, args: Record<string, unknown>) => unknown
>;

/** The piped value as a string, or Tera's "incorrect value" error. */
export function strValue(filter: string, v: unknown): string {
  if (typeof v === "string") return v;
  throw new Error(
    `Filter \`${filter}\` was called on an incorrect value: got \`${
      describe(v)
    }\` but expected a String`,
  );
}

/** A required string argument. */
export function argStr(filter: string, name: string, v: unknown): string {
  if (v === undefined) throw new Error(`Filter \`${filter}\` expected an arg called \`${name}\``);
  if (typeof v === "string") return v;
  throw new Error(
    `Filter \`${filter}\` received an incorrect type for arg \`${name}\`: got \`${
      describe(v)
    }\` but expected a String`,
  );
}

/** An optional string argument. */
export function optStr(filter: string, name: string, v: unknown): string | undefined {
  return v === undefined ? undefined : argStr(filter, name, v);
}

/** An integer argument (`min` = 0 for `usize`). */
export function argInt(filter: string, name: string, v: unknown, min = -Infinity): number {
  if (isInt(v) && v >= min) return v;
  throw new Error(
    `Filter \`${filter}\` received an incorrect type for arg \`${name}\`: got \`${
      describe(v)
    }\` but expected an integer`,
  );
}

/** A float argument (ints accepted). */
export function argF64(filter: string, name: string, v: unknown): number {
  if (isNumber(v)) return num(v);
  throw new Error(
    `Filter \`${filter}\` received an incorrect type for arg \`${name}\`: got \`${
      describe(v)
    }\` but expected a f64`,
  );
}

/** A boolean argument. */
export function argBool(filter: string, name: string, v: unknown): boolean {
  if (typeof v === "boolean") return v;
  throw new Error(
    `Filter \`${filter}\` received an incorrect type for arg \`${name}\`: got \`${
      describe(v)
    }\` but expected a bool`,
  );
}

/** The piped value as an array. */
export function arrValue(filter: string, v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  throw new Error(
    `Filter \`${filter}\` was called on an incorrect value: got \`${
      describe(v)
    }\` but expected a Vec<Value>`,
  );
}
