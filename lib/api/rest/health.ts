/**
 * Operational probes: `GET /healthz` (liveness: the process answers) and `GET /readyz`
 * (readiness: a first build has been published, so queries see a real graph).
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphEngine } from "../../engine.ts";
import { problem } from "../problem.ts";

/**
 * Registers `GET /healthz` (always `200 {"status":"ok"}`) and `GET /readyz` (`503` problem
 * document until a snapshot of generation 1 or later is published, then
 * `200 {"status":"ready","generation":N}`).
 *
 * @example
 * ```ts ignore
 * registerHealthRoutes(app, engine);
 * const res = await app.fetch(new Request("http://localhost/readyz"));
 * console.log(res.status); // 503 before the first published build, 200 after
 * ```
 */
export function registerHealthRoutes(app: Hono, engine: GraphEngine): void {
  app.get("/healthz", () => Response.json({ status: "ok" }));
  app.get("/readyz", () => {
    const generation = engine.current.generation;
    if (generation < 1) {
      return problem(503, "service-unavailable", "no build has been published yet", {
        generation,
      });
    }
    return Response.json({ status: "ready", generation });
  });
}
