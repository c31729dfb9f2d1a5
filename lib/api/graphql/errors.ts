/**
 * Error classes of the GraphQL layer. They are thrown inside resolvers; graphql-js wraps them in
 * a `GraphQLError` that carries the source location and path of the failing field.
 *
 * @module
 */

/** Base class of every error raised by the GraphQL layer. */
export class GraphQLApiError extends Error {
  /** Machine-readable code, copied to `extensions.code` of the GraphQL error. */
  readonly code: string;
  /** Copied by graphql-js into the `extensions` of the located GraphQL error. */
  readonly extensions: { readonly code: string };
  /** @param message human-readable description  @param code machine-readable code */
  constructor(message: string, code: string) {
    super(message);
    this.name = "GraphQLApiError";
    this.code = code;
    this.extensions = { code };
  }
}

/** An invalid `filter` argument (G8): not an object, unknown operator, bad operand. */
export class FilterError extends GraphQLApiError {
  /** Filter entry (property key) the problem was found in, if any. */
  readonly key: string | undefined;
  /** @param message what is wrong  @param key the offending filter entry */
  constructor(message: string, key?: string) {
    super(
      key === undefined ? `invalid filter: ${message}` : `invalid filter on '${key}': ${message}`,
      "BAD_FILTER",
    );
    this.name = "FilterError";
    this.key = key;
  }
}

/** An invalid argument of `findPaths` / `listNodes`. */
export class ArgumentError extends GraphQLApiError {
  /** @param message what is wrong */
  constructor(message: string) {
    super(message, "BAD_ARGUMENT");
    this.name = "ArgumentError";
  }
}

/** A query exceeded a limit (G16): returned edges, paths. */
export class LimitExceededError extends GraphQLApiError {
  /** @param message what was exceeded */
  constructor(message: string) {
    super(message, "LIMIT_EXCEEDED");
    this.name = "LimitExceededError";
  }
}
