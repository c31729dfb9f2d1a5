/**
 * Payloads of the global `listNodes` and `findPaths` query fields (reference graphql.md G9/G10).
 *
 * @module
 */

import { compareStrings, type Graph, type Resource } from "../../graph/graph.ts";
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

/** `{type, name}` of every resource (only of `label` when given), by type then name. */
export function listNodes(graph: Graph, label?: string | null): NodeRef[] {
  const types = label === undefined || label === null ? graph.types() : [label];
  const out: NodeRef[] = [];
  for (const type of types) {
    for (const r of graph.resourcesOfSorted(type)) out.push({ type: r.type, name: r.name });
  }
  return out;
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
