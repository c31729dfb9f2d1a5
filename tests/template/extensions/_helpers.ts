import { assertEquals, assertThrows } from "./_assert.ts";
import {
  createEngineExtensions,
  ExtensionError,
  type ExtensionOptions,
} from "../../../lib/template/extensions/mod.ts";

export { assertEquals, assertThrows };

/** Fresh extensions (fresh counters) per call. */
export function ext(options: ExtensionOptions = {}) {
  return createEngineExtensions(options);
}

/** Asserts that `fn` throws an ExtensionError naming `extension` (and `argument`, if given). */
export function assertExtError(
  fn: () => unknown,
  extension: string,
  argument?: string,
  includes?: string,
): ExtensionError {
  const e = assertThrows(fn, ExtensionError);
  assertEquals(e.extension, extension, `extension of: ${e.message}`);
  if (argument !== undefined) assertEquals(e.argument, argument, `argument of: ${e.message}`);
  if (includes !== undefined && !e.message.includes(includes)) {
    throw new Error(
      `expected message to include ${JSON.stringify(includes)}, got ${JSON.stringify(e.message)}`,
    );
  }
  return e;
}
