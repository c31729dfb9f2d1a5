/** Minimal assertion helpers for the jsonnet tests (node:assert underneath). */
import assert from "node:assert/strict";

/** Deep strict equality. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  assert.deepStrictEqual(actual, expected, msg);
}

/** Asserts that `fn` throws; optionally checks the class and/or message pattern. Returns the error. */
export function assertThrows(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  cls?: (new (...a: any[]) => Error) | RegExp,
  pattern?: RegExp,
): Error {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof Error)) throw new Error(`threw a non-Error: ${String(e)}`);
    if (cls instanceof RegExp) pattern = cls;
    else if (cls && !(e instanceof cls)) {
      const err: Error = e;
      throw new Error(`expected ${cls.name}, got ${err.name}: ${err.message}`);
    }
    if (pattern && !pattern.test(e.message)) {
      throw new Error(`error message ${JSON.stringify(e.message)} does not match ${pattern}`);
    }
    return e;
  }
  throw new Error("expected an exception");
}
