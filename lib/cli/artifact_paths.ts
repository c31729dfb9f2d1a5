/**
 * Where `build --output-dir` writes artifacts: `<type>/<name>/<filename>`, with `/` in names
 * making nested folders and nothing ever escaping the output directory.
 *
 * @module
 */

/**
 * Relative path of an artifact below the output directory, or `undefined` when a segment is
 * unsafe (`..`, `.`, empty, NUL or backslash).
 *
 * @example
 * ```ts
 * import { artifactRelativePath } from "./artifact_paths.ts";
 * artifactRelativePath("zone_file", "example.org/db", "db.zone"); // "zone_file/example.org/db/db.zone"
 * artifactRelativePath("x", "../etc", "passwd"); // undefined
 * ```
 */
export function artifactRelativePath(
  type: string,
  name: string,
  filename: string,
): string | undefined {
  const segments = [type, ...name.split("/"), ...filename.split("/")];
  for (const s of segments) {
    if (s === "" || s === "." || s === ".." || s.includes("\0") || s.includes("\\")) {
      return undefined;
    }
  }
  return segments.join("/");
}
