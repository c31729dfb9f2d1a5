/** Minimal assertions for the std tests (node:assert/strict underneath). */
import assert from "node:assert/strict";

/** Deep strict equality. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  assert.deepStrictEqual(actual, expected, msg);
}

/** Asserts `fn` throws an instance of `cls` whose message equals `message`. */
export function assertThrows(
  fn: () => unknown,
  cls: new (...a: never[]) => Error,
  message: string,
): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  if (!(thrown instanceof cls)) {
    throw new assert.AssertionError({
      message: `expected ${cls.name} "${message}", got ${String(thrown)}`,
    });
  }
  assert.equal(thrown.message, message);
}
