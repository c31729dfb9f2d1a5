/**
 * The asset phase replayed from the previous build: resources of unchanged asset files are copied
 * from the previous graph (a new graph: the published one is never touched), the rows of changed
 * files are taken from the previous graph where their text did not change and converted afresh
 * where it did. Only valid in the situations {@link planAssetReplay} accepts (see there); the
 * rest of the pipeline (auto-linking, rule phases) runs as in a full build over the result.
 *
 * @module
 */
import type { Graph, JsonValue, Properties, Resource } from "../../graph/graph.ts";
import { parseCsvSteps } from "../../formats/csv.ts";
import { ParseError } from "../../formats/errors.ts";
import { filesIn, type SourceFile, type SourceSet } from "../../workspace/sources.ts";
import {
  assetRowContext,
  assetType,
  baseName,
  keyColumnIndex,
  type LoadedAsset,
  rawRow,
  relationCellValue,
} from "../assets.ts";
import type { TemplateRenderer } from "../context.ts";
import { isEmptyValue, loadedCell } from "../cell_values.ts";
import type { AssetDeclaration } from "../../workspace/manifest.ts";
import type { PhaseContext } from "../context.ts";
import type { BuildResult } from "../build.ts";
import { runSteps, type Steps } from "../slicing.ts";
import { type KnownRows, middleRows, rowDelta } from "./text_delta.ts";

/** One row of a changed file as the replay loads it. */
interface BlockRow {
  name: string;
  properties: Properties;
  /** True for a row converted afresh (else it is the previous resource of that row). */
  fresh?: boolean;
}

/** What the replay of a changed file loads instead of the previous resources of its type. */
export interface ChangedBlock {
  /** Data-directory path of the file. */
  path: string;
  /** Resource type of the file. */
  type: string;
  /**
   * The rows converted afresh: rows `[freshFrom, freshTo)` of the file. The rows before them are
   * the previous resources `[0, freshFrom)`, the rows after them the previous resources from
   * `suffixFrom` on ({@link blockRows}).
   */
  middle: BlockRow[];
  /** Index of the first previous resource after the middle. */
  suffixFrom: number;
  /** Number of rows of the file. */
  rowCount: number;
  /** Whether the rows have the previous resources' names in the previous order. */
  sameKeys: boolean;
  /** The previous resources of the type, in order. */
  previous: readonly Resource[];
  /** Rows outside `[freshFrom, freshTo)` are previous resources (not converted afresh). */
  freshFrom: number;
  /** See `freshFrom`. */
  freshTo: number;
  /** Where the rows of the new text start, when it is of the simple shape (text_delta.ts). */
  knownRows?: KnownRows;
  /** The rows the middle replaces, as they were loaded (when the texts were compared by rows). */
  oldMiddle?: BlockRow[];
}

/** A replay ready to run, or why the change needs a full build. */
export type AssetReplayPlan =
  | { ok: true; blocks: Map<string, ChangedBlock>; freshRows: number }
  | { ok: false; reason: string };

/**
 * Checks that the asset phase of a build of `sources` can be replayed from `prev` (built from
 * `prevSources`) when exactly the data-directory asset CSVs `changed` differ, and prepares the
 * rows of those files. Accepted only when, for every changed file: it existed before and exists
 * now, its manifest declaration (if any) has no key template or row filter (typed columns are
 * converted as the asset phase converts them), its type is the type of no other asset file, its
 * previous version loaded without any issue, the new version parses cleanly with the same header,
 * every new row has a non-empty key no other row has and values its declaration accepts (no
 * issue to report), and the file has rows before and after (so the set of types stays the same).
 *
 * `oldRows`: parse the rows the change replaces too (`ChangedBlock.oldMiddle`, which
 * `propertyChanges` needs in a workspace with rule files); without them, the replaced rows are
 * only counted and their names taken from the previous resources they loaded as.
 *
 * @example
 * ```ts ignore
 * const plan = planAssetReplay(prev, prevSources, sources, changed);
 * if (!plan.ok) console.log(plan.reason);
 * ```
 */
export function planAssetReplay(
  prev: BuildResult,
  prevSources: SourceSet,
  sources: SourceSet,
  changed: readonly string[],
  known: ReadonlyMap<string, KnownRows> = new Map(),
  templates?: () => TemplateRenderer,
  oldRows = true,
): AssetReplayPlan {
  return runSteps(
    planAssetReplaySteps(prev, prevSources, sources, changed, known, templates, oldRows),
  );
}

/**
 * {@link planAssetReplay} as resumable steps (pausing while the changed texts are compared,
 * parsed and converted, every few hundred rows), so that a change of every row of a big file
 * is planned in time slices.
 */
export function* planAssetReplaySteps(
  prev: BuildResult,
  prevSources: SourceSet,
  sources: SourceSet,
  changed: readonly string[],
  known: ReadonlyMap<string, KnownRows> = new Map(),
  templates?: () => TemplateRenderer,
  oldRows = true,
): Steps<AssetReplayPlan> {
  const types = new Map<string, number>();
  for (const a of prev.assets) types.set(a.type, (types.get(a.type) ?? 0) + 1);
  const assetTypes = new Set(types.keys());
  const blocks = new Map<string, ChangedBlock>();
  let freshRows = 0;
  for (const relPath of changed) {
    yield;
    const file = relPath.slice("assets/".length);
    const loaded = prev.assets.find((a) => a.file === file);
    if (!loaded) return { ok: false, reason: `${relPath} did not load in the previous build` };
    const declaration = loaded.declaration;
    if (declaration === undefined && prev.manifest.assets.has(baseName(relPath))) {
      return { ok: false, reason: `${relPath} has a manifest declaration it did not load with` };
    }
    if (declaration?.matchOn !== undefined) {
      return { ok: false, reason: `${relPath} has a declared row filter` };
    }
    const nameTemplate = declaration?.nameTemplate;
    if (nameTemplate !== undefined && (templates === undefined || IMPURE.test(nameTemplate))) {
      return {
        ok: false,
        reason: `${relPath} has a key template that is not a function of its row`,
      };
    }
    const type = loaded.type;
    if (type !== assetType(relPath, declaration) || types.get(type) !== 1) {
      return { ok: false, reason: `type '${type}' of ${relPath} is shared` };
    }
    if (prev.issues.some((i) => i.file === relPath)) {
      return { ok: false, reason: `${relPath} had issues in the previous build` };
    }
    const oldText = prevSources.data.files.get(relPath);
    const newText = sources.data.files.get(relPath);
    if (oldText === undefined || newText === undefined) {
      return { ok: false, reason: `${relPath} was added or removed` };
    }
    const previous = prev.graph.resourcesOf(type);
    const shape: RowShape = {
      relPath,
      type,
      header: loaded.header,
      keyIndex: keyColumnIndex(loaded.header),
      assetTypes,
      declaration,
      renderKey: nameTemplate === undefined ? undefined : (raw) =>
        templates!().render(
          nameTemplate,
          assetRowContext(prev.params, raw),
          `module.toml: assets."${declaration!.file}".name_template`,
        ),
    };
    const block = yield* changedBlock(
      shape,
      prev.graph,
      previous,
      oldText,
      newText,
      known.get(relPath),
      oldRows,
    );
    if (typeof block === "string") return { ok: false, reason: block };
    if (block.block.rowCount === 0 || previous.length === 0) {
      return { ok: false, reason: `${relPath} has no rows before or after the change` };
    }
    blocks.set(type, block.block);
    freshRows += block.fresh;
  }
  return { ok: true, blocks, freshRows };
}

/** How the rows of one asset file become properties. */
interface RowShape {
  relPath: string;
  type: string;
  header: readonly string[];
  keyIndex: number;
  /** Types of the asset files (columns named after one are relation columns, A17). */
  assetTypes: ReadonlySet<string>;
  declaration?: AssetDeclaration;
  /** The declared key template, rendered for a row's raw cells (throws as rendering does). */
  renderKey?: (raw: Record<string, string>) => string;
}

/** Template functions whose value does not follow from the row (time, chance, evaluation order). */
const IMPURE = /\b(?:now|get_random|counter)\s*\(/;

/** Rows converted between two pause points. */
const ROWS_PER_STEP = 256;

/** The rows of a changed file, or why it cannot be replayed (see `oldRows` of the plan). */
function* changedBlock(
  shape: RowShape,
  prevGraph: Graph,
  previous: readonly Resource[],
  oldText: string,
  newText: string,
  known: KnownRows | undefined,
  withOldRows: boolean,
): Steps<{ block: ChangedBlock; fresh: number } | string> {
  const { relPath, type, header } = shape;
  const delta = rowDelta(oldText, newText, known);
  if (delta) {
    // Rows before and after the change are the previous resources, in order.
    const oldCount = middleRows(delta.oldMiddle);
    const oldMiddle = withOldRows
      ? yield* parseRows(delta.headerLine + "\n" + delta.oldMiddle, relPath)
      : undefined;
    if (typeof oldMiddle === "string") return oldMiddle;
    const newMiddle = yield* parseRows(delta.headerLine + "\n" + delta.newMiddle, relPath);
    if (typeof newMiddle === "string") return newMiddle;
    if (
      (oldMiddle !== undefined && oldMiddle.rows.length !== oldCount) ||
      newMiddle.rows.length !== middleRows(delta.newMiddle) ||
      delta.prefixRows + oldCount + delta.suffixRows !== previous.length
    ) {
      return `${relPath}: rows do not line up with the previous resources`;
    }
    let oldRows: BlockRow[] | undefined;
    const replaced = new Set<string>();
    if (oldMiddle) {
      oldRows = [];
      for (const cells of oldMiddle.rows) {
        if (oldRows.length % ROWS_PER_STEP === 0) yield;
        const row = rowOf(cells, shape);
        if (typeof row === "string") return row;
        oldRows.push(row);
        replaced.add(row.name);
      }
    } else {
      // The replaced rows loaded as these previous resources (a clean load: one row each).
      const to = delta.prefixRows + oldCount;
      for (let i = delta.prefixRows; i < to; i++) replaced.add(previous[i].name);
    }
    const rows: BlockRow[] = [];
    const seen = new Set<string>();
    const parsed = newMiddle.rows;
    for (let k = 0; k < parsed.length; k++) {
      if (rows.length % ROWS_PER_STEP === 0) yield;
      const row = rowOf(parsed[k], shape, previous[delta.prefixRows + k]?.properties);
      parsed[k] = NO_CELLS; // the cells die young (the block may have 100k rows)
      if (typeof row === "string") return row;
      // A new key must be unique: not twice in the middle, not one of the kept rows.
      if (row.name === "" || seen.has(row.name)) return `${relPath}: empty or repeated key`;
      if (!replaced.has(row.name) && prevGraph.getResource(type, row.name)) {
        return `${relPath}: key '${row.name}' repeats a kept row`;
      }
      seen.add(row.name);
      rows.push(row);
    }
    const freshFrom = delta.prefixRows;
    const freshTo = freshFrom + rows.length;
    const suffixFrom = previous.length - delta.suffixRows;
    const rowCount = freshTo + delta.suffixRows;
    return {
      block: {
        path: relPath,
        type,
        middle: rows,
        suffixFrom,
        rowCount,
        // Kept rows keep their places when the middle keeps its length: compare only it.
        sameKeys: rowCount === previous.length && sameKeys(rows, previous, freshFrom),
        previous,
        freshFrom,
        freshTo,
        knownRows: delta.rows,
        oldMiddle: oldRows,
      },
      fresh: newMiddle.rows.length,
    };
  }
  const doc = yield* parseRows(newText, relPath);
  if (typeof doc === "string") return doc;
  if (doc.header.join("\u0000") !== header.join("\u0000")) return `${relPath}: header changed`;
  const seen = new Set<string>();
  const rows: BlockRow[] = [];
  for (let k = 0; k < doc.rows.length; k++) {
    if (rows.length % ROWS_PER_STEP === 0) yield;
    const row = rowOf(doc.rows[k], shape, previous[k]?.properties);
    doc.rows[k] = NO_CELLS;
    if (typeof row === "string") return row;
    if (row.name === "" || seen.has(row.name)) return `${relPath}: empty or repeated key`;
    seen.add(row.name);
    rows.push(row);
  }
  return {
    block: {
      path: relPath,
      type,
      middle: rows,
      suffixFrom: previous.length,
      rowCount: rows.length,
      sameKeys: rows.length === previous.length && sameKeys(rows, previous, 0),
      previous,
      freshFrom: 0,
      freshTo: rows.length,
    },
    fresh: rows.length,
  };
}

/** Whether the `middle` rows, from row `from` on, have the names of the previous resources there. */
function sameKeys(
  middle: readonly BlockRow[],
  previous: readonly Resource[],
  from: number,
): boolean {
  for (let i = 0; i < middle.length; i++) {
    if (middle[i].name !== previous[from + i].name) return false;
  }
  return true;
}

/** Every row of a changed file in file order: kept previous resources and fresh rows. */
export function blockRows(block: ChangedBlock): BlockRow[] {
  const rows: BlockRow[] = block.previous.slice(0, block.freshFrom);
  for (const row of block.middle) rows.push(row);
  for (let i = block.suffixFrom; i < block.previous.length; i++) rows.push(block.previous[i]);
  return rows;
}

/** Cells of every row of a clean CSV text, or why it is not clean. */
function* parseRows(
  text: string,
  relPath: string,
): Steps<{ header: string[]; rows: string[][] } | string> {
  try {
    const doc = yield* parseCsvSteps(text, relPath, ROWS_PER_STEP);
    if (doc.errors.length > 0) return `${relPath}: ${doc.errors[0].reason}`;
    return { header: doc.header, rows: doc.rows.map((r) => r.cells) };
  } catch (e) {
    if (e instanceof ParseError) return `${relPath}: ${e.reason}`;
    throw e;
  }
}

/**
 * A row of an asset file converted as the asset phase converts it (A13, A15–A18): `_` columns
 * stripped, declared columns converted to their type (empty: absent), relation columns (named
 * after another asset type) split into names; or why the row would be reported (a value its
 * declaration refuses, a required column left empty: MP31), which a replay does not reproduce.
 * Values equal to those of `reuse` (the previous resource of the row's place) are taken from it.
 */
function rowOf(
  cells: readonly string[],
  shape: RowShape,
  reuse: Properties = NO_PROPERTIES,
): BlockRow | string {
  const { header, type, assetTypes, declaration } = shape;
  const properties: Properties = {};
  for (let i = 0; i < header.length; i++) {
    const column = header[i];
    if (column.startsWith("_")) continue;
    const cell = cells[i];
    const spec = declaration?.columns.get(column);
    if (spec) {
      const { value, invalid } = loadedCell(cell, spec);
      if (invalid) return `${shape.relPath}: a value of column '${column}' is reported`;
      if (value !== undefined) properties[column] = sameOr(value, reuse[column]);
    } else if (assetTypes.has(column) && column !== type) {
      properties[column] = sameOr(relationCellValue(cell), reuse[column]);
    } else {
      properties[column] = sameOr(cell, reuse[column]);
    }
  }
  let name = cells[shape.keyIndex].trim();
  if (shape.renderKey) {
    // As the asset phase: the rendered key names the resource, the cell is kept beside it.
    try {
      properties.original_name = name;
      name = shape.renderKey(rawRow(header, cells, 0)).trim();
    } catch {
      return `${shape.relPath}: the key template fails for a row`;
    }
  }
  for (const [column, spec] of declaration?.columns ?? []) {
    if (spec.required && isEmptyValue(properties[column])) {
      return `${shape.relPath}: required column '${column}' is empty`;
    }
  }
  return { name, properties, fresh: true };
}

/** What a converted row's cells are replaced with (see {@link changedBlock}). */
const NO_CELLS: string[] = [];

const NO_PROPERTIES: Properties = {};

/**
 * `known` when it equals `value` (the same string, number or boolean, or a list of the same
 * names), else `value`. A row converted afresh takes the previous resource's values of the cells
 * it did not change, so the text just parsed for them dies young: after a change of every row of
 * 100k, the build's survivors — which every scavenge copies while readers wait — are the new
 * property objects and the changed values, not every cell again (issue 24).
 */
function sameOr(value: JsonValue, known: JsonValue | undefined): JsonValue {
  if (value === known || known === undefined) return known ?? value;
  if (!Array.isArray(value) || !Array.isArray(known) || value.length !== known.length) {
    return value;
  }
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== known[i] || typeof known[i] === "object") return value;
  }
  return known;
}

/** Resources copied between two pause points. */
const RESOURCES_PER_STEP = 64;

/**
 * The asset phase of a replay: re-reports the previous asset-phase issues (all of unchanged
 * files), then creates the resources in the order a full build creates them — the previous
 * graph's order, with the rows of each changed file in place of the previous resources of its
 * type.
 */
export function* replayAssetSteps(
  ctx: PhaseContext,
  prev: BuildResult,
  blocks: ReadonlyMap<string, ChangedBlock>,
  fresh?: Set<number>,
): Steps<LoadedAsset[]> {
  for (const issue of prev.issues) if (issue.phase === "assets") ctx.issues.report(issue);
  const graph = ctx.graph;
  const done = new Set<string>();
  let tick = 0;
  for (const r of prev.graph.resources()) {
    if (++tick === RESOURCES_PER_STEP) {
      tick = 0;
      yield;
    }
    const block = blocks.get(r.type);
    if (!block) {
      graph.adoptResource(r.type, r.name, copyOf(r.properties));
      continue;
    }
    if (done.has(r.type)) continue;
    done.add(r.type);
    for (const row of blockRows(block)) {
      if (++tick === RESOURCES_PER_STEP) {
        tick = 0;
        yield;
      }
      const created = graph.adoptResource(block.type, row.name, copyOf(row.properties));
      if (row.fresh) fresh?.add(created.id);
    }
  }
  return loadedAssets(ctx.sources, prev);
}

/**
 * A property object for the new graph, with `name` first as a created resource has it: arrays
 * are copied too (auto-linking may replace their strings by equal ones, and the previous graph
 * must not change at all).
 */
function copyOf(properties: Properties): Properties {
  const out: Properties = { name: "" };
  for (const key in properties) {
    const value = properties[key];
    out[key] = Array.isArray(value) ? value.slice() : value;
  }
  return out;
}

/** The asset files of the build as the asset phase returns them (only their headers are used). */
function loadedAssets(sources: SourceSet, prev: BuildResult): LoadedAsset[] {
  const byFile = new Map(prev.assets.map((a) => [a.file, a]));
  const out: LoadedAsset[] = [];
  for (const file of filesIn(sources, "assets", [".csv"]) as SourceFile[]) {
    if (!file.layer.isDataDir) continue;
    const info = byFile.get(file.relPath.slice("assets/".length));
    if (!info) continue;
    out.push({
      file,
      type: info.type,
      declaration: info.declaration,
      csv: { header: info.header, rows: [], errors: [] },
    });
  }
  return out;
}
