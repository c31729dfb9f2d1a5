/**
 * RFC 9457 problem documents for every non-2xx REST response (reference R90).
 *
 * @module
 */

/** Problem type slugs used by graphsvc. */
export type ProblemSlug =
  | "bad-request"
  | "not-found"
  | "method-not-allowed"
  | "duplicate-key"
  | "unauthorized"
  | "forbidden"
  | "invalid-transition"
  | "validation-failed"
  | "payload-too-large"
  | "unsupported-media-type"
  | "build-failed"
  | "timeout"
  | "bad-gateway"
  | "service-unavailable"
  | "internal";

const TITLES: Record<ProblemSlug, string> = {
  "bad-request": "Bad Request",
  "not-found": "Not Found",
  "method-not-allowed": "Method Not Allowed",
  "duplicate-key": "Duplicate Key",
  "unauthorized": "Unauthorized",
  "forbidden": "Forbidden",
  "invalid-transition": "Invalid Transition",
  "validation-failed": "Validation Failed",
  // RFC 9110 §15.5.14 renamed 413 "Content Too Large"; the slug keeps the older name.
  "payload-too-large": "Content Too Large",
  "unsupported-media-type": "Unsupported Media Type",
  "build-failed": "Build Failed",
  "timeout": "Timeout",
  "bad-gateway": "Bad Gateway",
  "service-unavailable": "Service Unavailable",
  "internal": "Internal Server Error",
};

/** `application/problem+json` body (rest-api.md R90), as built by {@link problem}. */
export interface ProblemDocument {
  /** `urn:graphsvc:problem:<slug>`. */
  type: string;
  /** Short summary of the status. */
  title: string;
  /** HTTP status. */
  status: number;
  /** What exactly was wrong. */
  detail: string;
}

/**
 * Builds an `application/problem+json` response.
 *
 * @example
 * ```ts
 * import { problem } from "./problem.ts";
 * const res = problem(404, "not-found", "no asset file 'x.csv'");
 * console.log(res.status, res.headers.get("content-type")); // 404 "application/problem+json"
 * ```
 */
export function problem(
  status: number,
  slug: ProblemSlug,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body: ProblemDocument & Record<string, unknown> = {
    type: `urn:graphsvc:problem:${slug}`,
    title: TITLES[slug],
    status,
    detail,
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
