/**
 * The routes an app made by `createApp` has registered (handlers only, no middleware), to compare
 * with the route description table (tests/api/openapi_test.ts) and for tooling.
 *
 * @module
 */
import { Hono } from "hono";
import { inspectRoutes } from "hono/dev";

/** One registered route: method (`ALL` for any) and path in Hono syntax. */
export interface RegisteredRoute {
  /** `GET`, `POST`, …, or `ALL`. */
  readonly method: string;
  /** The path as registered (`/api/mutations/:asset`, `/api/assets/*`). */
  readonly route: string;
}

/**
 * The handler routes of `app` (a Hono app, as `createApp` returns), without duplicates.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * const app = new Hono();
 * app.get("/healthz", (c) => c.text("ok"));
 * console.log(registeredRoutes(app)); // [{ method: "GET", route: "/healthz" }]
 * ```
 */
export function registeredRoutes(app: { fetch: unknown }): RegisteredRoute[] {
  if (!(app instanceof Hono)) throw new TypeError("not an app made by createApp (Hono)");
  const seen = new Set<string>();
  const out: RegisteredRoute[] = [];
  for (const r of inspectRoutes(app)) {
    if (r.isMiddleware) continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, route: r.path });
  }
  return out;
}
