/**
 * API token checks (reference R40, R41, R91): the token is compared in constant time (both sides
 * are hashed first, so neither the content nor the length of the secret leaks through timing),
 * and no message ever repeats a token.
 *
 * @module
 */
import { problem } from "./problem.ts";

const encoder = new TextEncoder();

/**
 * Constant-time comparison of two secrets.
 *
 * @example
 * ```ts
 * import { tokensEqual } from "./auth.ts";
 * await tokensEqual("s3cret", "s3cret"); // true
 * ```
 */
export async function tokensEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

/**
 * Checks the `X-API-Token` header against the configured token: `undefined` when it matches,
 * else the problem response to send (`403` when no token is configured, `401` when it is
 * missing or wrong).
 */
export async function checkApiToken(
  request: Request,
  expected: string | undefined,
  what: string,
): Promise<Response | undefined> {
  if (!expected) {
    return problem(403, "forbidden", `${what} is disabled: no API token is configured`);
  }
  const given = request.headers.get("x-api-token");
  if (given === null || given === "") {
    return problem(401, "unauthorized", `${what} requires the X-API-Token header`);
  }
  if (!(await tokensEqual(given, expected))) {
    return problem(401, "unauthorized", `${what}: the X-API-Token is not valid`);
  }
  return undefined;
}
