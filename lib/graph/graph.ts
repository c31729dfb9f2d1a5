/**
 * The in-memory typed property graph: resources keyed by (type, name), directed relations with a
 * label and properties, and forward/reverse indexes for traversal.
 *
 * A graph is mutable while a build runs and sealed afterwards; a sealed graph rejects every
 * mutation, so a published snapshot can be shared by concurrent readers without copying.
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

interface MutableResource extends Resource {
  properties: Properties;
}

interface MutableRelation extends Relation {
  properties: Properties;
}

/**
 * A directed property graph of typed resources.
 *
 * @example
 * ```ts
 * import { Graph } from "./graph.ts";
 * const g = new Graph();
 * const web = g.upsertResource("host", "web-1", { env: "prod" });
 * const db = g.upsertResource("database", "db-1");
 * g.upsertRelation(web, "database", db);
 * console.log(g.outgoing(web).length); // 1
 * ```
 */
export class Graph {
  #byType = new Map<string, Map<string, MutableResource>>();
  #resources: MutableResource[] = [];
  #relations: (MutableRelation | undefined)[] = [];
  #relationCount = 0;
  #relationKey = new Map<string, MutableRelation>();
  #out = new Map<number, MutableRelation[]>();
  #in = new Map<number, MutableRelation[]>();
  #removed = new Set<number>();
  #sealed = false;

  /** True once {@link Graph.seal} was called. */
  get sealed(): boolean {
    return this.#sealed;
  }

  /** Makes the graph read-only. Idempotent. */
  seal(): void {
    this.#sealed = true;
  }

  #assertMutable(): void {
    if (this.#sealed) throw new GraphError("graph is sealed (published snapshots are read-only)");
  }

  /** Number of resources. */
  get resourceCount(): number {
    return this.#resources.length - this.#removed.size;
  }

  /** Number of relations. */
  get relationCount(): number {
    return this.#relationCount;
  }

  /**
   * Creates the resource (type, name) or returns the existing one, then assigns the given
   * properties on top of the existing ones (later values win; `name` never changes).
   */
  upsertResource(type: string, name: string, properties?: Properties): Resource {
    this.#assertMutable();
    if (type === "") throw new GraphError("resource type must not be empty");
    let ofType = this.#byType.get(type);
    if (!ofType) {
      ofType = new Map();
      this.#byType.set(type, ofType);
    }
    let resource = ofType.get(name);
    if (!resource) {
      resource = { id: this.#resources.length, type, name, properties: { name } };
      this.#resources.push(resource);
      ofType.set(name, resource);
    }
    if (properties) {
      for (const key in properties) {
        if (key === "name") continue;
        resource.properties[key] = properties[key];
      }
    }
    return resource;
  }

  /** Sets one property (use {@link Graph.deleteProperty} to remove). `name` cannot be changed. */
  setProperty(resource: Resource, key: string, value: JsonValue): void {
    this.#assertMutable();
    if (key === "name") {
      if (value !== resource.name) {
        throw new GraphError(`cannot change the name of ${resource.type} '${resource.name}'`);
      }
      return;
    }
    (resource as MutableResource).properties[key] = value;
  }

  /** Removes one property from a resource (never `name`). */
  deleteProperty(resource: Resource, key: string): void {
    this.#assertMutable();
    if (key !== "name") delete (resource as MutableResource).properties[key];
  }

  /** The resource (type, name), if present. */
  getResource(type: string, name: string): Resource | undefined {
    return this.#byType.get(type)?.get(name);
  }

  /** The resource with the given id, if present and not removed. */
  getResourceById(id: number): Resource | undefined {
    return this.#removed.has(id) ? undefined : this.#resources[id];
  }

  /** Resource types present, in sorted order. */
  types(): string[] {
    const out: string[] = [];
    for (const [type, m] of this.#byType) if (m.size > 0) out.push(type);
    return out.sort(compareStrings);
  }

  /** True when at least one resource of `type` exists. */
  hasType(type: string): boolean {
    return (this.#byType.get(type)?.size ?? 0) > 0;
  }

  /** Resources of a type in insertion order (a fresh array; safe to iterate while mutating). */
  resourcesOf(type: string): Resource[] {
    const m = this.#byType.get(type);
    return m ? [...m.values()] : [];
  }

  /** Resources of a type ordered by name (code-unit order). */
  resourcesOfSorted(type: string): Resource[] {
    return this.resourcesOf(type).sort((a, b) => compareStrings(a.name, b.name));
  }

  /** All resources in insertion order. */
  *resources(): IterableIterator<Resource> {
    for (const r of this.#resources) if (!this.#removed.has(r.id)) yield r;
  }

  /** All relations in creation order. */
  *relations(): IterableIterator<Relation> {
    for (const r of this.#relations) if (r) yield r;
  }

  /**
   * Creates the relation source -[type]-> target, or merges `properties` into the existing one:
   * at most one relation of a given type exists between the same ordered pair (reference O5).
   */
  upsertRelation(
    source: Resource,
    type: string,
    target: Resource,
    properties?: Properties,
  ): Relation {
    this.#assertMutable();
    if (type === "") throw new GraphError("relation type must not be empty");
    const key = `${source.id}\u0000${type}\u0000${target.id}`;
    let relation = this.#relationKey.get(key);
    if (!relation) {
      relation = { id: this.#relations.length, type, source, target, properties: {} };
      this.#relations.push(relation);
      this.#relationCount++;
      this.#relationKey.set(key, relation);
      pushTo(this.#out, source.id, relation);
      pushTo(this.#in, target.id, relation);
    }
    if (properties) Object.assign(relation.properties, properties);
    return relation;
  }

  /** The relation source -[type]-> target, if present. */
  getRelation(source: Resource, type: string, target: Resource): Relation | undefined {
    return this.#relationKey.get(`${source.id}\u0000${type}\u0000${target.id}`);
  }

  /** Sets one relation property. */
  setRelationProperty(relation: Relation, key: string, value: JsonValue): void {
    this.#assertMutable();
    (relation as MutableRelation).properties[key] = value;
  }

  /** Relations leaving `resource`, optionally only those of `type`, in creation order. */
  outgoing(resource: Resource, type?: string): readonly Relation[] {
    const all = this.#out.get(resource.id) ?? EMPTY;
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  /** Relations arriving at `resource`, optionally only those of `type`, in creation order. */
  incoming(resource: Resource, type?: string): readonly Relation[] {
    const all = this.#in.get(resource.id) ?? EMPTY;
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  /** Removes a relation. */
  removeRelation(relation: Relation): void {
    this.#assertMutable();
    const key = `${relation.source.id}\u0000${relation.type}\u0000${relation.target.id}`;
    if (this.#relationKey.get(key) !== relation) return;
    this.#relationKey.delete(key);
    this.#relations[relation.id] = undefined;
    this.#relationCount--;
    removeFrom(this.#out, relation.source.id, relation);
    removeFrom(this.#in, relation.target.id, relation);
  }

  /** Changes the type and/or target of a relation, merging into an existing twin if needed. */
  retypeRelation(relation: Relation, newType: string, newTarget?: Resource): Relation {
    this.#assertMutable();
    const target = newTarget ?? relation.target;
    this.removeRelation(relation);
    return this.upsertRelation(relation.source, newType, target, relation.properties);
  }

  /** Removes a resource and every relation touching it. */
  removeResource(resource: Resource): void {
    this.#assertMutable();
    if (this.#removed.has(resource.id)) return;
    for (const r of [...this.outgoing(resource), ...this.incoming(resource)]) {
      this.removeRelation(r);
    }
    this.#byType.get(resource.type)?.delete(resource.name);
    this.#removed.add(resource.id);
  }

  /** Serialises the graph in the `graphJson` shape (resources by type then name). */
  toJSON(): GraphJson {
    const nodes: GraphJsonNode[] = [];
    for (const type of this.types()) {
      for (const r of this.resourcesOfSorted(type)) {
        nodes.push({ type: r.type, name: r.name, properties: r.properties });
      }
    }
    const edges: GraphJsonEdge[] = [...this.relations()]
      .sort(compareRelations)
      .map((r) => ({
        source: { type: r.source.type, name: r.source.name },
        target: { type: r.target.type, name: r.target.name },
        type: r.type,
        properties: r.properties,
      }));
    return { nodes, edges };
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

const EMPTY: readonly Relation[] = Object.freeze([]);

/** Compares strings by UTF-16 code units (deterministic, locale independent). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRelations(a: Relation, b: Relation): number {
  return compareStrings(a.source.type, b.source.type) ||
    compareStrings(a.source.name, b.source.name) ||
    compareStrings(a.type, b.type) ||
    compareStrings(a.target.type, b.target.type) ||
    compareStrings(a.target.name, b.target.name);
}

function pushTo<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function removeFrom<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
}
