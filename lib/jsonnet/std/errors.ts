/**
 * The error raised by the pure Jsonnet standard library functions. The evaluator catches it and
 * attaches the source location of the call, so the message carries only the reason, worded like
 * the reference implementation's message where practical.
 *
 * @module
 */

/**
 * A runtime error raised by a pure std function (the evaluator adds the call location).
 *
 * @example
 * ```ts
 * import { StdError } from "./errors.ts";
 * throw new StdError('Not an integer: "x"');
 * ```
 */
export class StdError extends Error {
  /**
   * Creates the error.
   *
   * @param message the reason, e.g. `Not an integer: "x"`
   * @example
   * ```ts
   * import { StdError } from "./errors.ts";
   * new StdError("division by zero.").message; // "division by zero."
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "StdError";
  }
}
