/**
 * The error raised by the pure Jsonnet standard library functions. The evaluator catches it and
 * attaches the source location of the call, so the message carries only the reason, worded like
 * the reference implementation's message where practical.
 *
 * @module
 */

/** A runtime error raised by a pure std function (the evaluator adds the call location). */
export class StdError extends Error {
  /** @param message the reason, e.g. `Not an integer: "x"` */
  constructor(message: string) {
    super(message);
    this.name = "StdError";
  }
}
