/**
 * The in-memory typed property graph: resources keyed by (type, name), directed relations with a
 * label and properties, and forward/reverse indexes for traversal.
 *
 * A graph is mutable while a build runs and sealed afterwards; a sealed graph rejects every
 * mutation, so a published snapshot can be shared by concurrent readers without copying.
 *
 * @module
 */
import { setById } from "./dense.ts";

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
  /** Relations by source / target resource id (relation identity is found by scanning). */
  #out: (MutableRelation[] | undefined)[] = [];
  #in: (MutableRelation[] | undefined)[] = [];
  /** For sources with many outgoing relations: target id -> relations to it. */
  #outIndex = new Map<number, Map<number, MutableRelation[]>>();
  #removed = new Set<number>();
  #sealed = false;
  /** Change counter per resource id: properties or relations touching it (see `version`). */
  #versions: number[] = [];

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
      this.#versions.push(0);
      ofType.set(name, resource);
    }
    if (properties) {
      this.#versions[resource.id]++;
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
    this.#versions[resource.id]++;
  }

  /** Removes one property from a resource (never `name`). */
  deleteProperty(resource: Resource, key: string): void {
    this.#assertMutable();
    if (key !== "name") delete (resource as MutableResource).properties[key];
    this.#versions[resource.id]++;
  }

  /**
   * A number that changes whenever the resource's properties or the relations touching it
   * (including their properties) change; lets callers cache what they derive from a resource.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const a = g.upsertResource("host", "a");
   * const before = g.version(a);
   * g.setProperty(a, "env", "prod");
   * console.log(g.version(a) !== before); // true
   * ```
   */
  version(resource: Resource): number {
    return this.#versions[resource.id] ?? -1;
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
    let relation = this.#find(source, type, target);
    if (!relation) {
      relation = { id: this.#relations.length, type, source, target, properties: NO_PROPERTIES };
      this.#relations.push(relation);
      this.#relationCount++;
      const out = pushTo(this.#out, source.id, relation);
      pushTo(this.#in, target.id, relation);
      const index = this.#outIndex.get(source.id);
      if (index) pushToMap(index, target.id, relation);
      else if (out.length > INDEX_FANOUT) this.#indexOutgoing(source.id, out);
      this.#versions[source.id]++;
      this.#versions[target.id]++;
    }
    if (properties) {
      if (relation.properties === NO_PROPERTIES) relation.properties = {};
      Object.assign(relation.properties, properties);
      this.#versions[source.id]++;
      this.#versions[target.id]++;
    }
    return relation;
  }

  /** The relation source -[type]-> target, if present. */
  getRelation(source: Resource, type: string, target: Resource): Relation | undefined {
    return this.#find(source, type, target);
  }

  #find(source: Resource, type: string, target: Resource): MutableRelation | undefined {
    const index = this.#outIndex.get(source.id);
    const list = index ? index.get(target.id) : this.#out[source.id];
    if (list) {
      for (let i = 0; i < list.length; i++) {
        const r = list[i];
        if (r.target === target && r.type === type) return r;
      }
    }
    return undefined;
  }

  #indexOutgoing(sourceId: number, out: MutableRelation[]): void {
    const index = new Map<number, MutableRelation[]>();
    for (const r of out) pushToMap(index, r.target.id, r);
    this.#outIndex.set(sourceId, index);
  }

  /** Sets one relation property. */
  setRelationProperty(relation: Relation, key: string, value: JsonValue): void {
    this.#assertMutable();
    const r = relation as MutableRelation;
    if (r.properties === NO_PROPERTIES) r.properties = {};
    r.properties[key] = value;
    this.#versions[relation.source.id]++;
    this.#versions[relation.target.id]++;
  }

  /** Relations leaving `resource`, optionally only those of `type`, in creation order. */
  outgoing(resource: Resource, type?: string): readonly Relation[] {
    const all = this.#out[resource.id] ?? EMPTY;
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  /** Relations arriving at `resource`, optionally only those of `type`, in creation order. */
  incoming(resource: Resource, type?: string): readonly Relation[] {
    const all = this.#in[resource.id] ?? EMPTY;
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  /** Removes a relation. */
  removeRelation(relation: Relation): void {
    this.#assertMutable();
    if (this.#relations[relation.id] !== relation) return;
    this.#relations[relation.id] = undefined;
    this.#relationCount--;
    removeFrom(this.#out[relation.source.id], relation);
    removeFrom(this.#in[relation.target.id], relation);
    removeFrom(this.#outIndex.get(relation.source.id)?.get(relation.target.id), relation);
    this.#versions[relation.source.id]++;
    this.#versions[relation.target.id]++;
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
    this.#versions[resource.id]++;
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

/** Shared (frozen) properties of relations that have none yet; replaced on first write. */
const NO_PROPERTIES: Properties = Object.freeze({}) as Properties;

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

/** Outgoing relations of one source scanned linearly up to this count, then indexed. */
const INDEX_FANOUT = 16;

function pushTo<T>(lists: (T[] | undefined)[], id: number, value: T): T[] {
  let list = lists[id];
  if (list) list.push(value);
  else {
    list = [value];
    setById(lists, id, list);
  }
  return list;
}

function pushToMap<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function removeFrom<T>(list: T[] | undefined, value: T): void {
  if (!list) return;
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
}
