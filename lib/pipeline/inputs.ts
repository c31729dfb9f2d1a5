/**
 * JSON input files referenced by `{ "json!" = "file.json" }` (reference A24–A25).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { parseJson } from "../formats/json.ts";
import type { Layer, SourceFile, SourceSet } from "../workspace/sources.ts";

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function normalize(path: string): string | undefined {
  const parts: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/**
 * Resolves and parses a `json!` reference made by `from`: `input/` of the data directory, then
 * `input/` of the referencing layer, then the referencing file's folder, then the layer root,
 * then the data directory root (A25; some published modules write `data/x.json`; root files
 * are read by workspace/root_inputs.ts). Results are cached per build in `cache`.
 * Throws a `ParseError` (code `json_syntax`, with line and column) when the file holds invalid JSON.
 */
export function readJsonInput(
  sources: SourceSet,
  ref: string,
  from: SourceFile,
  cache: Map<string, { path: string; value: JsonValue } | undefined>,
): { path: string; value: JsonValue } | undefined {
  const candidates: [Layer, string | undefined][] = [
    [sources.data, normalize(`input/${ref}`)],
    [from.layer, normalize(`input/${ref}`)],
    [from.layer, normalize(`${dirOf(from.relPath)}/${ref}`)],
    [from.layer, normalize(ref)],
    [from.layer, normalize(ref.replace(/^data\//, ""))],
    // A25: the data directory root, also for rule files of modules.
    [sources.data, normalize(ref)],
    [sources.data, normalize(ref.replace(/^data\//, ""))],
  ];
  for (const [layer, path] of candidates) {
    if (!path) continue;
    const text = layer.files.get(path);
    if (text === undefined) continue;
    const display = layer.isDataDir ? path : `${layer.id}/${path}`;
    if (cache.has(display)) return cache.get(display);
    const result = { path: display, value: parseJsonText(text, display) };
    cache.set(display, result);
    return result;
  }
  return undefined;
}

/** Parses JSON text, reporting syntax errors with line and column (code `json_syntax`). */
export function parseJsonText(text: string, file: string): JsonValue {
  return parseJson(text, file) as JsonValue;
}
