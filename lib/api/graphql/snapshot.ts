/**
 * Per-snapshot state of the GraphQL API: the graph a request reads, its schema model and the
 * caches its resolvers and cost estimators use (sorted resource lists, average relation counts,
 * the `graphJson` text). Schemas depend only on a graph's shape ({@link shapeSignature}), so one
 * schema serves every snapshot of that shape; each request reaches its own snapshot through the
 * execution context instead of a closure.
 *
 * @module
 */

import type { Graph, Resource } from "../../graph/graph.ts";
import { buildSchemaModel, type SchemaModel } from "./model.ts";

/**
 * The data of one graph snapshot as resolvers see it. Caches fill only while the graph is
 * sealed (published snapshots are read-only); a graph still being built is read afresh.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * const g = new Graph();
 * g.upsertResource("zone", "example.org");
 * g.seal();
 * console.log(graphState(g).sortedOf("zone").length); // 1
 * ```
 */
export class GraphState {
  /** The snapshot. */
  readonly graph: Graph;
  #model?: SchemaModel;
  #signature?: string;
  #sorted = new Map<string, readonly Resource[]>();
  #averages = new Map<string, number>();
  #json?: string;

  constructor(graph: Graph) {
    this.graph = graph;
  }

  /** The schema model of the graph (one scan; kept once the graph is sealed). */
  get model(): SchemaModel {
    if (this.#model) return this.#model;
    const model = buildSchemaModel(this.graph);
    if (this.graph.sealed) this.#model = model;
    return model;
  }

  /** {@link shapeSignature} of the graph's model (kept once the graph is sealed). */
  get signature(): string {
    if (this.#signature !== undefined) return this.#signature;
    const signature = shapeSignature(this.model);
    if (this.graph.sealed) this.#signature = signature;
    return signature;
  }

  /** Resources of `type` ordered by name. */
  sortedOf(type: string): readonly Resource[] {
    if (!this.graph.sealed) return this.graph.resourcesOfSorted(type);
    let list = this.#sorted.get(type);
    if (!list) this.#sorted.set(type, list = this.graph.resourcesOfSorted(type));
    return list;
  }

  /**
   * Average edge count of relation field `raw` over resources of `parentType` (at least 1): the
   * expected size of the field for the query cost (G16).
   */
  relationAverage(parentType: string, raw: string): number {
    const key = `${parentType}\u0000${raw}`;
    const known = this.#averages.get(key);
    if (known !== undefined) return known;
    const graph = this.graph;
    const parents = graph.resourcesOf(parentType);
    let edges = 0;
    for (const p of parents) {
      edges += graph.outgoing(p, raw).length;
      for (const r of graph.incoming(p)) if (r.source.type === raw) edges++;
    }
    const value = Math.max(1, parents.length === 0 ? 1 : edges / parents.length);
    if (graph.sealed) this.#averages.set(key, value);
    return value;
  }

  /** The whole graph as JSON text (kept once the graph is sealed). */
  graphJson(): string {
    if (this.#json !== undefined) return this.#json;
    const text = JSON.stringify(this.graph.toJSON());
    if (this.graph.sealed) this.#json = text;
    return text;
  }
}

const states = new WeakMap<Graph, GraphState>();

/**
 * The {@link GraphState} of a graph, created on first use and kept as long as the graph lives.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * const g = new Graph();
 * console.log(graphState(g) === graphState(g)); // true
 * ```
 */
export function graphState(graph: Graph): GraphState {
  let state = states.get(graph);
  if (!state) states.set(graph, state = new GraphState(graph));
  return state;
}

/**
 * A string that is equal for two models exactly when they generate the same schema: resource
 * types with their property fields (key, scalar) and relation fields (node types, edge
 * properties, directions), in model order, with every generated name. Counts are left out.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { buildSchemaModel } from "./model.ts";
 * const a = new Graph();
 * a.upsertResource("zone", "a.org", { ttl: 60 });
 * const b = new Graph();
 * b.upsertResource("zone", "b.org", { ttl: 300 });
 * console.log(shapeSignature(buildSchemaModel(a)) === shapeSignature(buildSchemaModel(b))); // true
 * ```
 */
export function shapeSignature(model: SchemaModel): string {
  return JSON.stringify(model.types.map((t) => [
    t.raw,
    t.typeName,
    t.rootFieldName,
    t.properties.map((p) => [p.key, p.fieldName, p.scalar]),
    t.relations.map((r) => [
      r.raw,
      r.fieldName,
      r.nodeTypes,
      r.edgeProperties.map((p) => [p.key, p.fieldName, p.scalar]),
      r.edgeTypeName,
      r.propertiesTypeName,
      r.unionTypeName,
      r.outgoing,
      r.incoming,
    ]),
  ]));
}
