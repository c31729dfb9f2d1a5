/**
 * Raw asset file endpoints (reference R1–R2): list and read CSV files of the data directory.
 * Paths are resolved strictly below `assets/`; nothing outside it is ever read.
 *
 * @module
 */
import type { Hono } from "hono";
import type { Workspace } from "../../workspace/workspace.ts";
import { UnsafePathError } from "../../workspace/workspace.ts";
import { listAssetFiles, resolveAssetFile } from "../../workspace/asset_files.ts";
import { problem } from "../problem.ts";

/** Registers `GET /api/assets` and `GET /api/assets/{file}`. */
export function registerAssetReadRoutes(app: Hono, workspace: Workspace): void {
  const list = async () => Response.json(await listAssetFiles(workspace));
  app.get("/api/assets", list);
  app.get("/api/assets/", list);
  app.get("/api/assets/*", async (c) => {
    const raw = c.req.path.slice("/api/assets/".length);
    let requested: string;
    try {
      requested = decodeURIComponent(raw);
    } catch {
      return problem(400, "bad-request", "asset file name is not valid percent-encoding");
    }
    let path: string | undefined;
    try {
      path = await resolveAssetFile(workspace, requested);
    } catch (e) {
      if (e instanceof UnsafePathError) return problem(400, "bad-request", e.message);
      throw e;
    }
    let text: string | undefined;
    try {
      text = path === undefined ? undefined : await workspace.readText(path);
    } catch (e) {
      // A link leading out of the data directory is answered like a missing file.
      if (!(e instanceof UnsafePathError)) throw e;
    }
    if (text === undefined) return problem(404, "not-found", `no asset file '${requested}'`);
    return new Response(text, { headers: { "content-type": "text/csv; charset=utf-8" } });
  });
}
