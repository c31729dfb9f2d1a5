/**
 * Small assertion helpers for the project's tests (JSR's @std/assert is not reachable here).
 * Equality is node's deep strict equality; `assertThrows` returns the error for further checks.
 */
import { deepStrictEqual, match, ok } from "node:assert/strict";

/** Deep strict equality. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  deepStrictEqual(actual, expected, message);
}

/** Truthiness. */
export function assert(value: unknown, message?: string): asserts value {
  ok(value, message);
}

/** String matches a regular expression. */
export function assertMatch(actual: string, expected: RegExp, message?: string): void {
  match(actual, expected, message);
}

/** The call throws (optionally an instance of `type`); returns the thrown error. */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  type?: abstract new (...args: never[]) => E,
  includes?: string,
): E {
  try {
    fn();
  } catch (e) {
    if (type && !(e instanceof type)) throw new Error(`expected ${type.name}, got ${e}`);
    if (includes && !String((e as Error).message).includes(includes)) {
      throw new Error(`error message '${(e as Error).message}' does not include '${includes}'`);
    }
    return e as E;
  }
  throw new Error("expected the call to throw");
}

/** The promise rejects (optionally with an instance of `type`); returns the error. */
export async function assertRejects<E extends Error = Error>(
  fn: () => Promise<unknown>,
  type?: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await fn();
  } catch (e) {
    if (type && !(e instanceof type)) throw new Error(`expected ${type.name}, got ${e}`);
    return e as E;
  }
  throw new Error("expected the promise to reject");
}
