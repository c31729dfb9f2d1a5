/**
 * Turning any thrown value into a user-facing message (never a stack trace).
 *
 * @module
 */

/**
 * The message of an error for users: typed errors (TemplateError, ParseError, JsonnetError, …)
 * already carry their location in `message`; anything else is reported by its message only.
 *
 * @example
 * ```ts
 * import { describeError } from "./errors.ts";
 * describeError(new Error("boom")); // "boom"
 * ```
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return "evaluation too deep (call stack exhausted)";
    }
    return error.message;
  }
  return String(error);
}
