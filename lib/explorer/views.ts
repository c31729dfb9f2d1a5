/**
 * The read models behind the explorer's REST reads (`/api/resources…`): a graph summary, a
 * paged, sorted and filtered table of one type, one resource with its relations, artifacts and
 * compliance entries, and the neighbourhood of a resource. Pure functions of a snapshot; the
 * per-graph parts are computed once and cached with the (immutable) graph.
 *
 * @module
 */
import {
  compareStrings,
  type Graph,
  type JsonValue,
  type Properties,
  type Relation,
  type Resource,
} from "../graph/graph.ts";
import type { Snapshot } from "../engine.ts";
import { outputIndex, type OutputIndexEntry } from "../api/rest/outputs.ts";
import { mutableAssets } from "../api/graphql_routes.ts";
import { formatIssue } from "../pipeline/issues.ts";
import type { ProvenanceEntry } from "../pipeline/provenance.ts";

/** A count per type or label. */
export interface TypeCount {
  /** Resource type or relation label. */
  type: string;
  /** How many. */
  count: number;
}

/** Summary of a graph: what the explorer's overview shows. */
export interface GraphSummary {
  /** Generation of the snapshot. */
  generation: number;
  /** When it was built. */
  built_at: string;
  /** Resource types with counts, by name. */
  types: (TypeCount & { editable: boolean })[];
  /** Relation labels with counts, by name. */
  relation_types: TypeCount[];
  /** Totals. */
  resources: number;
  /** Number of relations. */
  relations: number;
  /** Number of output artifacts. */
  artifacts: number;
  /** Number of `policy_violation` findings. */
  findings: number;
}

const relationCounts = new WeakMap<Graph, TypeCount[]>();
const columnCache = new WeakMap<Graph, Map<string, string[]>>();

function cached<K extends object, V>(
  map: WeakMap<K, V>,
  key: K,
  sealed: boolean,
  make: () => V,
): V {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (sealed) map.set(key, value);
  return value;
}

function countRelations(graph: Graph): TypeCount[] {
  return cached(relationCounts, graph, graph.sealed, () => {
    const counts = new Map<string, number>();
    for (const type of graph.types()) {
      for (const r of graph.resourcesOf(type)) {
        for (const rel of graph.outgoing(r)) counts.set(rel.type, (counts.get(rel.type) ?? 0) + 1);
      }
    }
    return [...counts].map(([type, count]) => ({ type, count }))
      .sort((a, b) => compareStrings(a.type, b.type));
  });
}

/**
 * The summary of a snapshot.
 *
 * @example
 * ```ts ignore
 * graphSummary(engine.current).types; // [{ type: "host", count: 4, editable: true }, …]
 * ```
 */
export function graphSummary(snapshot: Snapshot): GraphSummary {
  const g = snapshot.graph;
  const editable = new Set(mutableAssets(snapshot).map((a) => a.type));
  return {
    generation: snapshot.generation,
    built_at: snapshot.builtAt,
    types: g.types().sort(compareStrings).map((type) => ({
      type,
      count: g.resourcesOf(type).length,
      editable: editable.has(type),
    })),
    relation_types: countRelations(g),
    resources: g.resourceCount,
    relations: g.relationCount,
    artifacts: snapshot.artifacts.length,
    findings: snapshot.stats.findings,
  };
}

/** The property columns of a type: `name` first, then every other key in first-seen order. */
export function columnsOf(graph: Graph, type: string): string[] {
  let perType = columnCache.get(graph);
  if (!perType) {
    perType = new Map();
    if (graph.sealed) columnCache.set(graph, perType);
  }
  const hit = perType.get(type);
  if (hit) return hit;
  const seen = new Set<string>(["name"]);
  for (const r of graph.resourcesOf(type)) for (const k of Object.keys(r.properties)) seen.add(k);
  const columns = [...seen];
  perType.set(type, columns);
  return columns;
}

/** Query of {@link typeTable}. */
export interface TableQuery {
  /** Column to sort by (default `name`). */
  sort?: string;
  /** Descending order. */
  desc?: boolean;
  /** Substring filters per column (case-insensitive). */
  filters?: Record<string, string>;
  /** Items to skip. */
  offset?: number;
  /** Page size (1–500, default 50). */
  limit?: number;
}

/** A page of a type's table. */
export interface TablePage {
  /** Resource type. */
  type: string;
  /** Column names. */
  columns: string[];
  /** Rows matching the filters. */
  total: number;
  /** Offset of the first row. */
  offset: number;
  /** Page size. */
  limit: number;
  /** The rows: each resource's properties. */
  rows: Properties[];
}

/** Display text of a property value (what filters match and sorting compares). */
export function cellText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function numeric(value: JsonValue | undefined): number | undefined {
  if (typeof value === "number") return value;
  return typeof value === "string" && NUMBER.test(value.trim()) ? Number(value) : undefined;
}

/** Numbers (also numeric text: CSV cells without a declared type) by value, else by text. */
function compareCells(a: JsonValue | undefined, b: JsonValue | undefined): number {
  const m = numeric(a), n = numeric(b);
  if (m !== undefined && n !== undefined) return m - n;
  const x = cellText(a), y = cellText(b);
  if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1; // empty cells last
  return compareStrings(x, y);
}

/**
 * One page of the table of `type`, sorted and filtered.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { typeTable } from "./views.ts";
 * const g = new Graph();
 * g.upsertResource("host", "b", { cpu: 2 });
 * g.upsertResource("host", "a", { cpu: 8 });
 * typeTable(g, "host", { sort: "cpu", desc: true }).rows.map((r) => r.name); // ["a", "b"]
 * ```
 */
export function typeTable(graph: Graph, type: string, query: TableQuery = {}): TablePage {
  const columns = columnsOf(graph, type);
  const limit = Math.max(1, Math.min(500, query.limit ?? 50));
  const offset = Math.max(0, query.offset ?? 0);
  const filters = Object.entries(query.filters ?? {})
    .filter(([, v]) => v.trim() !== "")
    .map(([k, v]) => [k, v.trim().toLowerCase()] as const);
  let rows: Resource[] = graph.resourcesOfSorted(type);
  if (filters.length > 0) {
    rows = rows.filter((r) =>
      filters.every(([k, v]) => cellText(r.properties[k]).toLowerCase().includes(v))
    );
  }
  const sort = query.sort ?? "name";
  if (sort !== "name" || query.desc) {
    rows = [...rows].sort((a, b) =>
      compareCells(a.properties[sort], b.properties[sort]) || compareStrings(a.name, b.name)
    );
    if (query.desc) rows.reverse();
  }
  return {
    type,
    columns,
    total: rows.length,
    offset,
    limit,
    rows: rows.slice(offset, offset + limit).map((r) => r.properties),
  };
}

/** A relation as seen from one end. */
export interface RelationView {
  /** Relation label. */
  label: string;
  /** The resource at the other end. */
  type: string;
  /** Its name. */
  name: string;
  /** Edge properties. */
  properties: Properties;
}

/** A compliance entry (C41) found on the resource or one of its relations. */
export interface ControlView {
  /** The entry as stored (`control_id`, `control_name`, `audit_id`, `evidence_summary`, …). */
  entry: JsonValue;
  /** `resource`, or the relation carrying it: `out:LABEL type/name` / `in:LABEL type/name`. */
  on: string;
}

/** Everything the explorer's resource page shows. */
export interface ResourceDetail {
  /** Generation of the snapshot. */
  generation: number;
  /** Resource type. */
  type: string;
  /** Resource name. */
  name: string;
  /** Properties. */
  properties: Properties;
  /** Outgoing relations (at most `limit`), by label then target. */
  outgoing: RelationView[];
  /** Incoming relations (at most `limit`), by label then source. */
  incoming: RelationView[];
  /** Total outgoing relations. */
  outgoing_total: number;
  /** Total incoming relations. */
  incoming_total: number;
  /** Output artifacts of this resource (as origin, or the output resource itself). */
  artifacts: OutputIndexEntry[];
  /** Compliance entries on the resource and its relations. */
  controls: ControlView[];
  /** Build issues of rules that ran for this resource (formatted, with file and line). */
  issues: string[];
  /** Where the resource comes from, when the build knows it (an asset file). */
  sources: string[];
  /** The asset type and columns to edit it through `/api/mutations/{asset}/{name}`. */
  editable: { asset: string; columns: string[] } | null;
  /** Files that created or changed it: its asset file, model rules, compliance files. */
  provenance: ProvenanceEntry[];
}

function viewOf(rel: Relation, outgoing: boolean): RelationView {
  const other = outgoing ? rel.target : rel.source;
  return { label: rel.type, type: other.type, name: other.name, properties: rel.properties };
}

function byLabel(a: RelationView, b: RelationView): number {
  return compareStrings(a.label, b.label) || compareStrings(a.type, b.type) ||
    compareStrings(a.name, b.name);
}

function controlEntries(value: JsonValue | undefined, on: string, out: ControlView[]): void {
  if (value === undefined || value === null) return;
  for (const entry of Array.isArray(value) ? value : [value]) out.push({ entry, on });
}

/**
 * The detail of one resource, or `undefined` when the snapshot has none of that type and name.
 *
 * @example
 * ```ts ignore
 * resourceDetail(engine.current, "host", "web-1")?.outgoing; // [{ label: "zone", … }]
 * ```
 */
export function resourceDetail(
  snapshot: Snapshot,
  type: string,
  name: string,
  limit = 1000,
): ResourceDetail | undefined {
  const g = snapshot.graph;
  const r = g.getResource(type, name);
  if (!r) return undefined;
  const out = g.outgoing(r).map((rel) => viewOf(rel, true)).sort(byLabel);
  const inc = g.incoming(r).map((rel) => viewOf(rel, false)).sort(byLabel);
  const controls: ControlView[] = [];
  controlEntries(r.properties.controls, "resource", controls);
  for (const v of out) {
    controlEntries(v.properties.controls, `out:${v.label} ${v.type}/${v.name}`, controls);
  }
  for (const v of inc) {
    controlEntries(v.properties.controls, `in:${v.label} ${v.type}/${v.name}`, controls);
  }
  const origin = `${type} '${name}'`;
  const asset = mutableAssets(snapshot).find((a) => a.type === type);
  return {
    generation: snapshot.generation,
    type,
    name,
    properties: r.properties,
    outgoing: out.slice(0, limit),
    incoming: inc.slice(0, limit),
    outgoing_total: out.length,
    incoming_total: inc.length,
    artifacts: outputIndex(snapshot).filter((e) =>
      (e.origin?.type === type && e.origin.name === name) || (e.type === type && e.name === name)
    ),
    controls,
    issues: snapshot.issues.filter((i) => i.origin === origin).slice(0, 50).map(formatIssue),
    sources: snapshot.assets.filter((a) => a.type === type).map((a) => `assets/${a.file}`),
    editable: asset ? { asset: asset.type, columns: [...asset.columns] } : null,
    provenance: snapshot.provenance?.entriesOf(r, snapshot.assets) ?? [],
  };
}
