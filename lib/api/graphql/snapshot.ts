/**
 * Per-snapshot state of the GraphQL API: the graph a request reads, its schema model and the
 * caches its resolvers and cost estimators use (sorted resource lists, average relation counts,
 * the `graphJson` text). Schemas depend only on a graph's shape ({@link shapeSignature}), so one
 * schema serves every snapshot of that shape; each request reaches its own snapshot through the
 * execution context instead of a closure.
 *
 * @module
 */

import {
  compareStrings,
  type Graph,
  type GraphSplicing,
  type Properties,
  type Resource,
} from "../../graph/graph.ts";
import { buildSchemaModel, type SchemaModel, schemaModelSteps } from "./model.ts";
import { runSteps, runStepsSliced, type SliceOptions, type Steps } from "../../pipeline/slicing.ts";
import { sortByNameSteps } from "./sort_steps.ts";
import { kindOf } from "./infer.ts";
import { splicedModel } from "./spliced_model.ts";

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
  /**
   * The state of the graph this one was derived from (`Graph.derive`: same names and relations,
   * other properties on `changed`), whose caches can be carried over; dropped once used.
   */
  #base?: { state: WeakRef<GraphState>; changed: readonly number[] };
  /**
   * The state of the graph this one was spliced from (`Graph.spliced`: rows added or removed),
   * whose model and sorted lists can be carried over; dropped once used.
   */
  #spliceBase?: { state: WeakRef<GraphState>; splicing: Omit<GraphSplicing, "from"> };

  /**
   * Creates the state of `graph`; `base` is the state of the graph it was derived from, or
   * `spliceBase` the state of the graph it was spliced from (held weakly: a newer snapshot never
   * keeps an older one alive).
   */
  constructor(
    graph: Graph,
    base?: { state: GraphState; changed: readonly number[] },
    spliceBase?: { state: GraphState; splicing: GraphSplicing },
  ) {
    this.graph = graph;
    if (base) this.#base = { state: new WeakRef(base.state), changed: base.changed };
    if (spliceBase) {
      const { from: _, ...splicing } = spliceBase.splicing;
      this.#spliceBase = { state: new WeakRef(spliceBase.state), splicing };
    }
  }

  /** The base state while it is alive, with the ids of the changed resources. */
  #baseState(): { state: GraphState; changed: readonly number[] } | undefined {
    const state = this.#base?.state.deref();
    return state ? { state, changed: this.#base!.changed } : undefined;
  }

  /** Whether the schema model is made (by {@link GraphState.warm} or a first query). */
  get modelReady(): boolean {
    return this.#model !== undefined;
  }

  /** The schema model of the graph (one scan; kept once the graph is sealed). */
  get model(): SchemaModel {
    if (this.#model) return this.#model;
    const inherited = this.#inheritedModel();
    if (inherited) return inherited;
    const model = buildSchemaModel(this.graph);
    if (this.graph.sealed) this.#model = model;
    return model;
  }

  /**
   * Makes the schema model and the name-sorted resource lists now, in time slices (unless known
   * or inherited from the base): for a snapshot about to be published, so that its first queries
   * neither scan nor sort the graph.
   *
   * @example
   * ```ts
   * import { Graph } from "../../graph/graph.ts";
   * const g = new Graph();
   * g.upsertResource("zone", "a.org");
   * g.seal();
   * await graphState(g).warm();
   * console.log(graphState(g).model.types.length); // 1
   * ```
   */
  async warm(options: WarmOptions = {}): Promise<void> {
    if (!this.graph.sealed) return;
    if (!this.#model && !(await runStepsSliced(this.#inheritedModelSteps(), options))) {
      this.#model ??= await runStepsSliced(schemaModelSteps(this.graph), options);
    }
    // The name-sorted lists every listing query starts from (a derived graph's come from its
    // base, without sorting).
    if (this.#baseState() !== undefined) return;
    this.#inheritSortedFromSplice();
    const previous = options.previous && states.get(options.previous);
    for (const type of this.graph.types()) {
      if (this.#sorted.has(type)) continue;
      const resources = this.graph.resourcesOf(type);
      const known = previous === undefined ? undefined : previous.#sorted.get(type);
      const sorted = known && sameIdsAndNames(resources, previous!.graph.resourcesOf(type))
        ? known.map((r) => this.graph.getResourceById(r.id)!)
        : await runStepsSliced(sortByNameSteps(resources), options);
      this.#sorted.set(type, sorted);
    }
  }

  /**
   * The base's model when it is known and every changed resource has the same property keys in
   * the same order with values of the same kinds: the model (fields, inferred scalars, counts)
   * is then the same, without a scan of the graph. Synchronous: see
   * {@link GraphState.#inheritedModelSteps}.
   */
  #inheritedModel(): SchemaModel | undefined {
    return runSteps(this.#inheritedModelSteps());
  }

  /**
   * {@link GraphState.#inheritedModel} as steps, pausing every {@link SHAPES_PER_STEP} changed
   * resources: a change of every row of a 100k graph compares 100k key lists (~30 ms), which
   * must not run in one piece before a publish (issue 24).
   */
  *#inheritedModelSteps(): Steps<SchemaModel | undefined> {
    const spliced = this.#spliceBase;
    if (spliced) {
      const state = spliced.state.deref();
      const known = state === undefined ? undefined : state.#model;
      const model = known && splicedModel(known, this.graph, spliced.splicing);
      if (!model) return undefined;
      this.#model = model;
      this.#signature = state!.#signature;
      return model;
    }
    const base = this.#baseState();
    if (!base || !base.state.#model) return undefined;
    const changed = base.changed;
    for (let k = 0; k < changed.length; k++) {
      if (k % SHAPES_PER_STEP === SHAPES_PER_STEP - 1) yield;
      const before = base.state.graph.getResourceById(changed[k])?.properties;
      const after = this.graph.getResourceById(changed[k])?.properties;
      if (!before || !after || !sameShape(before, after)) return undefined;
    }
    // A query may have made the model while these steps were paused.
    if (this.#model) return this.#model;
    this.#model = base.state.#model;
    this.#signature = base.state.#signature;
    return this.#model;
  }

  /**
   * For a spliced graph whose base state is alive: every name-sorted list the base has, carried
   * over without sorting — the base's order without the removed resources, with this graph's
   * objects, and the added resources merged in by name. Then the splice base is dropped.
   */
  #inheritSortedFromSplice(): void {
    const spliced = this.#spliceBase;
    const state = spliced?.state.deref();
    if (!spliced || !state) return;
    const { oldToNew, added } = spliced.splicing;
    const graph = this.graph;
    const addedByType = new Map<string, Resource[]>();
    for (const id of added) {
      const r = graph.getResourceById(id)!;
      const list = addedByType.get(r.type);
      if (list) list.push(r);
      else addedByType.set(r.type, [r]);
    }
    for (const [type, known] of state.#sorted) {
      if (this.#sorted.has(type)) continue;
      const kept: Resource[] = [];
      for (const r of known) {
        const id = oldToNew[r.id];
        if (id >= 0) kept.push(graph.getResourceById(id)!);
      }
      const fresh = addedByType.get(type);
      this.#sorted.set(type, fresh ? mergeByName(kept, fresh) : kept);
    }
    if (this.#model) this.#spliceBase = undefined;
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
    if (!list) {
      // A derived graph has the same names: an ancestor's order, with this graph's resources.
      // (Reads that look resources up by name never list them, so the nearest ancestor that
      // has the list may be a few derivations back.)
      let known: readonly Resource[] | undefined;
      for (let s = this.#baseState()?.state; s && !known; s = s.#baseState()?.state) {
        known = s.#sorted.get(type);
      }
      const graph = this.graph;
      list = known ? known.map((r) => graph.getResourceById(r.id)!) : graph.resourcesOfSorted(type);
      this.#sorted.set(type, list);
    }
    return list;
  }

  /**
   * Number of resources of `type`, without listing them once the graph is sealed: the length of
   * {@link sortedOf} when that is known, else the count the schema model took (a model inherited
   * from the base of a derived graph counts the same resources: derivation keeps every name).
   */
  countOf(type: string): number {
    const sorted = this.#sorted.get(type);
    if (sorted) return sorted.length;
    if (!this.graph.sealed) return this.graph.resourcesOf(type).length;
    return this.model.resourceCounts.get(type) ?? 0;
  }

  /**
   * Average edge count of relation field `raw` over resources of `parentType` (at least 1): the
   * expected size of the field for the query cost (G16).
   */
  relationAverage(parentType: string, raw: string): number {
    const key = `${parentType}\u0000${raw}`;
    // A derived graph has the relations of its base.
    const base = this.#baseState();
    const known = this.#averages.get(key) ?? (base ? base.state.#averages.get(key) : undefined);
    if (known !== undefined) return known;
    const graph = this.graph;
    // The model counted every relation field's edges in its scan (made before publishing).
    const model = this.#model ?? (graph.sealed ? this.#inheritedModel() : undefined);
    if (model) {
      const parents = model.resourceCounts.get(parentType) ?? 0;
      const edges = model.relationEdgeCounts.get(key) ?? 0;
      const value = Math.max(1, parents === 0 ? 1 : edges / parents);
      this.#averages.set(key, value);
      return value;
    }
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

/** Options of {@link GraphState.warm}: slicing, and the graph the new one replaces. */
export interface WarmOptions extends SliceOptions {
  /**
   * The graph this one replaces (the published one), when it is not its base: a type whose
   * resources have the same ids and names in both (a `rules` or `assets` build after a change of
   * properties) takes its name-sorted list from it, mapped to this graph's resources by id,
   * instead of sorting them again.
   */
  previous?: Graph;
}

/** True when two types' resources, in id order, have the same ids and names. */
function sameIdsAndNames(a: readonly Resource[], b: readonly Resource[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].id !== b[i].id || a[i].name !== b[i].name) return false;
  }
  return true;
}

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
  if (!state) {
    const derivation = graph.derivation;
    const base = derivation && states.get(derivation.from);
    const splicing = derivation ? undefined : graph.splicing;
    const spliceBase = splicing && states.get(splicing.from);
    state = new GraphState(
      graph,
      base && { state: base, changed: derivation.changed },
      spliceBase && { state: spliceBase, splicing },
    );
    states.set(graph, state);
  }
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

/** `kept` (sorted by name) and `fresh` (any order) merged into one list sorted by name. */
function mergeByName(kept: readonly Resource[], fresh: readonly Resource[]): Resource[] {
  const sorted = [...fresh].sort((a, b) => compareStrings(a.name, b.name));
  const out: Resource[] = new Array(kept.length + sorted.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < kept.length && j < sorted.length) {
    out[k++] = compareStrings(sorted[j].name, kept[i].name) < 0 ? sorted[j++] : kept[i++];
  }
  while (i < kept.length) out[k++] = kept[i++];
  while (j < sorted.length) out[k++] = sorted[j++];
  return out;
}

/** Changed resources {@link GraphState.warm} compares between two pauses. */
const SHAPES_PER_STEP = 2048;

/** True when both have the same keys in the same order, with values of the same kinds. */
function sameShape(before: Properties, after: Properties): boolean {
  const keys = Object.keys(after);
  const old = Object.keys(before);
  if (keys.length !== old.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== old[i] || kindOf(after[keys[i]]) !== kindOf(before[old[i]])) return false;
  }
  return true;
}
