/**
 * Request logging: one `info` line per request with method, path, status and duration. Only
 * these four: never the query string (it may carry tokens), headers or bodies.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";

/** A log sink: `level` is `error`, `warn`, `info` or `debug`. */
export type RequestLogSink = (level: string, text: string) => void;

/**
 * Middleware that logs `METHOD /path STATUS DURATIONms` at `info` once the handler has answered.
 * The path is the percent-encoded URL path (no query string, no control characters); the duration
 * runs until the response starts (a streamed body may go on after that).
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { requestLog } from "./request_log.ts";
 * const app = new Hono();
 * app.use("*", requestLog((level, text) => console.log(level, text)));
 * app.get("/x", (c) => c.text("ok"));
 * await app.fetch(new Request("http://localhost/x?token=secret")); // info GET /x 200 0.1ms
 * ```
 */
export function requestLog(log: RequestLogSink): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const path = encodedPath(c.req.url);
      log("info", `${c.req.method} ${path} ${c.res.status} ${ms.toFixed(1)}ms`);
    }
  };
}

/** The percent-encoded path of a serialised URL (`scheme://host/path?query#hash`). */
function encodedPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  for (const mark of ["?", "#"]) {
    const at = url.indexOf(mark, start);
    if (at >= 0 && at < end) end = at;
  }
  return url.slice(start, end);
}
