/**
 * Raw asset file endpoints (reference R1–R2): list and read CSV files of the data directory.
 * Paths are resolved strictly below `assets/`; nothing outside it is ever read.
 *
 * @module
 */
import type { Hono } from "hono";
import type { Workspace } from "../../workspace/workspace.ts";
import { normalizeWorkspacePath, UnsafePathError } from "../../workspace/workspace.ts";
import { problem } from "../problem.ts";

/** Asset files as paths relative to `assets/`, sorted (e.g. `["host.csv", "inventx/a.csv"]`). */
export async function listAssetFiles(workspace: Workspace): Promise<string[]> {
  return (await workspace.listFiles("assets"))
    .filter((p) => p.toLowerCase().endsWith(".csv"))
    .map((p) => p.slice("assets/".length))
    .sort();
}

/**
 * Resolves a requested asset file name to its workspace path: an exact relative path below
 * `assets/`, or else a unique base name (published apps address `inventx/a.csv` as `a.csv`).
 * Throws {@link UnsafePathError} for names that are not plain `.csv` paths inside `assets/`.
 */
export async function resolveAssetFile(
  workspace: Workspace,
  requested: string,
): Promise<string | undefined> {
  const name = normalizeWorkspacePath(requested);
  if (!name.toLowerCase().endsWith(".csv")) throw new UnsafePathError(requested, "not a .csv file");
  const files = await listAssetFiles(workspace);
  if (files.includes(name)) return `assets/${name}`;
  if (!name.includes("/")) {
    const matches = files.filter((f) => f.slice(f.lastIndexOf("/") + 1) === name);
    if (matches.length === 1) return `assets/${matches[0]}`;
  }
  return undefined;
}

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
    const text = path === undefined ? undefined : await workspace.readText(path);
    if (text === undefined) return problem(404, "not-found", `no asset file '${requested}'`);
    return new Response(text, { headers: { "content-type": "text/csv; charset=utf-8" } });
  });
}
