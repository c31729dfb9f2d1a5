/**
 * Property changes of an incremental build (issue 15): when the changed rows of asset files keep
 * their keys and relation columns, the new graph is the previous one with new properties on the
 * changed resources (`Graph.derive`). This module finds those properties — as the asset phase
 * would make them, and in workspaces with rule files with what rules wrote kept in place — and
 * the changed fields, which the rule analysis (`rule_reach.ts`) then clears or refuses.
 *
 * @module
 */
import type { JsonValue, Properties } from "../../graph/graph.ts";
import type { BuildResult } from "../build.ts";
import type { ChangedBlock } from "./asset_replay.ts";
import { runSteps, type Steps } from "../slicing.ts";

/**
 * Whether auto-linking can be replayed (`link_replay.ts`): every changed file kept its keys in
 * order (same resources, same ids, same names to resolve) and the previous build resolved every
 * name (no missing target whose report would have to be placed among the new ones).
 */
export function linksReplayable(
  prev: BuildResult,
  blocks: ReadonlyMap<string, ChangedBlock>,
): boolean {
  for (const block of blocks.values()) if (!block.sameKeys) return false;
  return !prev.issues.some((i) => i.code === "relation_target_missing");
}

/** What changed: the new properties by resource id, and the changed fields by type. */
export interface PropertyChanges {
  properties: Map<number, Properties>;
  fields: Map<string, Set<string>>;
}

/**
 * The new properties of every changed row by resource id, when every changed file kept its keys
 * in order, the previous build resolved every name, and no changed row differs in a column that
 * names a resource type (what auto-linking reads): then only properties changed, and the new
 * graph is the previous one with those properties. `undefined` otherwise.
 *
 * `withRules`: the previous resources carry what rules wrote onto them too, so each row's old
 * asset values (parsed from the old text) tell which fields changed, and the new properties are
 * the previous ones with those fields set (in the place a full build gives them: asset columns
 * first, in file order, then what rules added). The caller must know that no rule reads or
 * writes the changed fields (rule_reach.ts).
 */
export function propertyChanges(
  prev: BuildResult,
  blocks: ReadonlyMap<string, ChangedBlock>,
  withRules: boolean,
): PropertyChanges | undefined {
  return runSteps(propertyChangesSteps(prev, blocks, withRules));
}

/** Rows compared between two pause points. */
const ROWS_PER_STEP = 512;

/**
 * {@link propertyChanges} as resumable steps (pausing every few hundred rows), for changes of
 * every row of big files. Without rules, the fresh rows' property objects become the changed
 * resources' properties (they are the replay's own, used for nothing else).
 */
export function* propertyChangesSteps(
  prev: BuildResult,
  blocks: ReadonlyMap<string, ChangedBlock>,
  withRules: boolean,
): Steps<PropertyChanges | undefined> {
  if (!linksReplayable(prev, blocks)) return undefined;
  const graph = prev.graph;
  const types = new Set(graph.types());
  const properties = new Map<number, Properties>();
  const fields = new Map<string, Set<string>>();
  for (const block of blocks.values()) {
    if (withRules && block.oldMiddle === undefined) return undefined;
    const changedFields = new Set<string>();
    fields.set(block.type, changedFields);
    const previous = block.previous;
    for (let i = block.freshFrom; i < block.freshTo; i++) {
      if ((i - block.freshFrom) % ROWS_PER_STEP === 0) yield;
      const row = block.middle[i - block.freshFrom];
      if (!row.fresh) continue;
      const before = previous[i];
      const old = withRules ? block.oldMiddle![i - block.freshFrom].properties : before.properties;
      const now = row.properties;
      // Every key of either side, once: the new row's, then the old one's it lacks.
      for (const key in now) {
        // (An unchanged cell already holds the previous resource's value: asset_replay's rowOf.)
        if (key === "name" || sameValue(now[key], old[key])) continue;
        // A relation column (named after a type) changed: links change, not only properties.
        if (key !== "original_name" && !key.startsWith("_") && types.has(key)) return undefined;
        changedFields.add(key);
      }
      for (const key in old) {
        if (key === "name" || key in now || sameValue(undefined, old[key])) continue;
        if (key !== "original_name" && !key.startsWith("_") && types.has(key)) return undefined;
        changedFields.add(key);
      }
      properties.set(
        before.id,
        withRules
          ? mergedProperties(before.properties, old, row.properties, changedFields, row.name)
          : ownedProperties(row.properties, row.name),
      );
    }
  }
  return { properties, fields };
}

/**
 * {@link assetProperties} without a copy when the row's object already has `name` first: the
 * fresh row's properties (its arrays made for it) are the resource's then, with the key as name.
 */
function ownedProperties(row: Properties, name: string): Properties {
  for (const first in row) {
    if (first !== "name") break;
    row.name = name;
    return row;
  }
  return assetProperties(row, name);
}

/** Properties of a row as the replay makes them: `name` first, arrays copied, the key as name. */
function assetProperties(row: Properties, name: string): Properties {
  const properties: Properties = { name: "" };
  for (const key in row) {
    const value = row[key];
    properties[key] = Array.isArray(value) ? value.slice() : value;
  }
  properties.name = name;
  return properties;
}

/**
 * The properties a full build gives a resource whose asset row went from `oldRow` to `newRow`
 * when no rule reads or writes the `changed` fields: the asset columns in file order (changed
 * ones with their new values, the others as they were, rules' writes included), then the
 * properties rules added, in their order.
 */
function mergedProperties(
  before: Properties,
  oldRow: Properties,
  newRow: Properties,
  changed: ReadonlySet<string>,
  name: string,
): Properties {
  const out: Properties = { name: "" };
  for (const key in newRow) {
    if (key === "name") continue;
    const value = changed.has(key) ? newRow[key] : before[key];
    out[key] = Array.isArray(value) ? value.slice() : value;
  }
  for (const key in before) {
    if (key === "name" || key in out || key in oldRow) continue;
    out[key] = before[key];
  }
  out.name = name;
  return out;
}

function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    // Relation cells: lists of names, compared without serializing them.
    let i = 0;
    while (i < a.length && a[i] === b[i] && typeof a[i] !== "object") i++;
    if (i === a.length) return true;
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null) &&
    (a === undefined) === (b === undefined);
}
