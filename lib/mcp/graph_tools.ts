/**
 * The graph queries behind the MCP tools (reference R71): plain functions of a sealed graph that
 * answer compact JSON values an agent can use directly. Unknown types or resources are
 * {@link ToolInputError}s (the tool answers `isError` with the message).
 *
 * @module
 */
import type { Graph, JsonValue, Relation, Resource } from "../graph/graph.ts";
import { valueEquals } from "../pipeline/rules/conditions.ts";

/** A tool was called with arguments that name nothing in the graph. */
export class ToolInputError extends Error {
  /** @param message what is wrong, naming the type or resource */
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

/** A resource reference as tools print it. */
export interface Ref {
  /** Resource type. */
  type: string;
  /** Primary key. */
  name: string;
}

/** Largest page of {@link listResources}. */
export const MAX_PAGE = 500;
/** Most relations listed per direction by {@link getResource} and {@link getNeighbors}. */
export const MAX_NEIGHBORS = 200;

/** `{type, name}` of a resource. */
export function refOf(r: Resource): Ref {
  return { type: r.type, name: r.name };
}

/** The resource `type`/`name`, or a {@link ToolInputError} naming what is missing. */
export function requireResource(graph: Graph, type: string, name: string): Resource {
  if (!graph.hasType(type)) {
    throw new ToolInputError(`no resource type '${type}' (see listResourceTypes)`);
  }
  const r = graph.getResource(type, name);
  if (!r) throw new ToolInputError(`no ${type} named '${name}'`);
  return r;
}

function edges(list: readonly Relation[], side: "source" | "target", limit: number) {
  return list.slice(0, limit).map((rel) => ({
    relation: rel.type,
    ...refOf(rel[side]),
    ...(Object.keys(rel.properties).length > 0 ? { properties: rel.properties } : {}),
  }));
}

/**
 * `getResource`: properties and relations (both directions, capped) of one resource.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { getResource } from "./graph_tools.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1", { os: "linux" });
 * getResource(g, "host", "web-1").properties; // { name: "web-1", os: "linux" }
 * ```
 */
export function getResource(graph: Graph, type: string, name: string) {
  const r = requireResource(graph, type, name);
  const out = graph.outgoing(r);
  const inc = graph.incoming(r);
  return {
    type: r.type,
    name: r.name,
    properties: r.properties,
    outgoing: edges(out, "target", MAX_NEIGHBORS),
    incoming: edges(inc, "source", MAX_NEIGHBORS),
    ...(out.length > MAX_NEIGHBORS || inc.length > MAX_NEIGHBORS
      ? { truncated: { outgoing: out.length, incoming: inc.length } }
      : {}),
  };
}

/** Arguments of {@link listResources}. */
export interface ListArgs {
  /** Resource type. */
  type: string;
  /** Exact property values every listed resource must have. */
  filter?: Record<string, JsonValue>;
  /** Items to skip (default 0). */
  offset?: number;
  /** Page size (default 50, at most {@link MAX_PAGE}). */
  limit?: number;
}

/** `listResources`: one page of a type's resources (sorted by name), filtered exactly. */
export function listResources(graph: Graph, args: ListArgs) {
  if (!graph.hasType(args.type)) {
    throw new ToolInputError(`no resource type '${args.type}' (see listResourceTypes)`);
  }
  const filter = Object.entries(args.filter ?? {});
  const all = graph.resourcesOfSorted(args.type).filter((r) =>
    filter.every(([k, v]) => {
      const actual = r.properties[k];
      return actual !== undefined && actual !== null && valueEquals(actual, v);
    })
  );
  const offset = Math.max(0, Math.floor(args.offset ?? 0));
  const limit = Math.min(MAX_PAGE, Math.max(1, Math.floor(args.limit ?? 50)));
  const items = all.slice(offset, offset + limit).map((r) => r.properties);
  return {
    type: args.type,
    total: all.length,
    offset,
    limit,
    items,
    ...(offset + limit < all.length ? { next_offset: offset + limit } : {}),
  };
}

/** Arguments of {@link getNeighbors}. */
export interface NeighborArgs {
  /** Resource type. */
  type: string;
  /** Primary key. */
  name: string;
  /** `out`, `in` or `both` (default). */
  direction?: "in" | "out" | "both";
  /** Only relations of this type. */
  relation?: string;
  /** Most neighbours per direction (default and cap {@link MAX_NEIGHBORS}). */
  limit?: number;
}

/** `getNeighbors`: the resources one relation away, with the relation type. */
export function getNeighbors(graph: Graph, args: NeighborArgs) {
  const r = requireResource(graph, args.type, args.name);
  const dir = args.direction ?? "both";
  const limit = Math.min(MAX_NEIGHBORS, Math.max(1, Math.floor(args.limit ?? MAX_NEIGHBORS)));
  const out = dir === "in" ? [] : graph.outgoing(r, args.relation);
  const inc = dir === "out" ? [] : graph.incoming(r, args.relation);
  return {
    resource: refOf(r),
    outgoing: edges(out, "target", limit),
    incoming: edges(inc, "source", limit),
    counts: { outgoing: out.length, incoming: inc.length },
  };
}

/** One step of a path: the relation and the direction it was followed in. */
export interface PathStep {
  /** Where the step starts. */
  from: Ref;
  /** Relation type. */
  relation: string;
  /** `out`: along the relation; `in`: against it. */
  direction: "out" | "in";
  /** Where the step ends. */
  to: Ref;
}

/**
 * `findPath`: a shortest path between two resources (breadth-first; relations are followed both
 * ways unless `directed`), at most `maxDepth` steps (default 6, cap 12).
 */
export function findPath(
  graph: Graph,
  from: Ref,
  to: Ref,
  options: { maxDepth?: number; directed?: boolean } = {},
) {
  const start = requireResource(graph, from.type, from.name);
  const goal = requireResource(graph, to.type, to.name);
  const maxDepth = Math.min(12, Math.max(1, Math.floor(options.maxDepth ?? 6)));
  const back = new Map<number, { prev: Resource; rel: Relation; dir: "out" | "in" } | null>();
  back.set(start.id, null);
  let frontier = [start];
  for (let depth = 0; depth < maxDepth && !back.has(goal.id) && frontier.length > 0; depth++) {
    const next: Resource[] = [];
    for (const r of frontier) {
      const steps: [Relation, Resource, "out" | "in"][] = graph.outgoing(r).map((rel) =>
        [rel, rel.target, "out"] as [Relation, Resource, "out"]
      );
      if (!options.directed) {
        for (const rel of graph.incoming(r)) steps.push([rel, rel.source, "in"]);
      }
      for (const [rel, n, dir] of steps) {
        if (back.has(n.id)) continue;
        back.set(n.id, { prev: r, rel, dir });
        next.push(n);
      }
    }
    frontier = next;
  }
  if (!back.has(goal.id)) {
    return { found: false, from: refOf(start), to: refOf(goal), max_depth: maxDepth };
  }
  const path: PathStep[] = [];
  for (let cur = goal, step = back.get(cur.id); step; cur = step.prev, step = back.get(cur.id)) {
    path.unshift({
      from: refOf(step.prev),
      relation: step.rel.type,
      direction: step.dir,
      to: refOf(cur),
    });
  }
  return { found: true, length: path.length, path };
}

interface TypeInfo {
  type: string;
  count: number;
  properties: string[];
  relations: { outgoing: Record<string, string[]>; incoming: Record<string, string[]> };
}

const typeCache = new WeakMap<Graph, TypeInfo[]>();

/**
 * `listResourceTypes`: every type with its resource count, property keys and relation types
 * (with the types at the other end). Computed once per graph.
 */
export function listResourceTypes(graph: Graph): TypeInfo[] {
  const cached = typeCache.get(graph);
  if (cached) return cached;
  const out: TypeInfo[] = [];
  for (const type of graph.types()) {
    const keys = new Set<string>();
    const outgoing = new Map<string, Set<string>>();
    const incoming = new Map<string, Set<string>>();
    const add = (m: Map<string, Set<string>>, k: string, v: string) => {
      let s = m.get(k);
      if (!s) m.set(k, s = new Set());
      s.add(v);
    };
    const resources = graph.resourcesOf(type);
    for (const r of resources) {
      for (const k of Object.keys(r.properties)) keys.add(k);
      for (const rel of graph.outgoing(r)) add(outgoing, rel.type, rel.target.type);
      for (const rel of graph.incoming(r)) add(incoming, rel.type, rel.source.type);
    }
    const plain = (m: Map<string, Set<string>>) =>
      Object.fromEntries(
        [...m].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map((
          [k, v],
        ) => [k, [...v].sort()]),
      );
    out.push({
      type,
      count: resources.length,
      properties: [...keys].sort(),
      relations: { outgoing: plain(outgoing), incoming: plain(incoming) },
    });
  }
  typeCache.set(graph, out);
  return out;
}
