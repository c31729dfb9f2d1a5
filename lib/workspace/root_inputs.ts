/**
 * `json!` files outside `input/` (reference A25): a relative `json!` path resolves against
 * `<data-dir>/input/`, then the referencing TOML file's directory, then the data directory root.
 * Layers only read their known folders (sources.ts), so files a rule names at a layer root
 * (`regions.json`, or `data/regions.json` as some published modules write) are read here,
 * on demand: every static `json!` reference of every rule file is looked up at the root of
 * each layer and of the data directory. Nothing is listed, only named files are read.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";
import { RULE_FOLDERS } from "./folders.ts";

const JSON_REF = /["']json!["']\s*=\s*(?:"([^"{}\n]+)"|'([^'{}\n]+)')/g;

/** Static `json!` references of a layer's rule files. */
function jsonRefs(files: ReadonlyMap<string, string>): Set<string> {
  const refs = new Set<string>();
  for (const [path, text] of files) {
    if (!path.endsWith(".toml") || !RULE_FOLDERS.some((f) => path.startsWith(`${f}/`))) continue;
    if (!text.includes("json!")) continue;
    for (const m of text.matchAll(JSON_REF)) refs.add((m[1] ?? m[2]).trim());
  }
  return refs;
}

function rootPath(ref: string): string | undefined {
  const parts = ref.split("/").filter((s) => s !== "" && s !== ".");
  if (parts.length === 0 || parts.includes("..") || ref.startsWith("/")) return undefined;
  return parts.join("/");
}

/**
 * Reads into `files` (one layer's files, read from `prefix` of `workspace`) the root-level
 * files that rule files of this layer or of `others` name in `json!`, also without a leading
 * `data/` (A25). Files already loaded are kept.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { loadSourceSet } from "./sources.ts";
 * const set = await loadSourceSet(new MemoryWorkspace({
 *   "models/a.toml": 'r = { "json!" = "regions.json" }\n',
 *   "regions.json": "{}",
 * }));
 * console.log(set.data.files.has("regions.json")); // true
 * ```
 */
export async function addRootJsonInputs(
  files: Map<string, string>,
  workspace: Workspace,
  prefix: string,
  others: readonly { readonly files: ReadonlyMap<string, string> }[] = [],
): Promise<void> {
  const refs = jsonRefs(files);
  for (const layer of others) for (const r of jsonRefs(layer.files)) refs.add(r);
  for (const ref of refs) {
    for (const candidate of new Set([ref, ref.replace(/^data\//, "")])) {
      const path = rootPath(candidate);
      if (!path || files.has(path)) continue;
      const text = await workspace.readText(prefix + path).catch(() => undefined);
      if (text !== undefined) files.set(path, text);
    }
  }
}
