/**
 * Graph-RAG style retrieval for MCP tools (reference R71, R73), deterministic and without a
 * language model: `semanticSearch` (substring and fuzzy match over names, descriptions and
 * properties), `localSearch` (the depth-2 ego graph of the best matching resources, summarised)
 * and `globalSearch` (per-type aggregates, ranked by relevance to the query).
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../graph/graph.ts";
import {
  listResourceTypes,
  type Ref,
  refOf,
  requireResource,
  ToolInputError,
} from "./graph_tools.ts";

const DESCRIPTIVE = ["description", "title", "label", "summary", "display_name"];

function text(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(text).join(" ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Edit distance of two short strings, giving up (returning `max + 1`) beyond `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** One hit of {@link semanticSearch}. */
export interface SearchHit extends Ref {
  /** Relevance (higher is better). */
  score: number;
  /** Where the query matched: `name`, `type` or property keys. */
  matched: string[];
  /** The resource's description-like property, when it has one. */
  description?: string;
}

/** Scores one resource against a lower-case query and its tokens (0: no match). */
function scoreResource(r: Resource, q: string, tokens: readonly string[]): SearchHit | undefined {
  const name = r.name.toLowerCase();
  let score = 0;
  const matched = new Set<string>();
  if (name === q) score += 100, matched.add("name");
  else if (name.includes(q)) score += 60, matched.add("name");
  if (r.type.toLowerCase() === q) score += 20, matched.add("type");
  for (const [k, v] of Object.entries(r.properties)) {
    if (k === "name") continue;
    const t = text(v).toLowerCase();
    if (t === "" || !t.includes(q)) continue;
    score += DESCRIPTIVE.includes(k) ? 40 : t === q ? 30 : 15;
    matched.add(k);
  }
  if (score === 0 && tokens.length > 1) {
    // Every word somewhere (name, type or a property value).
    const hay = `${name} ${r.type.toLowerCase()} ${
      Object.values(r.properties).map(text).join(" ").toLowerCase()
    }`;
    const hits = tokens.filter((tok) => hay.includes(tok)).length;
    if (hits === tokens.length) score = 10 + hits, matched.add("words");
  }
  if (score === 0 && q.length >= 4) {
    // Fuzzy: a name within a small edit distance (typos).
    const max = q.length >= 8 ? 2 : 1;
    const d = editDistance(q, name, max);
    if (d <= max) score = 8 - d, matched.add("name~");
  }
  if (score === 0) return undefined;
  const desc = DESCRIPTIVE.map((k) => r.properties[k]).find((v) => typeof v === "string");
  return {
    type: r.type,
    name: r.name,
    score,
    matched: [...matched],
    ...(desc ? { description: (desc as string).slice(0, 200) } : {}),
  };
}

/**
 * `semanticSearch`: resources whose name, type, description or property values contain the
 * query (or all its words, or a name within a small edit distance), best first.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { semanticSearch } from "./search.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1", { role: "frontend" });
 * semanticSearch(g, { query: "front" }).hits[0].name; // "web-1"
 * ```
 */
export function semanticSearch(
  graph: Graph,
  args: { query: string; type?: string; limit?: number },
): { query: string; total: number; hits: SearchHit[] } {
  const limit = Math.min(200, Math.max(1, Math.floor(args.limit ?? 20)));
  const hits = searchAll(graph, args.query, args.type, limit);
  hits.sort(byScore);
  return { query: args.query, total: hits.length, hits: hits.slice(0, limit) };
}

function byScore(a: SearchHit, b: SearchHit): number {
  return b.score - a.score || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Lower-case text of every resource (name, type, property values), per type; once per graph. */
const haystackCache = new WeakMap<Graph, Map<string, { r: Resource; hay: string }[]>>();

function haystacks(graph: Graph, type: string): { r: Resource; hay: string }[] {
  let byType = haystackCache.get(graph);
  if (!byType) haystackCache.set(graph, byType = new Map());
  let list = byType.get(type);
  if (!list) {
    list = graph.resourcesOf(type).map((r) => ({
      r,
      hay: `${r.name}\n${r.type}\n${Object.values(r.properties).map(text).join("\n")}`
        .toLowerCase(),
    }));
    byType.set(type, list);
  }
  return list;
}

/**
 * Every hit of `query` (unsorted); a cheap text pre-check skips most resources. Fuzzy name
 * matching (typos) is a second pass, run only when the text matches found fewer than
 * `fuzzyBelow` resources: it has to look at every name.
 */
function searchAll(graph: Graph, query: string, type?: string, fuzzyBelow = 20): SearchHit[] {
  const q = query.trim().toLowerCase();
  if (q === "") throw new ToolInputError("the query is empty");
  if (type !== undefined && !graph.hasType(type)) {
    throw new ToolInputError(`no resource type '${type}' (see listResourceTypes)`);
  }
  const tokens = q.split(/\s+/).filter((t) => t !== "");
  const types = type ? [type] : graph.types();
  const hits: SearchHit[] = [];
  for (const t of types) {
    for (const { r, hay } of haystacks(graph, t)) {
      const candidate = hay.includes(q) ||
        (tokens.length > 1 && tokens.every((tok) => hay.includes(tok)));
      if (!candidate) continue;
      const hit = scoreResource(r, q, tokens);
      if (hit) hits.push(hit);
    }
  }
  const fuzzy = q.length >= 4 ? (q.length >= 8 ? 2 : 1) : -1;
  if (fuzzy < 0 || hits.length >= fuzzyBelow) return hits;
  const found = new Set(hits.map((h) => `${h.type}\0${h.name}`));
  for (const t of types) {
    for (const { r } of haystacks(graph, t)) {
      if (Math.abs(r.name.length - q.length) > fuzzy || found.has(`${r.type}\0${r.name}`)) {
        continue;
      }
      const hit = scoreResource(r, q, tokens);
      if (hit) hits.push(hit);
    }
  }
  return hits;
}

/**
 * `localSearch` (R73): the ego graph (relations followed both ways, depth 2 by default) of a
 * resource given by type and name, or of the best 3 {@link semanticSearch} hits of `query`,
 * summarised per type and relation type, with its nodes (nearest first) and edges.
 */
export function localSearch(
  graph: Graph,
  args: { query?: string; type?: string; name?: string; depth?: number; limit?: number },
) {
  let seeds: Resource[];
  if (args.type !== undefined && args.name !== undefined) {
    seeds = [requireResource(graph, args.type, args.name)];
  } else if (args.query) {
    seeds = semanticSearch(graph, { query: args.query, type: args.type, limit: 3 }).hits
      .map((h) => graph.getResource(h.type, h.name)!);
  } else throw new ToolInputError("give a query, or a type and a name");
  const depth = Math.min(3, Math.max(1, Math.floor(args.depth ?? 2)));
  const limit = Math.min(500, Math.max(1, Math.floor(args.limit ?? 100)));
  const distance = new Map<number, number>();
  const nodes: Resource[] = [];
  let frontier = seeds.filter((s) => !distance.has(s.id) && distance.set(s.id, 0));
  nodes.push(...frontier);
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: Resource[] = [];
    for (const r of frontier) {
      for (
        const n of [
          ...graph.outgoing(r).map((x) => x.target),
          ...graph.incoming(r).map((x) => x.source),
        ]
      ) {
        if (distance.has(n.id)) continue;
        if (nodes.length >= limit) {
          truncated = true;
          break;
        }
        distance.set(n.id, d);
        nodes.push(n);
        next.push(n);
      }
    }
    frontier = next;
  }
  const byType: Record<string, number> = {};
  const relations: Record<string, number> = {};
  const edgeList: { from: Ref; relation: string; to: Ref }[] = [];
  for (const r of nodes) {
    byType[r.type] = (byType[r.type] ?? 0) + 1;
    for (const rel of graph.outgoing(r)) {
      if (!distance.has(rel.target.id)) continue;
      relations[rel.type] = (relations[rel.type] ?? 0) + 1;
      if (edgeList.length < limit * 2) {
        edgeList.push({ from: refOf(r), relation: rel.type, to: refOf(rel.target) });
      }
    }
  }
  const sorted = (o: Record<string, number>) =>
    Object.fromEntries(Object.entries(o).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
  return {
    seeds: seeds.map((s) => ({ ...refOf(s), properties: s.properties })),
    depth,
    summary: `${seeds.map((s) => `${s.type} '${s.name}'`).join(", ") || "nothing"} ` +
      `${seeds.length === 1 ? "is" : "are"} connected to ${nodes.length - seeds.length} ` +
      `resource(s) within ${depth} step(s): ${
        Object.entries(sorted(byType)).map(([t, n]) => `${n} ${t}`).join(", ")
      }`,
    by_type: sorted(byType),
    relations: sorted(relations),
    nodes: nodes.map((n) => ({ ...refOf(n), distance: distance.get(n.id)! })),
    edges: edgeList,
    ...(truncated ? { truncated: true } : {}),
  };
}

interface TypeAggregate {
  type: string;
  count: number;
  properties: Record<string, { filled: number; distinct: number; top?: [string, number][] }>;
  relations: { outgoing: Record<string, string[]>; incoming: Record<string, string[]> };
}

const aggregateCache = new WeakMap<Graph, TypeAggregate[]>();

function aggregates(graph: Graph): TypeAggregate[] {
  const cached = aggregateCache.get(graph);
  if (cached) return cached;
  const out = listResourceTypes(graph).map((info) => {
    const properties: TypeAggregate["properties"] = {};
    const resources = graph.resourcesOf(info.type);
    for (const key of info.properties) {
      if (key === "name") continue;
      const counts = new Map<string, number>();
      let filled = 0;
      for (const r of resources) {
        const v = text(r.properties[key]);
        if (v === "") continue;
        filled++;
        if (counts.size <= 1000) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      const distinct = counts.size;
      const top = distinct <= 50
        ? [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, 5)
          .map(([v, n]) => [v.slice(0, 80), n] as [string, number])
        : undefined;
      properties[key] = { filled, distinct, ...(top ? { top } : {}) };
    }
    return { type: info.type, count: info.count, properties, relations: info.relations };
  });
  aggregateCache.set(graph, out);
  return out;
}

/** A question about the graph's shape: which types there are, how many of each. */
const SHAPE_QUESTION =
  /\b(types?|kinds?|counts?|how many|number of|overview|summary|statistics|stats|totals?)\b/;

/**
 * The answer to a shape question: every type with its count (types the question names first,
 * then by count), as a `counts` table and a sentence.
 */
function shapeAnswer(
  all: readonly TypeAggregate[],
  totals: { types: number; resources: number; relations: number },
  query: string,
  q: string,
  limit: number,
) {
  const tokens = new Set(q.split(/[^\p{L}\p{N}_-]+/u).filter((t) => t !== ""));
  const named = (type: string) => {
    const t = type.toLowerCase();
    return tokens.has(t) || tokens.has(`${t}s`) || tokens.has(`${t}es`) ? 1 : 0;
  };
  const types = [...all].sort((a, b) =>
    named(b.type) - named(a.type) || b.count - a.count || (a.type < b.type ? -1 : 1)
  );
  const counts = Object.fromEntries(types.map((t) => [t.type, t.count]));
  return {
    query,
    totals,
    summary: `${totals.types} resource type(s), ${totals.resources} resource(s), ` +
      `${totals.relations} relation(s): ${types.map((t) => `${t.count} ${t.type}`).join(", ")}`,
    counts,
    types: types.slice(0, limit),
  };
}

/**
 * `globalSearch` (R73): per-type aggregates of the whole graph (counts, property fill rates and
 * most common values, relation types); with a query, the types are ranked by how well their
 * name, property keys and resources match it, and the best matching resources are named. A
 * question about types or counts ("which types are there and how many of each?") is answered with
 * every type and its count.
 */
export function globalSearch(graph: Graph, args: { query?: string; limit?: number }) {
  const limit = Math.min(200, Math.max(1, Math.floor(args.limit ?? 20)));
  const all = aggregates(graph);
  const totals = {
    types: all.length,
    resources: graph.resourceCount,
    relations: graph.relationCount,
  };
  const q = args.query?.trim().toLowerCase() ?? "";
  if (q === "") {
    const types = [...all].sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1));
    return { totals, types: types.slice(0, limit) };
  }
  if (SHAPE_QUESTION.test(q)) return shapeAnswer(all, totals, args.query!, q, limit);
  const hits = searchAll(graph, q);
  const perType = new Map<string, number>();
  for (const h of hits) perType.set(h.type, (perType.get(h.type) ?? 0) + 1);
  const topResources = hits.sort(byScore).slice(0, 10);
  const ranked = all.map((a) => {
    let relevance = (perType.get(a.type) ?? 0) > 0 ? 10 + Math.log2(1 + perType.get(a.type)!) : 0;
    if (a.type.toLowerCase().includes(q)) relevance += 50;
    if (Object.keys(a.properties).some((k) => k.toLowerCase().includes(q))) relevance += 20;
    return { aggregate: a, relevance, matches: perType.get(a.type) ?? 0 };
  }).filter((x) => x.relevance > 0)
    .sort((a, b) => b.relevance - a.relevance || (a.aggregate.type < b.aggregate.type ? -1 : 1));
  return {
    query: args.query,
    totals,
    types: ranked.slice(0, limit).map((x) => ({
      ...x.aggregate,
      relevance: Math.round(x.relevance * 10) / 10,
      matching_resources: x.matches,
    })),
    top_resources: topResources,
  };
}
