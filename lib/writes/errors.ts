/**
 * Errors of the write path. Each carries the HTTP status and problem slug it maps to (reference
 * R90), so every transport (REST, GraphQL, MCP) reports the same failure the same way.
 *
 * @module
 */

/** Problem slugs a write can fail with (a subset of rest-api.md R90). */
export type WriteErrorSlug =
  | "bad-request"
  | "not-found"
  | "duplicate-key"
  | "forbidden"
  | "validation-failed";

const STATUS: Record<WriteErrorSlug, number> = {
  "bad-request": 400,
  "not-found": 404,
  "duplicate-key": 409,
  "forbidden": 403,
  "validation-failed": 400,
};

/**
 * A write that was refused; nothing was written.
 *
 * @example
 * ```ts
 * import { WriteError } from "./errors.ts";
 * const e = new WriteError("duplicate-key", "host 'web-1' already exists");
 * console.log(e.status); // 409
 * ```
 */
export class WriteError extends Error {
  /** HTTP status the error maps to. */
  readonly status: number;

  /**
   * Creates the error.
   * @param slug problem type (R90)
   * @param message what is wrong, naming the file, row or field
   * @param field the offending field or column, when one is to blame
   */
  constructor(readonly slug: WriteErrorSlug, message: string, readonly field?: string) {
    super(message);
    this.name = "WriteError";
    this.status = STATUS[slug];
  }
}
