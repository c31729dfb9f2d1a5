/**
 * Reading a workspace into memory. A build first loads every file it may need into a
 * {@link SourceSet}; everything after that is synchronous, pure and deterministic.
 *
 * Layers: each `--module` is one layer (in command-line order), the data directory is the last
 * layer (reference MP12). Rules come from every layer; assets and inputs from the data directory,
 * which is authoritative (reference O15).
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";

/** Folders read into a layer (relative to the layer root). */
export const LAYER_FOLDERS = [
  "assets",
  "input",
  "models",
  "compliance",
  "output",
  "schemas",
  "contracts",
  "actions",
] as const;

/** One file of a layer, with the path to show users. */
export interface SourceFile {
  /** Path relative to the layer root, e.g. `models/net.toml`. */
  readonly relPath: string;
  /** Path shown in messages: `models/net.toml` for the data dir, `<module>/models/net.toml` else. */
  readonly displayPath: string;
  /** File content. */
  readonly text: string;
  /** The layer that holds the file. */
  readonly layer: Layer;
}

/** The data directory or one module. */
export interface Layer {
  /** `data` for the data directory, otherwise the module's id. */
  readonly id: string;
  /** Whether this layer is the authoritative data directory. */
  readonly isDataDir: boolean;
  /** Where the layer lives (directory path or `memory:`). */
  readonly location: string;
  /** Text of `module.toml`, when present. */
  readonly manifestText?: string;
  /** Files of the layer by relative path (sorted insertion). */
  readonly files: ReadonlyMap<string, string>;
}

/** Everything a build reads, held in memory. */
export interface SourceSet {
  /** Module layers in load order. */
  readonly modules: readonly Layer[];
  /** The data directory layer. */
  readonly data: Layer;
}

/** A layer's source, before loading. */
export interface LayerSource {
  /** Layer id (`data` or module id). */
  id: string;
  /** The workspace to read from. */
  workspace: Workspace;
}

/**
 * Loads a layer. A module whose root has no `module.toml` but a `data/module.toml` is rooted at
 * `data/` (reference MP2).
 */
export async function loadLayer(
  id: string,
  workspace: Workspace,
  isDataDir: boolean,
): Promise<Layer> {
  let prefix = "";
  let manifestText = await workspace.readText("module.toml");
  if (manifestText === undefined && !isDataDir) {
    const nested = await workspace.readText("data/module.toml");
    if (nested !== undefined) {
      manifestText = nested;
      prefix = "data/";
    }
  }
  const files = new Map<string, string>();
  for (const folder of LAYER_FOLDERS) {
    for (const path of await workspace.listFiles(prefix + folder)) {
      const text = await workspace.readText(path);
      if (text !== undefined) files.set(path.slice(prefix.length), text);
    }
  }
  return {
    id,
    isDataDir,
    location: workspace.location + (prefix ? "/data" : ""),
    manifestText,
    files,
  };
}

/**
 * Loads the data directory and every module into a {@link SourceSet}.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { loadSourceSet } from "./sources.ts";
 * const set = await loadSourceSet(new MemoryWorkspace({ "assets/a.csv": "name\nx\n" }));
 * console.log([...set.data.files.keys()]); // ["assets/a.csv"]
 * ```
 */
export async function loadSourceSet(
  dataDir: Workspace,
  modules: readonly LayerSource[] = [],
): Promise<SourceSet> {
  const moduleLayers: Layer[] = [];
  for (const m of modules) moduleLayers.push(await loadLayer(m.id, m.workspace, false));
  return { modules: moduleLayers, data: await loadLayer("data", dataDir, true) };
}

/** Every layer in rule order: modules first, the data directory last. */
export function layersInOrder(set: SourceSet): Layer[] {
  return [...set.modules, set.data];
}

/**
 * Files of `folder` across layers in rule order; within a layer by path (reference O9).
 * `extensions` filters by suffix (e.g. `[".toml"]`); omit it to get every file.
 */
export function filesIn(
  set: SourceSet,
  folder: string,
  extensions?: readonly string[],
): SourceFile[] {
  const out: SourceFile[] = [];
  for (const layer of layersInOrder(set)) {
    const paths = [...layer.files.keys()].filter((p) => p.startsWith(folder + "/")).sort();
    for (const relPath of paths) {
      if (extensions && !extensions.some((e) => relPath.endsWith(e))) continue;
      out.push({
        relPath,
        displayPath: layer.isDataDir ? relPath : `${layer.id}/${relPath}`,
        text: layer.files.get(relPath)!,
        layer,
      });
    }
  }
  return out;
}
