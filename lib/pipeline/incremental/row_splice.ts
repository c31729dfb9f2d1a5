/**
 * Row additions and removals without replaying the asset phase (issue 25): in a workspace
 * without rule files, the asset phase creates every resource of a file in a run of consecutive
 * ids and auto-linking creates the relations in the order of their sources, so the graph a full
 * build gives after rows were added, removed or replaced is the previous graph with those runs
 * spliced (`Graph.spliced`): the new rows loaded, keyed and linked as auto-linking links them,
 * the kept resources keeping their relations (retargeted by name to a replaced row), every id
 * after a changed run moved.
 *
 * Valid only when the previous build reported nothing but asset-phase issues of unchanged files
 * (no missing link target: every name resolved, so no kept row names a new row), the manifest
 * states no requirements, no rule wrote provenance, every name of a new row resolves, and no kept
 * row names a removed row whose name no new row takes. Anything else is the asset replay's or a
 * full build's.
 *
 * @module
 */
import type { GraphSplice, Properties, Resource } from "../../graph/graph.ts";
import type { BuildResult } from "../build.ts";
import { splitNames } from "../linking.ts";
import { Provenance } from "../provenance.ts";
import type { ChangedBlock } from "./asset_replay.ts";

/**
 * The result of a full build of the changed sources, made by splicing the changed rows into the
 * previous graph, or why that is not valid (see the module documentation).
 *
 * @example
 * ```ts ignore
 * const spliced = spliceRows(prev, plan.blocks);
 * if (typeof spliced !== "string") console.log(spliced.stats.resources);
 * ```
 */
export function spliceRows(
  prev: BuildResult,
  blocks: ReadonlyMap<string, ChangedBlock>,
): BuildResult | string {
  for (const issue of prev.issues) {
    if (issue.phase !== "assets") return `the previous build reported ${issue.code}`;
  }
  if (prev.manifest.requirements.size > 0) return "the manifest states requirements";
  if (prev.provenance.size > 0) return "rules touched resources";
  const graph = prev.graph;
  const splices: GraphSplice[] = [];
  for (const block of blocks.values()) {
    const previous = block.previous;
    const first = previous[0].id;
    for (let i = 0; i < previous.length; i++) {
      if (previous[i].id !== first + i) return `the resources of ${block.path} are not in one run`;
    }
    const added: { name: string; properties: Properties }[] = [];
    for (const row of block.middle) {
      const properties: Properties = { name: "" };
      for (const key in row.properties) {
        const value = row.properties[key];
        properties[key] = Array.isArray(value) ? value.slice() : value;
      }
      added.push({ name: row.name, properties });
    }
    splices.push({
      type: block.type,
      at: first + block.freshFrom,
      removed: block.suffixFrom - block.freshFrom,
      added,
    });
  }
  const types = new Set(graph.types());
  const spliced = graph.spliced(splices, (resource, find) => linksOf(resource, types, find));
  if (typeof spliced === "string") return spliced;
  const provenance = new Provenance();
  provenance.assetsLoaded(spliced.resourceCount);
  return {
    ...prev,
    graph: spliced,
    provenance,
    stats: {
      ...prev.stats,
      resources: spliced.resourceCount,
      relations: spliced.relationCount,
      findings: spliced.resourcesOf("policy_violation").length,
      timings: {},
    },
  };
}

/**
 * The relations auto-linking gives a new row's resource (no retype rules): one per name of each
 * property named after a type, in property order, but its own name in its own type's column; or
 * why the row cannot be linked here (a name that resolves to nothing would be reported).
 */
function linksOf(
  resource: Resource,
  types: ReadonlySet<string>,
  find: (type: string, name: string) => Resource | undefined,
): (readonly [string, Resource])[] | string {
  const out: (readonly [string, Resource])[] = [];
  for (const key in resource.properties) {
    if (key === "name" || key === "original_name" || key.startsWith("_")) continue;
    if (!types.has(key)) continue;
    for (const name of splitNames(resource.properties[key])) {
      if (key === resource.type && name === resource.name) continue;
      const target = find(key, name);
      if (!target) return `${resource.type} '${resource.name}' names no ${key} '${name}'`;
      out.push([key, target]);
    }
  }
  return out;
}
