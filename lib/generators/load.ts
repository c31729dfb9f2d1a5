/**
 * Reading the generator declarations and parameter values straight from the manifests of the
 * data directory and the modules, before a build reads its sources (reference GN4, GN5).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Layer, LayerSource } from "../workspace/sources.ts";
import { mergeManifests } from "../workspace/manifest.ts";
import { resolveParams } from "../pipeline/params.ts";
import { IssueCollector } from "../pipeline/issues.ts";
import { type GeneratorDeclaration, readGenerators } from "./declarations.ts";

/** Declarations and resolved parameters of a workspace. */
export interface LoadedGenerators {
  /** Generators in run order. */
  generators: GeneratorDeclaration[];
  /** Parameter values (defaults merged with the given ones, MP27). */
  params: Record<string, JsonValue>;
}

async function manifestLayer(
  id: string,
  ws: Workspace,
  isDataDir: boolean,
): Promise<Layer | undefined> {
  let text = await ws.readText("module.toml");
  let location = ws.location;
  if (text === undefined && !isDataDir) {
    text = await ws.readText("data/module.toml");
    location += "/data";
  }
  if (text === undefined) return undefined;
  return { id, isDataDir, location, manifestText: text, files: new Map() };
}

/**
 * Loads every generator of `modules` (load order) and the data directory (last). Throws
 * `ParseError` for a manifest that is not TOML and `GeneratorConfigError` for an invalid
 * generator table.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { loadGenerators } from "./load.ts";
 * const ws = new MemoryWorkspace({ "module.toml": '[generator.a]\nurl = "http://127.0.0.1:9/a"\ntarget_input = "a.json"\n' });
 * const { generators } = await loadGenerators(ws, [], {});
 * console.log(generators[0].name); // "a"
 * ```
 */
export async function loadGenerators(
  dataDir: Workspace,
  modules: readonly LayerSource[],
  given: Readonly<Record<string, JsonValue>>,
): Promise<LoadedGenerators> {
  const layers: Layer[] = [];
  for (const m of modules) {
    const l = await manifestLayer(m.id, m.workspace, false);
    if (l) layers.push(l);
  }
  const data = await manifestLayer("data", dataDir, true);
  if (data) layers.push(data);
  const manifest = mergeManifests(layers);
  const generators = readGenerators(layers.map((l) => ({
    id: l.id,
    isDataDir: l.isDataDir,
    location: l.location,
    doc: manifest.raw.get(l.id) ?? {},
    text: l.manifestText,
  })));
  return { generators, params: resolveParams(manifest, given, new IssueCollector()) };
}
