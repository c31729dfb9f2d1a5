/**
 * The neighbourhood of a resource for the explorer's graph view (`GET /api/neighbourhood`): the
 * resources within a few relations of it, either direction, optionally only along some labels,
 * bounded in nodes so a browser can lay it out.
 *
 * @module
 */
import { compareStrings, type Graph, type Relation, type Resource } from "../graph/graph.ts";

/** A node of a neighbourhood. */
export interface NeighbourNode {
  /** `type/name`. */
  id: string;
  /** Resource type. */
  type: string;
  /** Resource name. */
  name: string;
  /** Distance from the centre (0 = the centre). */
  depth: number;
}

/** The neighbourhood of a resource. */
export interface Neighbourhood {
  /** Nodes, the centre first. */
  nodes: NeighbourNode[];
  /** Edges between the nodes. */
  edges: { id: string; source: string; target: string; label: string }[];
  /** Every label next to the reached nodes (for the label filter), by name. */
  labels: string[];
  /** True when the node limit cut the walk short. */
  truncated: boolean;
}

/**
 * The resources within `depth` relations (either direction) of a resource, following only the
 * given labels when any, at most `maxNodes` nodes.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { neighbourhood } from "./neighbourhood.ts";
 * const g = new Graph();
 * const a = g.upsertResource("app", "shop");
 * g.upsertRelation(a, "RUNS_ON", g.upsertResource("host", "web-1"));
 * neighbourhood(g, "app", "shop", 1)!.nodes.map((n) => n.id); // ["app/shop", "host/web-1"]
 * ```
 */
export function neighbourhood(
  graph: Graph,
  type: string,
  name: string,
  depth: number,
  labels: readonly string[] = [],
  maxNodes = 300,
): Neighbourhood | undefined {
  const centre = graph.getResource(type, name);
  if (!centre) return undefined;
  const follow = labels.length > 0 ? new Set(labels) : undefined;
  const key = (r: Resource) => `${r.type}/${r.name}`;
  const seen = new Map<number, NeighbourNode>([[centre.id, {
    id: key(centre),
    type,
    name,
    depth: 0,
  }]]);
  const edges = new Map<number, Relation>();
  const allLabels = new Set<string>();
  let frontier = [centre];
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length > 0 && !truncated; d++) {
    const next: Resource[] = [];
    for (const r of frontier) {
      const rels = [...graph.outgoing(r), ...graph.incoming(r)];
      for (const rel of rels) {
        allLabels.add(rel.type);
        if (follow && !follow.has(rel.type)) continue;
        const other = rel.source === r ? rel.target : rel.source;
        if (!seen.has(other.id)) {
          if (seen.size >= maxNodes) {
            truncated = true;
            continue;
          }
          seen.set(other.id, { id: key(other), type: other.type, name: other.name, depth: d });
          next.push(other);
        }
        edges.set(rel.id, rel);
      }
    }
    frontier = next;
  }
  return {
    nodes: [...seen.values()],
    edges: [...edges.values()].map((rel) => ({
      id: `e${rel.id}`,
      source: key(rel.source),
      target: key(rel.target),
      label: rel.type,
    })),
    labels: [...allLabels].sort(compareStrings),
    truncated,
  };
}
