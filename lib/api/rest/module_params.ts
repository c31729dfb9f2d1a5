/**
 * `GET`, `POST`, `PUT /api/module-params` (reference R20–R23): the current parameters with their
 * declarations, and all-or-nothing updates that are persisted and followed by a rebuild.
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphEngine } from "../../engine.ts";
import type { JsonValue } from "../../graph/graph.ts";
import {
  describeParams,
  loadPersistedParams,
  persistParams,
  validateParamUpdate,
} from "../../writes/module_params.ts";
import { KeyedMutex } from "../../writes/keyed_mutex.ts";
import { readJsonBody, writeAccepted, writeRefused } from "./write_responses.ts";
import { bodyProblem } from "../openapi/body.ts";
import { ModuleParamsUpdate } from "../openapi/schemas.ts";

/** Registers the module parameter routes. `settled` resolves once a first build has finished. */
export function registerModuleParamRoutes(
  app: Hono,
  engine: GraphEngine,
  settled: () => Promise<void>,
): void {
  const mutex = new KeyedMutex();
  app.get("/api/module-params", async () => {
    await settled();
    return Response.json(describeParams(engine.current.manifest, engine.params));
  });
  const update = async (request: Request): Promise<Response> => {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const refused = bodyProblem(
      ModuleParamsUpdate, // the shape the API document gives (R21)
      body.value,
      "a JSON object of parameter values",
      "a string, number, boolean or null",
    );
    if (refused) return refused;
    await settled();
    const manifest = engine.current.manifest;
    try {
      const changes = validateParamUpdate(manifest, body.value);
      return await mutex.run("params", async () => {
        const next: Record<string, JsonValue> = { ...engine.params };
        const persisted = await loadPersistedParams(engine.workspace);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null || value === "") {
            delete next[name];
            delete persisted[name];
          } else {
            next[name] = value;
            persisted[name] = value;
          }
        }
        await persistParams(engine.workspace, persisted);
        engine.setParams(next);
        const generation = engine.requestRebuild();
        return writeAccepted(202, describeParams(manifest, next), generation);
      });
    } catch (e) {
      return writeRefused(e);
    }
  };
  app.post("/api/module-params", (c) => update(c.req.raw));
  app.put("/api/module-params", (c) => update(c.req.raw));
}
