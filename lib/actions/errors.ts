/**
 * Typed errors of actions (reference AC2, AC5, AC6, AC13): invalid action files (located at
 * `file:line:col`), invalid inputs (one entry per field), unknown actions and runs, and run
 * state conflicts. No message ever contains a secret value.
 *
 * @module
 */

/**
 * An action file that cannot be used (AC2, AC5), located where the offending key is written.
 *
 * @example
 * ```ts
 * import { ActionConfigError } from "./errors.ts";
 * const e = new ActionConfigError("action_invalid", "actions/a.toml", "'exec' is required", 1, 1);
 * console.log(e.message); // "actions/a.toml:1:1: 'exec' is required"
 * ```
 */
export class ActionConfigError extends Error {
  /**
   * Creates the error.
   * @param code stable code (`action_invalid`, `action_duplicate`, `toml_syntax`, …)
   * @param file the action file (display path)
   * @param reason what is wrong
   * @param line 1-based line, when known
   * @param column 1-based column, when known
   */
  constructor(
    readonly code: string,
    readonly file: string,
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(
      `${file}${
        line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ""}` : ""
      }: ${reason}`,
    );
    this.name = "ActionConfigError";
  }
}

/** One rejected input field (AC6); the same shape as a refused contract input. */
export interface InputFieldError {
  /** The input's name. */
  field: string;
  /** Why it was refused (`unknown input 'x'`, `input 'zone' is required`, …), without the value. */
  message: string;
}

/**
 * Inputs refused before anything runs (AC6): the problem document (`validation-failed`) lists
 * each field.
 *
 * @example
 * ```ts
 * import { ActionInputError } from "./errors.ts";
 * const e = new ActionInputError([{ field: "zone", message: "input 'zone' is required" }]);
 * console.log(e.message); // "invalid inputs: input 'zone' is required"
 * ```
 */
export class ActionInputError extends Error {
  /** Creates the error. @param fields every refused field */
  constructor(readonly fields: readonly InputFieldError[]) {
    super(`invalid inputs: ${fields.map((f) => f.message).join("; ")}`);
    this.name = "ActionInputError";
  }
}

/**
 * An unknown module, action or run (AC11, AC13): `404`.
 *
 * @example
 * ```ts
 * import { ActionNotFoundError } from "./errors.ts";
 * console.log(new ActionNotFoundError("no action 'x' in module 'data'").message);
 * ```
 */
export class ActionNotFoundError extends Error {
  /** Creates the error. @param message what was not found */
  constructor(message: string) {
    super(message);
    this.name = "ActionNotFoundError";
  }
}

/**
 * A run in a state that does not allow the request (AC13: cancelling a run that is not queued):
 * `409`.
 *
 * @example
 * ```ts
 * import { RunStateError } from "./errors.ts";
 * console.log(new RunStateError("run r1 is running, not queued").message);
 * ```
 */
export class RunStateError extends Error {
  /** Creates the error. @param message why the transition is refused */
  constructor(message: string) {
    super(message);
    this.name = "RunStateError";
  }
}

/**
 * A bundle that cannot be built (AC15): a template fails, a `[[file]] source` is missing, … The
 * message never contains a secret (secrets are placeholders in rendered text).
 *
 * @example
 * ```ts
 * import { ActionBundleError } from "./errors.ts";
 * console.log(new ActionBundleError("actions/a.toml: file source 'x' not found").name);
 * ```
 */
export class ActionBundleError extends Error {
  /** Creates the error. @param message what failed */
  constructor(message: string) {
    super(message);
    this.name = "ActionBundleError";
  }
}
