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
import { type Workspace, WorkspaceUnavailableError } from "./workspace.ts";
import { ParseError } from "../formats/errors.ts";
import { rejectNul } from "../formats/encoding.ts";
import { addRootJsonInputs } from "./root_inputs.ts";
import { aliasLayerFiles } from "./aliases.ts";
import { LAYER_FOLDERS, RULE_FOLDERS } from "./folders.ts";

export { LAYER_FOLDERS, RULE_FOLDERS };

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
  /**
   * Files that could not be read as text (invalid UTF-8, NUL bytes): structural errors of the
   * build, located at the bad byte. Those files are not in `files`.
   */
  readonly errors?: readonly ParseError[];
  /** `resource_aliases` its dependent declared (old type → new type, MP17); absent when none. */
  readonly resourceAliases?: Readonly<Record<string, string>>;
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
  /** `resource_aliases` its dependent declared (old type → new type, MP17). */
  resourceAliases?: Readonly<Record<string, string>>;
}

/**
 * Where a layer's files are: `data/` for a module whose root has no `module.toml` but a
 * `data/module.toml` (reference MP2), else the root (`""`). The data directory is its own root.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { layerPrefix } from "./sources.ts";
 * const ws = new MemoryWorkspace({ "data/module.toml": "[module]\nname = 'm'\n" });
 * console.log(await layerPrefix(ws, false)); // "data/"
 * ```
 */
export async function layerPrefix(workspace: Workspace, isDataDir: boolean): Promise<string> {
  if (isDataDir || (await workspace.readText("module.toml")) !== undefined) return "";
  return (await workspace.readText("data/module.toml")) !== undefined ? "data/" : "";
}

/**
 * The `.toml` files of one folder of a layer (`actions`, `contracts`), paths relative to the
 * layer's root (see {@link layerPrefix}), in listing order.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { layerTomlFiles } from "./sources.ts";
 * const ws = new MemoryWorkspace({ "actions/a.toml": 'name = "a"', "actions/b.txt": "" });
 * console.log((await layerTomlFiles(ws, "actions", "")).map((f) => f.path)); // ["actions/a.toml"]
 * ```
 */
export async function layerTomlFiles(
  workspace: Workspace,
  folder: string,
  prefix: string,
): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const path of await workspace.listFiles(`${prefix}${folder}`)) {
    if (!path.endsWith(".toml")) continue;
    const text = await workspace.readText(path);
    if (text !== undefined) out.push({ path: path.slice(prefix.length), text });
  }
  return out;
}

/**
 * Loads a layer. A module whose root has no `module.toml` but a `data/module.toml` is rooted at
 * `data/` (reference MP2). Root-level files named by `json!` in rule files of this layer or of
 * `jsonRefsFrom` are read too (A25, root_inputs.ts).
 */
export async function loadLayer(
  id: string,
  workspace: Workspace,
  isDataDir: boolean,
  jsonRefsFrom: readonly Layer[] = [],
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
  const errors: ParseError[] = [];
  const display = (relPath: string) => (isDataDir ? relPath : `${id}/${relPath}`);
  for (const folder of LAYER_FOLDERS) {
    for (const path of await workspace.listFiles(prefix + folder)) {
      const relPath = path.slice(prefix.length);
      const text = await layerFileText(workspace, path, display(relPath));
      if (text instanceof ParseError) errors.push(text);
      else if (text !== undefined) files.set(relPath, text);
    }
  }
  await addRootJsonInputs(files, workspace, prefix, jsonRefsFrom);
  return {
    id,
    isDataDir,
    location: workspace.location + (prefix ? "/data" : ""),
    manifestText,
    files,
    errors,
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
  if ((await dataDir.available?.()) === false) {
    throw new WorkspaceUnavailableError("the data directory");
  }
  const moduleLayers: Layer[] = [];
  for (const m of modules) {
    if ((await m.workspace.available?.()) === false) {
      throw new WorkspaceUnavailableError(`module '${m.id}'`);
    }
    const layer = await loadLayer(m.id, m.workspace, false);
    const aliases = m.resourceAliases;
    // MP17: the dependency's type references are read through its aliases.
    moduleLayers.push(
      aliases && Object.keys(aliases).length > 0
        ? {
          ...layer,
          ...aliasLayerFiles(layer.files, layer.manifestText, aliases),
          resourceAliases: aliases,
        }
        : layer,
    );
  }
  return { modules: moduleLayers, data: await loadLayer("data", dataDir, true, moduleLayers) };
}

/** What changed in the data directory since a source set was loaded. */
export interface DataDirChanges {
  /** Data-directory paths that may have changed (written, created or removed). */
  readonly paths: ReadonlySet<string>;
  /**
   * Texts some of those paths were given by the caller's own atomic writes (path → text, exactly
   * as written): taken as they are instead of read again.
   */
  readonly written?: ReadonlyMap<string, string>;
}

/**
 * The source set of the next build, read again only where the data directory changed: every path
 * named in `changes` is taken from `changes.written` or read; when one of them is new, gone or
 * unreadable the folders are listed again too (files added or removed show) and a file the
 * previous set does not have is read; every other file keeps the text of `previous`. Module
 * layers are those of `previous` (modules are read again by {@link loadSourceSet}). Answers
 * `undefined` where only a full load is right: the
 * previous set had unreadable files, or the manifest, a rule file or a root-level input changed
 * (what a rule file names at the root is read as {@link loadLayer} does).
 *
 * The caller vouches that no path outside `changes.paths` changed since `previous` was loaded
 * (the engine does when every request since names its paths).
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { loadSourceSet, refreshSourceSet } from "./sources.ts";
 * const ws = new MemoryWorkspace({ "assets/a.csv": "name\nx\n", "assets/b.csv": "name\ny\n" });
 * const before = await loadSourceSet(ws);
 * const text = "name\nz\n";
 * await ws.writeTextAtomic("assets/a.csv", text);
 * const paths = new Set(["assets/a.csv"]);
 * const next = await refreshSourceSet(before, ws, { paths, written: new Map([["assets/a.csv", text]]) });
 * console.log(next?.data.files.get("assets/a.csv"), next?.data.files.get("assets/b.csv") === before.data.files.get("assets/b.csv")); // "name\nz\n" true
 * ```
 */
export async function refreshSourceSet(
  previous: SourceSet,
  dataDir: Workspace,
  changes: DataDirChanges,
): Promise<SourceSet | undefined> {
  const prev = previous.data;
  if ((prev.errors?.length ?? 0) > 0) return undefined;
  for (const path of changes.paths) {
    const folder = topFolder(path);
    if (!isLayerFolder(folder) || RULE_FOLDERS.includes(folder)) return undefined;
  }
  if ((await dataDir.available?.()) === false) {
    throw new WorkspaceUnavailableError("the data directory");
  }
  const changed = await changedFilesInPlace(prev, dataDir, changes);
  if (changed) return { modules: previous.modules, data: { ...prev, files: changed } };
  const files = new Map<string, string>();
  const errors: ParseError[] = [];
  for (const folder of LAYER_FOLDERS) {
    for (const path of await dataDir.listFiles(folder)) {
      const kept = changes.paths.has(path) ? undefined : prev.files.get(path);
      if (kept !== undefined) {
        files.set(path, kept);
        continue;
      }
      const text = await layerFileText(dataDir, path, path, changes.written?.get(path));
      if (text instanceof ParseError) errors.push(text);
      else if (text !== undefined) files.set(path, text);
    }
  }
  // Root-level inputs named by rule files: the rule files did not change, so neither did they.
  for (const [path, text] of prev.files) if (!isLayerFolder(topFolder(path))) files.set(path, text);
  return { modules: previous.modules, data: { ...prev, files, errors } };
}

/**
 * The files of `prev` with the changed ones read again, when every changed path is a file `prev`
 * has and still exists as clean text: then no file was added or removed and no folder needs
 * listing. `undefined` otherwise (the caller lists the folders).
 */
async function changedFilesInPlace(
  prev: Layer,
  dataDir: Workspace,
  changes: DataDirChanges,
): Promise<Map<string, string> | undefined> {
  const texts = new Map<string, string>();
  for (const path of changes.paths) {
    if (!prev.files.has(path)) return undefined;
    const text = await layerFileText(dataDir, path, path, changes.written?.get(path));
    if (text === undefined || text instanceof ParseError) return undefined;
    texts.set(path, text);
  }
  const files = new Map(prev.files);
  for (const [path, text] of texts) files.set(path, text);
  return files;
}

/**
 * The text of one file of a layer — `written` when the caller gives it, else read — `undefined`
 * when the file does not exist, or the error (located at `display`, the path users see) of a
 * file that is not clean text (invalid UTF-8, NUL bytes).
 */
async function layerFileText(
  workspace: Workspace,
  path: string,
  display: string,
  written?: string,
): Promise<string | ParseError | undefined> {
  try {
    const text = written ?? await workspace.readText(path);
    if (text !== undefined) rejectNul(text, display);
    return text;
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    return new ParseError(e.reason, display, e.line, e.column, e.code);
  }
}

/** The first segment of a relative path (`""` for a root-level file). */
function topFolder(path: string): string {
  const slash = path.indexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function isLayerFolder(folder: string): boolean {
  return (LAYER_FOLDERS as readonly string[]).includes(folder);
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
