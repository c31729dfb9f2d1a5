/**
 * Shared pieces of the write endpoints: JSON success bodies that carry the generation (also as
 * the `Graphsvc-Generation` header) and problem documents for refused writes.
 *
 * @module
 */
import { WriteError } from "../../writes/errors.ts";
import { GENERATION_HEADER } from "../consistency.ts";
import { problem } from "../problem.ts";

/** A JSON success response for a write that will be visible in `generation`. */
export function writeAccepted(
  status: number,
  body: Record<string, unknown>,
  generation: number,
): Response {
  return Response.json({ ...body, generation }, {
    status,
    headers: { [GENERATION_HEADER]: String(generation) },
  });
}

/** The problem document of a refused write; other errors are rethrown (→ 500). */
export function writeRefused(error: unknown): Response {
  if (error instanceof WriteError) {
    return problem(
      error.status,
      error.slug,
      error.message,
      error.field !== undefined ? { field: error.field } : {},
    );
  }
  throw error;
}

/** Reads a JSON request body; `undefined` plus a problem response when it is not JSON. */
export async function readJsonBody(
  request: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return {
      ok: false,
      response: problem(
        400,
        "bad-request",
        "the request body must be JSON (Content-Type: application/json)",
      ),
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await request.arrayBuffer());
  } catch {
    return {
      ok: false,
      response: problem(400, "bad-request", "the request body is not valid UTF-8"),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return {
      ok: false,
      response: problem(
        400,
        "bad-request",
        `the request body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
      ),
    };
  }
}
