/**
 * File-system paths of the runtime adapters (POSIX `/` paths).
 *
 * @module
 */

/**
 * `path` resolved against the directory `base` (unless absolute), with `.` and `..` segments
 * and repeated slashes removed; `..` never climbs above the root.
 *
 * @example
 * ```ts
 * import { resolveFsPath } from "./fs_path.ts";
 * console.log(resolveFsPath("/srv/app/", "./data/")); // "/srv/app/data"
 * console.log(resolveFsPath("/srv/app", "../x/./y")); // "/srv/x/y"
 * console.log(resolveFsPath("/srv/app", "/abs")); // "/abs"
 * ```
 */
export function resolveFsPath(base: string, path: string): string {
  if (path.startsWith("/")) return path;
  const parts = `${base.replace(/\/+$/, "")}/${path}`.split("/");
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.length > 1 ? out.pop() : undefined;
    else if (p !== "." && !(p === "" && out.length > 0)) out.push(p);
  }
  return out.join("/") || "/";
}
