/**
 * Naming of asset files inside a data directory (reference R1, R2, R6, R7): which `.csv` files
 * exist below `assets/`, and which workspace path a client-supplied file name stands for.
 *
 * @module
 */
import { normalizeWorkspacePath, UnsafePathError, type Workspace } from "./workspace.ts";

/**
 * Asset files as paths relative to `assets/`, sorted (e.g. `["host.csv", "inventx/a.csv"]`).
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { listAssetFiles } from "./asset_files.ts";
 * await listAssetFiles(new MemoryWorkspace({ "assets/x/a.csv": "name\n" })); // ["x/a.csv"]
 * ```
 */
export async function listAssetFiles(workspace: Workspace): Promise<string[]> {
  return (await workspace.listFiles("assets"))
    .filter((p) => p.toLowerCase().endsWith(".csv"))
    .map((p) => p.slice("assets/".length))
    .sort();
}

/**
 * Validates a client-supplied asset file name (R6): a relative `.csv` path with no `..`, no
 * backslash, no leading `/`. Returns it normalised; throws {@link UnsafePathError} otherwise.
 *
 * @example
 * ```ts
 * import { checkAssetFileName } from "./asset_files.ts";
 * checkAssetFileName("inventx/a.csv"); // "inventx/a.csv"
 * ```
 */
export function checkAssetFileName(requested: string): string {
  if (requested.startsWith("/")) throw new UnsafePathError(requested, "is absolute");
  if (requested.split("/").includes("..")) {
    throw new UnsafePathError(requested, "escapes the assets folder");
  }
  const name = normalizeWorkspacePath(requested);
  if (!name.toLowerCase().endsWith(".csv")) throw new UnsafePathError(requested, "not a .csv file");
  return name;
}

/**
 * Resolves a requested asset file name to its workspace path: an exact relative path below
 * `assets/`, or else a unique base name (published apps address `inventx/a.csv` as `a.csv`).
 * Throws {@link UnsafePathError} for names that are not plain `.csv` paths inside `assets/`.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { resolveAssetFile } from "./asset_files.ts";
 * const ws = new MemoryWorkspace({ "assets/inventx/a.csv": "name\n" });
 * await resolveAssetFile(ws, "a.csv"); // "assets/inventx/a.csv"
 * ```
 */
export async function resolveAssetFile(
  workspace: Workspace,
  requested: string,
): Promise<string | undefined> {
  const name = checkAssetFileName(requested);
  return matchAssetFile(await listAssetFiles(workspace), name);
}

/**
 * The workspace path `name` stands for among `files` (paths relative to `assets/`, as
 * {@link listAssetFiles} returns them): the exact path, else a unique base name.
 *
 * @example
 * ```ts
 * import { matchAssetFile } from "./asset_files.ts";
 * matchAssetFile(["inventx/a.csv", "b.csv"], "a.csv"); // "assets/inventx/a.csv"
 * ```
 */
export function matchAssetFile(files: readonly string[], name: string): string | undefined {
  if (files.includes(name)) return `assets/${name}`;
  if (!name.includes("/")) {
    const matches = files.filter((f) => f.slice(f.lastIndexOf("/") + 1) === name);
    if (matches.length === 1) return `assets/${matches[0]}`;
  }
  return undefined;
}
