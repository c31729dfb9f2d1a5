/**
 * Payloads of the global `listNodes` and `findPaths` query fields (reference graphql.md G9/G10).
 *
 * @module
 */

import {
  compareStrings,
  type Graph,
  type GraphJson,
  type Relation,
  type Resource,
} from "../../graph/graph.ts";
import { GraphQLInt } from "graphql";
import { ArgumentError, LimitExceededError } from "./errors.ts";

/** One entry of `listNodes`. */
export interface NodeRef {
  /** Resource type. */
  type: string;
  /** Resource name. */
  name: string;
}

/** One step of a `findPaths` path; `relation`/`direction` describe the edge leading to it. */
export interface PathStep extends NodeRef {
  /** Relation type of the edge that led here (absent on the first step). */
  relation?: string;
  /** `outgoing` when the edge was followed source → target, `incoming` when reversed. */
  direction?: "outgoing" | "incoming";
}

/** Default of the `maxDepth` argument of `findPaths`. */
export const DEFAULT_PATH_DEPTH = 6;
/** Largest accepted `maxDepth`. */
export const MAX_PATH_DEPTH = 15;
/** Most paths one `findPaths` call may return. */
export const MAX_PATHS = 10_000;
/** Most partial paths one `findPaths` call may explore before it is rejected. */
export const MAX_PATH_EXPANSIONS = 1_000_000;

/**
 * Paging arguments of list fields (`listNodes`, `graphJson`, the per-type root fields): skip
 * `offset` items (default 0), then return at most `limit` items (default: all). One convention
 * for every paged field; the query cost (cost.ts) uses `limit` as the expected item count.
 */
export interface Page {
  /** Most items to return; absent or null = all remaining. */
  readonly limit?: number | null;
  /** Items to skip first; absent or null = 0. */
  readonly offset?: number | null;
}

/** The `limit`/`offset` arguments of every paged field (see {@link Page}). */
export const PAGE_ARGS = {
  limit: { type: GraphQLInt, description: "Most items to return (default: all)." },
  offset: { type: GraphQLInt, description: "Items to skip first (default 0)." },
} as const;

/** Start and end (exclusive) indexes of `page` in a list of `total` items; checks the arguments. */
export function pageBounds(page: Page | undefined, total: number): [number, number] {
  const offset = page?.offset ?? 0;
  const limit = page?.limit ?? null;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ArgumentError("offset must be a non-negative integer");
  }
  if (limit !== null && (!Number.isInteger(limit) || limit < 0)) {
    throw new ArgumentError("limit must be a non-negative integer");
  }
  const start = Math.min(offset, total);
  return [start, limit === null ? total : Math.min(total, start + limit)];
}

/** The items of `page` (the list itself when the page covers it). */
export function pageOf<T>(items: readonly T[], page?: Page): readonly T[] {
  const [start, end] = pageBounds(page, items.length);
  return start === 0 && end === items.length ? items : items.slice(start, end);
}

/**
 * `{type, name}` of every resource (only of `label` when given), by type then name, optionally
 * one {@link Page} of them.
 */
export function listNodes(graph: Graph, label?: string | null, page?: Page): NodeRef[] {
  const types = label === undefined || label === null ? graph.types() : [label];
  let [skip, end] = pageBounds(page, Number.MAX_SAFE_INTEGER);
  let remaining = end - skip;
  const out: NodeRef[] = [];
  for (const type of types) {
    if (remaining <= 0) break;
    const sorted = graph.resourcesOfSorted(type);
    if (skip >= sorted.length) {
      skip -= sorted.length;
      continue;
    }
    const slice = sorted.slice(skip, skip + remaining);
    skip = 0;
    remaining -= slice.length;
    for (const r of slice) out.push({ type: r.type, name: r.name });
  }
  return out;
}

/**
 * One page of the `graphJson` payload: the nodes of `page` (by type then name) and the edges whose
 * source is among them, in the order of `Graph.toJSON` (so concatenated pages equal the whole).
 */
export function graphJsonPage(graph: Graph, page: Page): GraphJson {
  const nodes = listNodes(graph, null, page);
  const out: GraphJson = { nodes: [], edges: [] };
  for (const ref of nodes) {
    const r = graph.getResource(ref.type, ref.name)!;
    out.nodes.push({ type: r.type, name: r.name, properties: r.properties });
    const rels = [...graph.outgoing(r)].sort(compareOutgoing);
    for (const rel of rels) {
      out.edges.push({
        source: { type: r.type, name: r.name },
        target: { type: rel.target.type, name: rel.target.name },
        type: rel.type,
        properties: rel.properties,
      });
    }
  }
  return out;
}

function compareOutgoing(a: Relation, b: Relation): number {
  return compareStrings(a.type, b.type) || compareStrings(a.target.type, b.target.type) ||
    compareStrings(a.target.name, b.target.name);
}

interface Partial {
  readonly node: Resource;
  readonly prev: Partial | undefined;
  readonly relation: string | undefined;
  readonly direction: "outgoing" | "incoming" | undefined;
  readonly depth: number;
}

interface Hop {
  node: Resource;
  relation: string;
  direction: "outgoing" | "incoming";
}

/**
 * Breadth-first search for every simple path (no resource visited twice) of 1..`maxDepth` edges
 * from the start resource to any resource of `endLabel`, following relations in both directions.
 * Paths may pass through other `endLabel` resources. Shorter paths come first; paths of equal
 * length are ordered by their steps (type, name, relation, direction). An unknown start → `[]`.
 */
export function findPaths(
  graph: Graph,
  startLabel: string,
  startName: string,
  endLabel: string,
  maxDepth: number = DEFAULT_PATH_DEPTH,
): PathStep[][] {
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > MAX_PATH_DEPTH) {
    throw new ArgumentError(`maxDepth must be an integer between 0 and ${MAX_PATH_DEPTH}`);
  }
  const start = graph.getResource(startLabel, startName);
  if (!start) return [];
  const paths: PathStep[][] = [];
  let queue: Partial[] = [{
    node: start,
    prev: undefined,
    relation: undefined,
    direction: undefined,
    depth: 0,
  }];
  let expansions = 0;
  while (queue.length > 0) {
    const next: Partial[] = [];
    for (const partial of queue) {
      if (partial.depth >= maxDepth) continue;
      for (const hop of hops(graph, partial.node)) {
        if (onPath(partial, hop.node)) continue;
        if (++expansions > MAX_PATH_EXPANSIONS) {
          throw new LimitExceededError(
            `findPaths explored more than ${MAX_PATH_EXPANSIONS} partial paths; lower maxDepth`,
          );
        }
        const extended: Partial = {
          node: hop.node,
          prev: partial,
          relation: hop.relation,
          direction: hop.direction,
          depth: partial.depth + 1,
        };
        if (hop.node.type === endLabel) {
          if (paths.length >= MAX_PATHS) {
            throw new LimitExceededError(
              `findPaths found more than ${MAX_PATHS} paths; lower maxDepth`,
            );
          }
          paths.push(toSteps(extended));
        }
        next.push(extended);
      }
    }
    queue = next;
  }
  return paths;
}

function hops(graph: Graph, node: Resource): Hop[] {
  const out: Hop[] = [];
  for (const r of graph.outgoing(node)) {
    out.push({ node: r.target, relation: r.type, direction: "outgoing" });
  }
  for (const r of graph.incoming(node)) {
    out.push({ node: r.source, relation: r.type, direction: "incoming" });
  }
  return out.sort((a, b) =>
    compareStrings(a.node.type, b.node.type) || compareStrings(a.node.name, b.node.name) ||
    compareStrings(a.relation, b.relation) || compareStrings(a.direction, b.direction)
  );
}

function onPath(partial: Partial | undefined, node: Resource): boolean {
  for (let p = partial; p; p = p.prev) if (p.node === node) return true;
  return false;
}

function toSteps(partial: Partial): PathStep[] {
  const steps: PathStep[] = [];
  for (let p: Partial | undefined = partial; p; p = p.prev) {
    const step: PathStep = { type: p.node.type, name: p.node.name };
    if (p.relation !== undefined) {
      step.relation = p.relation;
      step.direction = p.direction;
    }
    steps.push(step);
  }
  return steps.reverse();
}
