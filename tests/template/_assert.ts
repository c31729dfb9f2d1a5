/** Minimal assertions for template tests. */
import assert from "node:assert/strict";

/** Deep equality. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  assert.deepStrictEqual(actual, expected, msg);
}

/** Asserts that `f` throws an instance of `cls`; returns the error. */
export function assertThrows<E extends Error>(
  f: () => unknown,
  cls: new (...a: never[]) => E,
  includes?: string,
): E {
  try {
    f();
  } catch (e) {
    if (!(e instanceof cls)) throw new Error(`expected ${cls.name}, got ${e}`);
    if (includes && !e.message.includes(includes)) {
      throw new Error(
        `error message ${JSON.stringify(e.message)} lacks ${JSON.stringify(includes)}`,
      );
    }
    return e;
  }
  throw new Error(`expected ${cls.name} to be thrown`);
}
