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

/** What is switched on, for {@link addFeatures}. */
export interface EnabledParts {
  /** An action runtime is attached (`/api/actions`, MCP action tools). */
  actions?: boolean;
  /** Contracts can be called (asset writes are enabled). */
  contracts?: boolean;
  /** The built-in vault is served at `/vault` (`--vault`). */
  vault?: boolean;
}

/**
 * Adds `actions`, `contracts` and `vault` to `info.features` when those parts are enabled
 * (reference R60); names already present are not repeated. `mcp` and `mcp_write` are added where
 * `/mcp` is mounted.
 *
 * @example
 * ```ts
 * import { addFeatures } from "./info.ts";
 * const info = { edition: "ce" as const, version: "1.0.0", features: ["admin_assets"] };
 * addFeatures(info, { contracts: true });
 * console.log(info.features); // ["admin_assets", "contracts"]
 * ```
 */
export function addFeatures(info: ServerInfo, parts: EnabledParts): void {
  const names = (["actions", "contracts", "vault"] as const).filter((n) => parts[n] === true);
  info.features = [...info.features, ...names.filter((n) => !info.features.includes(n))];
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
