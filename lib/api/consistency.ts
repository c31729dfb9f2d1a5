/**
 * Read-your-writes (issue: the live service): every accepted write answers with the build
 * generation that will contain it, and every read may ask to be answered from a snapshot at least
 * that new with the request header `Graphsvc-Min-Generation: N` (or `?min_generation=N`). The
 * read waits for that snapshot (bounded), answers `409` when the build for N failed, and names
 * the generation it was answered from in `Graphsvc-Generation`.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GraphEngine, Snapshot } from "../engine.ts";
import { problem } from "./problem.ts";

/** Response header naming the generation a read was answered from, or a write will appear in. */
export const GENERATION_HEADER = "Graphsvc-Generation";
/** Response header with the outcome of the newest build attempt: `ok`, `degraded`, `failed`. */
export const BUILD_STATUS_HEADER = "Graphsvc-Build-Status";
/** Request header asking for a snapshot of at least this generation. */
export const MIN_GENERATION_HEADER = "Graphsvc-Min-Generation";
/** Default bound of the wait for a generation (milliseconds). */
export const DEFAULT_GENERATION_WAIT_MS = 10_000;

const pinned = new WeakMap<Request, Snapshot>();

/**
 * The snapshot a request is answered from: the one its consistency check pinned, else the
 * engine's current snapshot.
 */
export function snapshotFor(engine: GraphEngine, request: Request): Snapshot {
  return pinned.get(request) ?? engine.current;
}

/**
 * Sets a header on the response of a Hono context in place; only a response with immutable
 * headers (a fetched or redirect response) is copied. Assigning `c.res` again would make Hono
 * copy the response and turn its text body into a stream, on every request.
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const response = withHeader(c.res, name, value);
  if (response === c.res) return;
  c.res = undefined; // replaced, not merged: Hono would copy the old headers onto the copy
  c.res = response;
}

/** Sets a header on a response, copying the response when its headers are immutable. */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

function requestedGeneration(c: Context): number | undefined | "invalid" {
  const raw = c.req.header(MIN_GENERATION_HEADER) ?? c.req.query("min_generation");
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) return "invalid";
  return Number(raw.trim());
}

/**
 * Middleware for read endpoints: honours `Graphsvc-Min-Generation`, pins the snapshot the request
 * is answered from and reports its generation in `Graphsvc-Generation`.
 *
 * @example
 * ```ts ignore
 * app.use("/api/outputs/*", readConsistency(engine));
 * ```
 */
export function readConsistency(
  engine: GraphEngine,
  waitMs: number = DEFAULT_GENERATION_WAIT_MS,
): MiddlewareHandler {
  return async (c, next) => {
    const wanted = requestedGeneration(c);
    if (wanted === "invalid") {
      return problem(
        400,
        "bad-request",
        `${MIN_GENERATION_HEADER} must be a non-negative integer`,
      );
    }
    let snapshot = engine.current;
    if (wanted !== undefined) {
      const wait = await engine.awaitGeneration(wanted, waitMs);
      switch (wait.kind) {
        case "ready":
          snapshot = wait.snapshot;
          break;
        case "failed":
          return problem(
            409,
            "build-failed",
            `build ${wait.status.generation} failed: ${wait.status.error}`,
            { generation: wait.status.generation },
            { [GENERATION_HEADER]: String(engine.current.generation) },
          );
        case "timeout":
          return problem(
            504,
            "timeout",
            `generation ${wanted} was not published within ${waitMs} ms`,
            {},
            { [GENERATION_HEADER]: String(engine.current.generation) },
          );
        case "unscheduled":
          return problem(
            400,
            "bad-request",
            `generation ${wanted} has not been scheduled (the newest is ${wait.latest})`,
          );
      }
    }
    pinned.set(c.req.raw, snapshot);
    await next();
    // A response that already names a generation (a GraphQL mutation's write) keeps it.
    if (!c.res.headers.has(GENERATION_HEADER)) {
      setResponseHeader(c, GENERATION_HEADER, String(snapshot.generation));
    }
  };
}
