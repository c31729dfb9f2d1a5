/**
 * `GET /api/search?q=&type=&limit=&offset=`: server-side, paged search over resource names and
 * property values of every type (the explorer's search box). A lower-cased text index is built
 * once per published graph, on first use, and scanned per query: name matches rank before
 * property matches (exact name, then name prefix, then name substring, then a property value).
 *
 * @module
 */
import type { Hono } from "hono";
import { compareStrings, type Graph, type JsonValue, type Resource } from "../../graph/graph.ts";
import type { GraphEngine } from "../../engine.ts";
import { problem } from "../problem.ts";
import { snapshotFor } from "../consistency.ts";

/** Largest page a search returns. */
export const MAX_SEARCH_LIMIT = 200;
/** Page size when the request names none. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Characters of one property value that are indexed (longer values are cut). */
const MAX_VALUE_CHARS = 1000;
/** Matches collected per rank before the scan stops counting (the budget of one query). */
export const MAX_COUNTED_MATCHES = 100_000;

/** One search result. */
export interface SearchHit {
  /** Resource type. */
  type: string;
  /** Resource name. */
  name: string;
  /** `name`, or the property whose value matched. */
  field: string;
  /** The matching value (cut to 200 characters around the match). */
  value: string;
}

/** One page of search results. */
export interface SearchPage {
  /** The query as searched (trimmed). */
  query: string;
  /** The type filter, or `null`. */
  type: string | null;
  /** Number of matches (a lower bound when `total_exact` is false). */
  total: number;
  /** False when the scan stopped counting at its budget. */
  total_exact: boolean;
  /** Offset of the first item. */
  offset: number;
  /** Page size asked for. */
  limit: number;
  /** The page. */
  items: SearchHit[];
}

/** Options of {@link searchGraph}. */
export interface SearchOptions {
  /** Only resources of this type. */
  type?: string;
  /** Page size (1–{@link MAX_SEARCH_LIMIT}, default {@link DEFAULT_SEARCH_LIMIT}). */
  limit?: number;
  /** Items to skip (default 0). */
  offset?: number;
}

interface SearchIndex {
  /** Resources ordered by type, then name. */
  resources: Resource[];
  /** Lower-cased names, parallel to `resources`. */
  names: string[];
  /** Lower-cased property values (without `name`), joined by `\u0000`. */
  texts: string[];
  /** First and end index per type. */
  ranges: Map<string, [number, number]>;
}

const indexes = new WeakMap<Graph, SearchIndex>();

function valueText(value: JsonValue): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? text.slice(0, MAX_VALUE_CHARS) : text;
}

function indexOf(graph: Graph): SearchIndex {
  const cached = indexes.get(graph);
  if (cached) return cached;
  const resources: Resource[] = [];
  const ranges = new Map<string, [number, number]>();
  for (const type of graph.types().sort(compareStrings)) {
    const start = resources.length;
    for (const r of graph.resourcesOfSorted(type)) resources.push(r);
    ranges.set(type, [start, resources.length]);
  }
  const names = resources.map((r) => r.name.toLowerCase());
  const texts = resources.map((r) => {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(r.properties)) {
      if (k !== "name" && v !== null) parts.push(valueText(v).toLowerCase());
    }
    return parts.join("\u0000");
  });
  const index = { resources, names, texts, ranges };
  if (graph.sealed) indexes.set(graph, index);
  return index;
}

function excerpt(text: string, at: number): string {
  if (text.length <= 200) return text;
  const start = Math.max(0, Math.min(at - 80, text.length - 200));
  return (start > 0 ? "…" : "") + text.slice(start, start + 200) +
    (start + 200 < text.length ? "…" : "");
}

function hitOf(resource: Resource, q: string): SearchHit {
  const lower = resource.name.toLowerCase();
  const at = lower.indexOf(q);
  if (at >= 0 || q === "") {
    return { type: resource.type, name: resource.name, field: "name", value: resource.name };
  }
  for (const [k, v] of Object.entries(resource.properties)) {
    if (k === "name" || v === null) continue;
    const text = valueText(v);
    const i = text.toLowerCase().indexOf(q);
    if (i >= 0) {
      return { type: resource.type, name: resource.name, field: k, value: excerpt(text, i) };
    }
  }
  return { type: resource.type, name: resource.name, field: "name", value: resource.name };
}

/**
 * Searches a graph's resource names and property values for a case-insensitive substring.
 * An empty query lists every resource (of the type) in type and name order.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { searchGraph } from "./search.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1", { os: "ubuntu" });
 * g.upsertResource("host", "db-1", { os: "rhel", role: "web database" });
 * const page = searchGraph(g, "WEB");
 * console.log(page.items.map((h) => `${h.name}:${h.field}`)); // ["web-1:name", "db-1:role"]
 * ```
 */
export function searchGraph(graph: Graph, query: string, options: SearchOptions = {}): SearchPage {
  const q = query.trim().toLowerCase();
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, options.limit ?? DEFAULT_SEARCH_LIMIT));
  const offset = Math.max(0, options.offset ?? 0);
  const index = indexOf(graph);
  const [from, to] = options.type !== undefined
    ? index.ranges.get(options.type) ?? [0, 0]
    : [0, index.resources.length];
  // Rank buckets: exact name, name prefix, name substring, property value.
  const buckets: number[][] = [[], [], [], []];
  let counted = 0;
  let exact = true;
  const { names, texts } = index;
  for (let i = from; i < to; i++) {
    const name = names[i];
    let rank = -1;
    if (q === "") rank = 3;
    else {
      const at = name.indexOf(q);
      if (at === 0) rank = name.length === q.length ? 0 : 1;
      else if (at > 0) rank = 2;
      else if (texts[i].includes(q)) rank = 3;
    }
    if (rank < 0) continue;
    buckets[rank].push(i);
    if (++counted >= MAX_COUNTED_MATCHES) {
      exact = i === to - 1;
      break;
    }
  }
  const page: SearchHit[] = [];
  let skip = offset;
  for (const bucket of buckets) {
    if (page.length >= limit) break;
    if (skip >= bucket.length) {
      skip -= bucket.length;
      continue;
    }
    for (let j = skip; j < bucket.length && page.length < limit; j++) {
      page.push(hitOf(index.resources[bucket[j]], q));
    }
    skip = 0;
  }
  return {
    query: query.trim(),
    type: options.type ?? null,
    total: counted,
    total_exact: exact,
    offset,
    limit,
    items: page,
  };
}

function intParam(raw: string | undefined, name: string): number | undefined | Response {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,9}$/.test(raw)) {
    return problem(400, "bad-request", `'${name}' must be a non-negative integer`);
  }
  return Number(raw);
}

/** Registers `GET /api/search` on `app`, answered from the request's snapshot. */
export function registerSearchRoute(app: Hono, engine: GraphEngine): void {
  app.get("/api/search", (c) => {
    const limit = intParam(c.req.query("limit"), "limit");
    if (limit instanceof Response) return limit;
    const offset = intParam(c.req.query("offset"), "offset");
    if (offset instanceof Response) return offset;
    if (limit === 0) return problem(400, "bad-request", "'limit' must be at least 1");
    const type = c.req.query("type") || undefined;
    const snapshot = snapshotFor(engine, c.req.raw);
    const page = searchGraph(snapshot.graph, c.req.query("q") ?? "", { type, limit, offset });
    return Response.json({ ...page, generation: snapshot.generation });
  });
}
