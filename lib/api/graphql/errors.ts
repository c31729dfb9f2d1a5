/**
 * Error classes of the GraphQL layer. They are thrown inside resolvers; graphql-js wraps them in
 * a `GraphQLError` that carries the source location and path of the failing field.
 *
 * @module
 */

/**
 * Base class of every error raised by the GraphQL layer.
 *
 * @example
 * ```ts
 * const e = new GraphQLApiError("boom", "INTERNAL");
 * console.log(e.extensions.code); // "INTERNAL"
 * ```
 */
export class GraphQLApiError extends Error {
  /** Machine-readable code, copied to `extensions.code` of the GraphQL error. */
  readonly code: string;
  /** Copied by graphql-js into the `extensions` of the located GraphQL error. */
  readonly extensions: { readonly code: string };
  /**
   * Creates the error.
   *
   * @param message human-readable description
   * @param code machine-readable code
   */
  constructor(message: string, code: string) {
    super(message);
    this.name = "GraphQLApiError";
    this.code = code;
    this.extensions = { code };
  }
}

/**
 * An invalid `filter` argument (G8): not an object, unknown operator, bad operand.
 *
 * @example
 * ```ts
 * const e = new FilterError("unknown operator 'like'", "env");
 * console.log(e.message); // "invalid filter on 'env': unknown operator 'like'"
 * ```
 */
export class FilterError extends GraphQLApiError {
  /** Filter entry (property key) the problem was found in, if any. */
  readonly key: string | undefined;
  /**
   * Creates the error.
   *
   * @param message what is wrong
   * @param key the offending filter entry
   */
  constructor(message: string, key?: string) {
    super(
      key === undefined ? `invalid filter: ${message}` : `invalid filter on '${key}': ${message}`,
      "BAD_FILTER",
    );
    this.name = "FilterError";
    this.key = key;
  }
}

/**
 * An invalid argument of `findPaths` / `listNodes`.
 *
 * @example
 * ```ts
 * const e = new ArgumentError("maxDepth must be an integer between 0 and 15");
 * ```
 */
export class ArgumentError extends GraphQLApiError {
  /**
   * Creates the error.
   *
   * @param message what is wrong
   */
  constructor(message: string) {
    super(message, "BAD_ARGUMENT");
    this.name = "ArgumentError";
  }
}

/**
 * A query exceeded a limit (G16): returned edges, paths.
 *
 * @example
 * ```ts
 * const e = new LimitExceededError("Query returns more than 10000 relation edges");
 * console.log(e.code); // "LIMIT_EXCEEDED"
 * ```
 */
export class LimitExceededError extends GraphQLApiError {
  /**
   * Creates the error.
   *
   * @param message what was exceeded
   */
  constructor(message: string) {
    super(message, "LIMIT_EXCEEDED");
    this.name = "LimitExceededError";
  }
}

/**
 * A query produced more response bytes than allowed.
 *
 * @example
 * ```ts
 * const e = new ResponseTooLargeError(1024);
 * console.log(e.code); // "RESPONSE_TOO_LARGE"
 * ```
 */
export class ResponseTooLargeError extends GraphQLApiError {
  /**
   * Creates the error.
   *
   * @param max the limit in bytes
   */
  constructor(readonly max: number) {
    super(
      `Response exceeds the maximum of ${max} bytes; page list fields with 'limit'/'offset' ` +
        "or select fewer fields.",
      "RESPONSE_TOO_LARGE",
    );
    this.name = "ResponseTooLargeError";
  }
}
