/**
 * Typed errors of generators (reference GN3, GN7): configuration errors found while reading the
 * declarations, and run failures that name the generator, its module and the request.
 *
 * @module
 */

/**
 * A `[generator.*]` / `[generators.*]` table that cannot be used (GN1–GN3, GN10, GN14, GN20).
 *
 * @example
 * ```ts
 * const e = new GeneratorConfigError("generator_target", "regions", "module.toml", "needs a target");
 * console.log(e.message); // "module.toml: generator_target: generator 'regions': needs a target"
 * ```
 */
export class GeneratorConfigError extends Error {
  /**
   * Creates the error.
   * @param code stable error code (`generator_duplicate`, `generator_target`, …)
   * @param generator the generator's name
   * @param file the manifest that declares it
   * @param reason what is wrong
   */
  constructor(
    readonly code: string,
    readonly generator: string,
    readonly file: string,
    readonly reason: string,
  ) {
    // The code is part of the message, as configuration errors of the composition show theirs.
    super(`${file}: ${code}: generator '${generator}': ${reason}`);
    this.name = "GeneratorConfigError";
  }
}

/**
 * A generator run that failed (GN7): network error, non-2xx status, filter error, invalid JSON,
 * time-out, non-zero exit. The message names the generator, the module and the URL or command;
 * secret values are already masked in it.
 *
 * @example
 * ```ts
 * const e = new GeneratorRunError("regions", "data", "GET http://127.0.0.1/x", "HTTP 500");
 * console.log(e.message); // "generator 'regions' (module data, GET http://127.0.0.1/x): HTTP 500"
 * ```
 */
export class GeneratorRunError extends Error {
  /**
   * Creates the error.
   * @param generator the generator's name
   * @param module the declaring module (layer id)
   * @param request what was run: `METHOD url` or the command
   * @param reason why it failed
   */
  constructor(
    readonly generator: string,
    readonly module: string,
    readonly request: string,
    readonly reason: string,
  ) {
    super(
      `generator '${generator}' (module ${module}${request ? `, ${request}` : ""}): ${reason}`,
    );
    this.name = "GeneratorRunError";
  }
}

/**
 * Thrown by a build's generator step when a generator with `abort_on_failure = true` failed
 * (GN7): the build fails (CLI exit 2; `serve` keeps the last graph live).
 *
 * @example
 * ```ts
 * const e = new GeneratorAbortError("generator 'x' (module data): HTTP 500");
 * console.log(e.message.startsWith("aborted by generator failure")); // true
 * ```
 */
export class GeneratorAbortError extends Error {
  /** Creates the error. @param detail the masked failure message */
  constructor(readonly detail: string) {
    super(`aborted by generator failure (abort_on_failure): ${detail}`);
    this.name = "GeneratorAbortError";
  }
}
