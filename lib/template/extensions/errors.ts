/**
 * Error type shared by every engine-specific template extension.
 *
 * The Tera core catches it and attaches the template location (file, rule, line), so the message
 * only has to name the filter/function and the offending argument.
 *
 * @module
 */

/**
 * A failure inside an engine-specific filter, function or test (T3: a build error).
 *
 * @example
 * ```ts
 * const e = new ExtensionError("cidr_nth_subnet", "index 300 is out of range", "nth");
 * e.message; // "cidr_nth_subnet(nth): index 300 is out of range"
 * ```
 */
export class ExtensionError extends Error {
  /** Name of the filter/function/test that failed, e.g. `cidr_nth_subnet`. */
  readonly extension: string;
  /** Name of the offending argument (`prefix`, `key`, …) or `"value"` for the piped input. */
  readonly argument: string | undefined;

  /** Builds `"<extension>(<argument>): <message>"`. */
  constructor(extension: string, message: string, argument?: string, options?: ErrorOptions) {
    const where = argument === undefined ? extension : `${extension}(${argument})`;
    super(`${where}: ${message}`, options);
    this.name = "ExtensionError";
    this.extension = extension;
    this.argument = argument;
  }
}
