/** Test helper: call a pure std function by name, and expect a StdError with a message. */
import { assertEquals, assertThrows } from "./_assert.ts";
import { pureStd, StdError } from "../../../lib/jsonnet/std/mod.ts";
import type { JsonValue } from "../../../lib/jsonnet/json_value.ts";

/** Calls `std.<name>(...args)`. */
export function call(name: string, ...args: JsonValue[]): JsonValue {
  const entry = pureStd[name];
  if (!entry) throw new Error(`no pure std function ${name}`);
  return entry.fn(...args);
}

/** Asserts that `std.<name>(...args)` equals `expected`. */
export function check(name: string, args: JsonValue[], expected: JsonValue): void {
  assertEquals(call(name, ...args), expected, `std.${name}(${JSON.stringify(args)})`);
}

/** Asserts that `std.<name>(...args)` throws a StdError with exactly `message`. */
export function fails(name: string, args: JsonValue[], message: string): void {
  assertThrows(() => call(name, ...args), StdError, message);
}
