/**
 * The value types of the graph: resources, relations, property values, the JSON shape of a whole
 * graph, and the graph's error. Re-exported by `graph.ts`, where most code imports them from.
 *
 * @module
 */

/** A JSON value as stored in resource and relation properties. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Property map of a resource or relation. */
export type Properties = Record<string, JsonValue>;

/** A node of the graph. `properties.name` always equals `name`. */
export interface Resource {
  /** Dense numeric id, unique within one graph; stable for the graph's lifetime. */
  readonly id: number;
  /** Resource type (label), e.g. `host`. */
  readonly type: string;
  /** Primary key within the type. */
  readonly name: string;
  /** Properties, including `name`. */
  readonly properties: Properties;
}

/** A directed, labelled edge between two resources. */
export interface Relation {
  /** Dense numeric id, unique within one graph. */
  readonly id: number;
  /** Relation type (label), e.g. `RUNS_ON` or a column name such as `database`. */
  readonly type: string;
  /** Resource the relation starts at. */
  readonly source: Resource;
  /** Resource the relation points to. */
  readonly target: Resource;
  /** Edge properties. */
  readonly properties: Properties;
}

/** Thrown when a sealed graph is mutated or an argument is invalid. */
export class GraphError extends Error {
  /** Creates the error. @param message what went wrong */
  constructor(message: string) {
    super(message);
    this.name = "GraphError";
  }
}

/** A node of {@link GraphJson}. */
export interface GraphJsonNode {
  /** Resource type. */
  type: string;
  /** Primary key. */
  name: string;
  /** Properties including `name`. */
  properties: Properties;
}

/** An edge of {@link GraphJson}. */
export interface GraphJsonEdge {
  /** Start of the relation. */
  source: { type: string; name: string };
  /** End of the relation. */
  target: { type: string; name: string };
  /** Relation type. */
  type: string;
  /** Edge properties. */
  properties: Properties;
}

/** The serialised graph, as returned by GraphQL `graphJson` and `build --graph-json`. */
export interface GraphJson {
  /** All resources, ordered by type then name. */
  nodes: GraphJsonNode[];
  /** All relations, ordered by source, type, target. */
  edges: GraphJsonEdge[];
}

/** Compares strings by UTF-16 code units (deterministic, locale independent). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
