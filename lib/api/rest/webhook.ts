/**
 * `POST /api/webhook/reload` (reference R40–R44): with a valid `X-API-Token` it schedules a sync
 * of the data directory (from Git, when the host configured one) and a full rebuild, and answers
 * `202` at once. Sync failures fail that build: they appear in the build stream and in
 * `/api/engine-info`, and the previous graph stays in service.
 *
 * @module
 */
import type { Hono } from "hono";
import type { BuildLog, GraphEngine } from "../../engine.ts";
import { checkApiToken } from "../auth.ts";
import { writeAccepted } from "./write_responses.ts";

/** Brings the data directory up to date before a reload's rebuild (e.g. a Git fetch). */
export type WorkspaceSync = (log: BuildLog) => Promise<void>;

/** Registers the reload webhook. */
export function registerWebhookRoutes(
  app: Hono,
  engine: GraphEngine,
  token: string | undefined,
  sync: WorkspaceSync | undefined,
): void {
  app.post("/api/webhook/reload", async (c) => {
    const refused = await checkApiToken(c.req.raw, token, "the reload webhook");
    if (refused) return refused;
    const generation = engine.requestRebuild(sync ? { before: sync } : {});
    return writeAccepted(202, { status: "reload-scheduled" }, generation);
  });
}
