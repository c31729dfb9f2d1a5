/**
 * Discovery endpoints (reference R60–R61): `/api/features` and `/api/engine-info`.
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphEngine } from "../../engine.ts";

/** What the server reports about itself. */
export interface ServerInfo {
  /** `ce` (community) or `ee` (service edition). */
  edition: "ce" | "ee";
  /** Engine version. */
  version: string;
  /** Enabled feature names (reference R60). */
  features: string[];
}

/** Registers `GET /api/features` and `GET /api/engine-info`. */
export function registerInfoRoutes(app: Hono, engine: GraphEngine, info: ServerInfo): void {
  app.get("/api/features", () => Response.json(info.features));
  app.get("/api/engine-info", () => {
    const status = engine.status;
    const snapshot = engine.current;
    return Response.json({
      name: "graphsvc",
      edition: info.edition,
      version: info.version,
      is_publishing: engine.busy,
      building: engine.busy,
      generation: snapshot.generation,
      // R43: the error of the newest attempt when it failed (the served graph is older).
      last_error: status && status.status === "failed" ? status.error : null,
      last_build: status
        ? {
          generation: status.generation,
          status: status.status,
          started_at: status.startedAt,
          finished_at: status.finishedAt,
          error: status.error,
          error_count: status.errorCount,
          errors: status.issues.filter((i) => i.severity === "error"),
          warnings: status.issues.filter((i) => i.severity === "warning").length,
        }
        : null,
      stats: snapshot.stats,
      modules: snapshot.manifest.modules.map((m) => ({
        name: m.name,
        version: m.version,
        source: m.layer,
      })),
    });
  });
}
