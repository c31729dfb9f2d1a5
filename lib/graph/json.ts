/**
 * Serialisation of a graph in the `graphJson` shape: resources by type then name, relations by
 * source, type and target.
 *
 * @module
 */
import type { Graph } from "./graph.ts";
import {
  compareStrings,
  type GraphJson,
  type GraphJsonEdge,
  type GraphJsonNode,
  type Relation,
} from "./types.ts";

/**
 * The graph as {@link GraphJson} (what `Graph.toJSON` returns).
 *
 * @example
 * ```ts
 * import { Graph } from "./graph.ts";
 * import { graphToJson } from "./json.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1");
 * console.log(graphToJson(g).nodes.length); // 1
 * ```
 */
export function graphToJson(graph: Graph): GraphJson {
  const nodes: GraphJsonNode[] = [];
  for (const type of graph.types()) {
    for (const r of graph.resourcesOfSorted(type)) {
      nodes.push({ type: r.type, name: r.name, properties: r.properties });
    }
  }
  const edges: GraphJsonEdge[] = [...graph.relations()]
    .sort(compareRelations)
    .map((r) => ({
      source: { type: r.source.type, name: r.source.name },
      target: { type: r.target.type, name: r.target.name },
      type: r.type,
      properties: r.properties,
    }));
  return { nodes, edges };
}

function compareRelations(a: Relation, b: Relation): number {
  return compareStrings(a.source.type, b.source.type) ||
    compareStrings(a.source.name, b.source.name) ||
    compareStrings(a.type, b.type) ||
    compareStrings(a.target.type, b.target.type) ||
    compareStrings(a.target.name, b.target.name);
}
