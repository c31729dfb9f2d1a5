/**
 * Plain JSON values exchanged between the Jsonnet evaluator and the pure std library
 * (lib/jsonnet/std/). Numbers are IEEE doubles; strings are JS strings (UTF-16), objects are
 * plain objects without a prototype chain requirement (only own enumerable keys are used).
 *
 * @module
 */

/**
 * A JSON scalar.
 *
 * @example
 * ```ts
 * import type { JsonPrimitive } from "./json_value.ts";
 * const xs: JsonPrimitive[] = [null, true, 1.5, "s"];
 * ```
 */
export type JsonPrimitive = null | boolean | number | string;

/**
 * A JSON array.
 *
 * @example
 * ```ts
 * import type { JsonArray } from "./json_value.ts";
 * const a: JsonArray = [1, "two", [3]];
 * ```
 */
export type JsonArray = JsonValue[];

/**
 * A JSON object (own enumerable string keys only).
 *
 * @example
 * ```ts
 * import type { JsonObject } from "./json_value.ts";
 * const o: JsonObject = { name: "n1", tags: ["a"] };
 * ```
 */
export interface JsonObject {
  /** Any field. */
  [key: string]: JsonValue;
}

/**
 * Any fully forced JSON value.
 *
 * @example
 * ```ts
 * import type { JsonValue } from "./json_value.ts";
 * const v: JsonValue = { a: [1, null, { b: true }] };
 * ```
 */
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;

/** A pure std function entry: parameter names (for named arguments / defaults) and the body. */
export interface PureStdFunction {
  /** Parameter names in positional order, as in the Jsonnet std library documentation. */
  params: string[];
  /** Number of leading parameters that are required (the rest may be omitted). Defaults to all. */
  required?: number;
  /** The implementation; receives deeply forced arguments. Throw `Error` for a runtime error. */
  fn: (...args: JsonValue[]) => JsonValue;
}

/** The shape of the table exported as `pureStd` from lib/jsonnet/std/mod.ts. */
export type PureStdTable = Record<string, PureStdFunction>;
