/**
 * The in-memory typed property graph: resources keyed by (type, name), directed relations with a
 * label and properties, and forward/reverse indexes for traversal.
 *
 * A graph is mutable while a build runs and sealed afterwards; a sealed graph rejects every
 * mutation, so a published snapshot can be shared by concurrent readers without copying.
 *
 * Memory layout (a snapshot of 100k resources is held for as long as readers use it): resource
 * types and relation labels are interned (one string per distinct value); the resources of a
 * type are found by name through a hash table over a compact copy of their names
 * (`name_index.ts`); a relation is three numbers (source, target, label) in typed arrays, its
 * object made only when a reader asks for it (then kept, so it stays the same object), with one
 * shared frozen empty property object until a property is set; relation lists are linked lists
 * in typed arrays while building and packed typed arrays once sealed (no array per resource, see
 * `adjacency.ts`).
 *
 * @module
 */
import { Adjacency } from "./adjacency.ts";
import { graphToJson } from "./json.ts";
import { NameIndex } from "./name_index.ts";
import { ChunkedById, grown } from "./dense.ts";
import {
  compareStrings,
  GraphError,
  type GraphJson,
  type JsonValue,
  type Properties,
  type Relation,
  type Resource,
} from "./types.ts";

export { compareStrings, GraphError } from "./types.ts";
export type {
  GraphJson,
  GraphJsonEdge,
  GraphJsonNode,
  JsonValue,
  Properties,
  Relation,
  Resource,
} from "./types.ts";

interface MutableResource extends Resource {
  properties: Properties;
}

interface MutableRelation extends Relation {
  properties: Properties;
}

/** The resources of one type; `type` is the interned type string every resource shares. */
interface TypeBucket {
  readonly type: string;
  readonly byName: NameIndex<MutableResource>;
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
  #byType = new Map<string, TypeBucket>();
  /** {@link Graph.resourcesOfSorted} per type, until a resource of the type is created or removed. */
  #sorted = new Map<string, readonly Resource[]>();
  /** Relation labels (interned: one string per distinct label) and their numbers. */
  #labels: string[] = [];
  #labelNumbers = new Map<string, number>();
  /** The number of the last label used (runs of relations share one); -1 before any. */
  #lastLabel = -1;
  #resources: MutableResource[] = [];
  /**
   * Per relation id: its source and target resource ids and its label number (-1 once removed).
   * A relation's object is made when first asked for (see `#relation`), then kept.
   */
  #relationSources = new Int32Array(64);
  #relationTargets = new Int32Array(64);
  #relationLabels = new Int32Array(64);
  /** Relation ids handed out (removed ones included). */
  #relationIds = 0;
  /** Relation objects made so far, by id (a relation nobody asked for has none). */
  #relations = new ChunkedById<MutableRelation>();
  #relationCount = 0;
  /** Relations by source / target resource id (relation identity is found by scanning). */
  #out = new Adjacency<MutableRelation>((id) => this.#relation(id));
  #in = new Adjacency<MutableRelation>((id) => this.#relation(id));
  /** For sources with many outgoing relations: target id -> ids of the relations to it. */
  #outIndex = new Map<number, Map<number, number[]>>();
  #removed = new Set<number>();
  #sealed = false;
  /** Per resource id: the {@link Graph.clock} of its last change (see `version`). */
  #versions: number[] = [];
  #clock = 0;
  /** For a derived graph: the graph it came from (not kept alive by this one) and what changed. */
  #origin: { from: WeakRef<Graph>; changed: readonly number[] } | undefined;
  /** For a spliced graph: the graph it came from (not kept alive by this one) and the mapping. */
  #spliceOrigin: { from: WeakRef<Graph>; splice: Omit<GraphSplicing, "from"> } | undefined;
  /** Sealed: whether relation ids follow their sources (see `#inSourceOrder`); unknown yet. */
  #relationsBySource: boolean | undefined;

  /** True once {@link Graph.seal} was called. */
  get sealed(): boolean {
    return this.#sealed;
  }

  /**
   * Makes the graph read-only and packs it (relation lists into typed arrays, id-indexed arrays
   * to their exact length). Idempotent.
   */
  seal(): void {
    if (this.#sealed) return;
    this.#sealed = true;
    this.#out.pack(this.#resources.length);
    this.#in.pack(this.#resources.length);
    const ids = this.#relationIds;
    this.#relationSources = this.#relationSources.slice(0, ids);
    this.#relationTargets = this.#relationTargets.slice(0, ids);
    this.#relationLabels = this.#relationLabels.slice(0, ids);
    this.#resources = this.#resources.slice();
    this.#versions = this.#versions.slice();
    for (const bucket of this.#byType.values()) bucket.byName.compact();
  }

  /**
   * A sealed graph equal to this sealed one except that each resource id in `changes` has the
   * given properties (`name` first; the name itself cannot change). Everything else — names,
   * relations with their properties, indexes — is shared with this graph, so deriving costs the
   * changed resources plus one copy of the resource list, not a rebuild. Both graphs stay
   * read-only. For incremental builds whose change touches no relation (pipeline/incremental).
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const a = g.upsertResource("host", "a", { port: "80" });
   * g.upsertRelation(a, "zone", g.upsertResource("zone", "z"));
   * g.seal();
   * const d = g.derive(new Map([[a.id, { name: "a", port: "81" }]]));
   * console.log(d.getResource("host", "a")?.properties.port, g.getResource("host", "a")?.properties.port); // 81 80
   * console.log(d.outgoing(d.getResource("host", "a")!)[0].target.name); // z
   * ```
   */
  derive(changes: ReadonlyMap<number, Properties>): Graph {
    const steps = this.deriveSteps(changes);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * {@link Graph.derive} as resumable steps: pauses (`yield`) every few thousand resources or
   * relations, so that deriving from a change of every resource runs in time slices
   * (`pipeline/slicing.ts`). Neither graph is visible half-made: the result is returned at the end.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const a = g.upsertResource("host", "a", { port: "80" });
   * g.seal();
   * const steps = g.deriveSteps(new Map([[a.id, { name: "a", port: "81" }]]));
   * let step = steps.next();
   * while (!step.done) step = steps.next();
   * console.log(step.value.getResource("host", "a")?.properties.port); // 81
   * ```
   */
  *deriveSteps(changes: ReadonlyMap<number, Properties>): Generator<void, Graph, undefined> {
    if (!this.#sealed) throw new GraphError("only a sealed graph can be derived");
    const out = new Graph();
    const resources = this.#resources.slice();
    const versions = this.#versions.slice();
    const clock = this.#clock + 1;
    const changedByType = new Map<string, Resource[]>();
    let tick = 0;
    for (const [id, properties] of changes) {
      if (++tick === DERIVE_PER_STEP) {
        tick = 0;
        yield;
      }
      const old = resources[id];
      if (old === undefined || this.#removed.has(id)) {
        throw new GraphError(`derive: no resource with id ${id}`);
      }
      if (properties.name !== old.name) {
        throw new GraphError(`derive: cannot change the name of ${old.type} '${old.name}'`);
      }
      const changed = { id, type: old.type, name: old.name, properties };
      resources[id] = changed;
      versions[id] = clock;
      const list = changedByType.get(old.type);
      if (list) list.push(changed);
      else changedByType.set(old.type, [changed]);
    }
    for (const [type, bucket] of this.#byType) {
      const changed = changedByType.get(type);
      if (changed) yield;
      out.#byType.set(
        type,
        changed ? { type, byName: bucket.byName.replacing(changed) } : bucket,
      );
    }
    out.#labels = this.#labels;
    out.#labelNumbers = this.#labelNumbers;
    out.#lastLabel = this.#lastLabel;
    out.#resources = resources;
    out.#relationSources = this.#relationSources;
    out.#relationTargets = this.#relationTargets;
    out.#relationLabels = this.#relationLabels;
    out.#relationIds = this.#relationIds;
    out.#relationCount = this.#relationCount;
    // Relation objects name their resources: the derived graph makes its own, keeping the
    // (read-only) property objects of those that have some.
    const relations = new ChunkedById<MutableRelation>();
    for (let id = 0; id < this.#relationIds; id++) {
      if (id % (DERIVE_PER_STEP * 8) === 0) yield;
      const r = this.#relations.get(id);
      if (r === undefined || r.properties === NO_PROPERTIES) continue;
      relations.set(id, {
        id,
        type: r.type,
        source: resources[r.source.id],
        target: resources[r.target.id],
        properties: r.properties,
      });
    }
    out.#relations = relations;
    out.#out = this.#out.sharedWith((id) => out.#relation(id));
    out.#in = this.#in.sharedWith((id) => out.#relation(id));
    out.#outIndex = this.#outIndex;
    out.#removed = this.#removed;
    out.#versions = versions;
    out.#clock = clock;
    out.#sealed = true;
    out.#origin = { from: new WeakRef(this), changed: [...changes.keys()] };
    return out;
  }

  /**
   * A sealed graph equal to what building this one again would give with runs of resources
   * replaced (rows added to or removed from asset files, issue 25): the resources keep this
   * graph's order with each {@link GraphSplice}'s new resources in place of the replaced ones
   * (ids renumbered), every relation of a kept resource is kept (retargeted by name when its
   * target was replaced), and each new resource is linked as `linksOf` says, relation ids in the
   * order of their sources — the order auto-linking creates them in. Valid only for a graph whose
   * relations all came from auto-linking (none with properties, none removed), which this checks;
   * the reason is returned when it does not hold or a relation would lose its target. Costs
   * typed-array passes over the relations and a new object per moved resource, not a rebuild.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const a = g.upsertResource("host", "a", { zone: "z" });
   * g.upsertRelation(a, "zone", g.upsertResource("zone", "z"));
   * g.seal();
   * const s = g.spliced(
   *   [{ type: "host", at: 1, removed: 0, added: [{ name: "b", properties: { name: "", zone: "z" } }] }],
   *   (r, find) => [["zone", find("zone", String(r.properties.zone))!]],
   * ) as Graph;
   * console.log(s.resourcesOf("host").map((r) => r.name), s.getResource("zone", "z")?.id); // ["a", "b"] 2
   * console.log(s.incoming(s.getResource("zone", "z")!).map((r) => r.source.name)); // ["a", "b"]
   * ```
   */
  spliced(
    splices: readonly GraphSplice[],
    linksOf: SpliceLinks,
  ): Graph | string {
    if (!this.#sealed) throw new GraphError("only a sealed graph can be spliced");
    if (this.#removed.size > 0) return "the graph has removed resources";
    let withProperties = false;
    this.#relations.forEach((r) => withProperties ||= r.properties !== NO_PROPERTIES);
    if (withProperties) return "relations have properties";
    if (this.#relationCount !== this.#relationIds) return "relations were removed";
    const old = this.#resources;
    const n = old.length;
    const oldToNew = new Int32Array(n).fill(-1);
    let total = n;
    for (const s of splices) total += s.added.length - s.removed;
    const newToOld = new Int32Array(Math.max(0, total)).fill(-1);
    const changedTypes = new Set<string>();
    const sorted = [...splices].sort((a, b) => a.at - b.at);
    // The resources before the first run keep their ids: one bulk copy.
    let cursor = Math.max(0, Math.min(n, sorted.length > 0 ? sorted[0].at : n));
    const resources: MutableResource[] = old.slice(0, cursor);
    for (let id = 0; id < cursor; id++) oldToNew[id] = newToOld[id] = id;
    for (const s of sorted) {
      if (s.at < cursor || s.removed < 0 || s.at + s.removed > n) {
        throw new GraphError("spliced: runs overlap or lie outside the graph");
      }
      keepRun(old, cursor, s.at, resources, oldToNew, newToOld);
      for (let i = s.at; i < s.at + s.removed; i++) {
        if (old[i].type !== s.type) throw new GraphError("spliced: a run of another type");
      }
      cursor = s.at + s.removed;
      const type = this.#bucket(s.type).type;
      for (const a of s.added) {
        a.properties.name = a.name;
        resources.push({ id: resources.length, type, name: a.name, properties: a.properties });
      }
      changedTypes.add(type);
    }
    keepRun(old, cursor, n, resources, oldToNew, newToOld);
    const out = new Graph();
    // Name indexes: rebuilt for the spliced types, renumbered where ids moved, else shared.
    const byTypeLists = new Map<string, MutableResource[]>();
    for (const type of changedTypes) byTypeLists.set(type, []);
    for (const r of resources) byTypeLists.get(r.type)?.push(r);
    for (const [type, bucket] of this.#byType) {
      const list = byTypeLists.get(type);
      if (list) {
        out.#byType.set(type, { type, byName: splicedIndex(bucket.byName, list, type) });
        continue;
      }
      const values = bucket.byName.values();
      let moved = false;
      for (let k = 0; k < values.length; k++) {
        const now = resources[oldToNew[values[k].id]];
        if (now !== values[k]) moved = true;
        values[k] = now;
      }
      out.#byType.set(type, moved ? { type, byName: bucket.byName.renumbered(values) } : bucket);
    }
    const find = (type: string, name: string) => out.#byType.get(type)?.byName.get(name);
    const laid =
      (sorted.every((s) => s.removed === 0)
        ? this.#insertedRelations(sorted, resources, oldToNew, find, linksOf)
        : undefined) ?? this.#splicedRelations(resources, oldToNew, newToOld, find, linksOf);
    if (typeof laid === "string") return laid;
    const { labels, labelNumbers, sources, targets, labelIds, outOffsets } = laid;
    const count = sources.length;
    const { outIds, inOffsets, inIds } = packRelations(targets, count, resources.length);
    out.#labels = labels;
    out.#labelNumbers = labelNumbers;
    out.#lastLabel = count > 0 ? labelIds[count - 1] : -1;
    out.#resources = resources;
    out.#relationSources = sources;
    out.#relationTargets = targets;
    out.#relationLabels = labelIds;
    out.#relationsBySource = true;
    out.#relationIds = count;
    out.#relationCount = count;
    out.#out = Adjacency.packed((id) => out.#relation(id), outOffsets, outIds);
    out.#in = Adjacency.packed((id) => out.#relation(id), inOffsets, inIds);
    out.#clock = this.#clock + 1;
    out.#versions = new Array<number>(resources.length).fill(out.#clock);
    out.#sealed = true;
    const added: number[] = [];
    for (let id = 0; id < resources.length; id++) if (newToOld[id] < 0) added.push(id);
    out.#spliceOrigin = {
      from: new WeakRef(this),
      splice: { oldToNew, added, removed: n - (resources.length - added.length) },
    };
    return out;
  }

  /**
   * {@link Graph.spliced}'s relations, laid out resource by resource: each kept resource's
   * relations copied (retargeted by name where the target was replaced), each new one linked.
   */
  #splicedRelations(
    resources: readonly MutableResource[],
    oldToNew: Int32Array,
    newToOld: Int32Array,
    find: (type: string, name: string) => Resource | undefined,
    linksOf: SpliceLinks,
  ): SplicedRelations | string {
    const old = this.#resources;
    const buffer = new RelationBuffer(this.#relationIds + 64);
    const labels: string[] = [];
    const labelNumbers = new Map<string, number>();
    const numberOf = (label: string) => {
      let number = labelNumbers.get(label);
      if (number === undefined) {
        number = labels.length;
        labels.push(label);
        labelNumbers.set(label, number);
      }
      return number;
    };
    // Old label number -> new one (-1 until first used): no string work per kept relation.
    const oldLabels = this.#labels;
    const renumberedLabels = new Int32Array(oldLabels.length).fill(-1);
    const outOffsets = new Int32Array(resources.length + 1);
    const kept = {
      ...this.#out.packedArrays(),
      targets: this.#relationTargets,
      labels: this.#relationLabels,
      oldToNew,
      renumberedLabels,
    };
    for (let id = 0; id < resources.length; id++) {
      outOffsets[id] = buffer.count;
      const before = newToOld[id];
      if (before >= 0) {
        // Kept relations copied in bulk; one whose label is not numbered yet or whose target
        // was replaced (found again by name) is taken here.
        const end = before + 1 < kept.offsets.length ? kept.offsets[before + 1] : 0;
        const first = before + 1 < kept.offsets.length ? kept.offsets[before] : 0;
        for (let k = copyKeptRelations(buffer, id, kept, first, end); k < end;) {
          const relation = kept.ids[k];
          const oldLabel = kept.labels[relation];
          let label = renumberedLabels[oldLabel];
          if (label < 0) label = renumberedLabels[oldLabel] = numberOf(oldLabels[oldLabel]);
          let target = oldToNew[kept.targets[relation]];
          if (target < 0) {
            const t = old[kept.targets[relation]];
            const again = find(t.type, t.name);
            if (again === undefined) {
              return `${old[before].type} '${
                old[before].name
              }' names ${t.type} '${t.name}', which is gone`;
            }
            target = again.id;
          }
          buffer.push(id, label, target);
          k = copyKeptRelations(buffer, id, kept, k + 1, end);
        }
        continue;
      }
      const links = linksOf(resources[id], find);
      if (typeof links === "string") return links;
      const start = buffer.count;
      for (const [label, target] of links) {
        if (label === "") throw new GraphError("relation type must not be empty");
        let twin = false;
        for (let k = start; k < buffer.count && !twin; k++) {
          twin = buffer.targets[k] === target.id && labels[buffer.labels[k]] === label;
        }
        if (!twin) buffer.push(id, numberOf(label), target.id);
      }
    }
    const count = buffer.count;
    outOffsets[resources.length] = count;
    return {
      labels,
      labelNumbers,
      sources: buffer.sources.slice(0, count),
      targets: buffer.targets.slice(0, count),
      labelIds: buffer.labels.slice(0, count),
      outOffsets,
    };
  }

  /**
   * {@link Graph.spliced}'s relations when the splices only insert resources (none removed or
   * replaced) into a graph whose relation ids follow their sources: the old relations keep their
   * order and labels, shifted in bulk, with each new resource's relations inserted after those of
   * the resource before it. `undefined` when a new relation's label is not already in use before
   * it (the labels' first-use numbering would change), for the resource-by-resource layout.
   */
  #insertedRelations(
    sorted: readonly GraphSplice[],
    resources: readonly MutableResource[],
    oldToNew: Int32Array,
    find: (type: string, name: string) => Resource | undefined,
    linksOf: SpliceLinks,
  ): SplicedRelations | string | undefined {
    if (!this.#inSourceOrder()) return undefined;
    const offsets = this.#out.packedArrays().offsets;
    const firstUse = labelFirstUses(this.#relationLabels, this.#labels.length);
    // The new resources' relations (deduplicated per resource), and where each run goes.
    const added = new RelationBuffer(64);
    const runs: { at: number; relationAt: number; starts: number[]; first: number; end: number }[] =
      [];
    let shift = 0;
    for (const s of sorted) {
      const relationAt = offsets[s.at];
      const starts: number[] = [];
      const first = added.count;
      for (let j = 0; j < s.added.length; j++) {
        const id = s.at + shift + j;
        starts.push(added.count);
        const links = linksOf(resources[id], find);
        if (typeof links === "string") return links;
        const start = added.count;
        for (const [label, target] of links) {
          if (label === "") throw new GraphError("relation type must not be empty");
          const number = this.#labelNumbers.get(label) ?? -1;
          const used = number < 0 ? -1 : firstUse[number];
          if (used < 0 || used >= relationAt) return undefined;
          let twin = false;
          for (let k = start; k < added.count && !twin; k++) {
            twin = added.targets[k] === target.id && added.labels[k] === number;
          }
          if (!twin) added.push(id, number, target.id);
        }
      }
      runs.push({ at: s.at, relationAt, starts, first, end: added.count });
      shift += s.added.length;
    }
    const oldCount = this.#relationIds;
    const count = oldCount + added.count;
    const sources = new Int32Array(count);
    const targets = new Int32Array(count);
    const labelIds = new Int32Array(count);
    const outOffsets = new Int32Array(resources.length + 1);
    const oldSources = this.#relationSources;
    const oldTargets = this.#relationTargets;
    const oldLabels = this.#relationLabels;
    const n = this.#resources.length;
    let from = 0; // old relation cursor
    let fromResource = 0; // old resource cursor
    let newRelations = 0; // new relations placed so far
    let newResources = 0; // new resources placed so far
    const keep = (upTo: number, upToResource: number) => {
      labelIds.set(oldLabels.subarray(from, upTo), from + newRelations);
      for (let r = from; r < upTo; r++) {
        sources[r + newRelations] = oldToNew[oldSources[r]];
        targets[r + newRelations] = oldToNew[oldTargets[r]];
      }
      for (let i = fromResource; i < upToResource; i++) {
        outOffsets[i + newResources] = offsets[i] + newRelations;
      }
      from = upTo;
      fromResource = upToResource;
    };
    for (const run of runs) {
      keep(run.relationAt, run.at);
      const to = run.relationAt + newRelations;
      const { first, end } = run;
      sources.set(added.sources.subarray(first, end), to);
      targets.set(added.targets.subarray(first, end), to);
      labelIds.set(added.labels.subarray(first, end), to);
      // The run's first new resource: its place plus the new resources placed before it.
      for (let j = 0; j < run.starts.length; j++) {
        outOffsets[run.at + newResources + j] = to + run.starts[j] - first;
      }
      newRelations += end - first;
      newResources += run.starts.length;
    }
    keep(oldCount, n);
    outOffsets[resources.length] = count;
    return {
      labels: this.#labels.slice(),
      labelNumbers: new Map(this.#labelNumbers),
      sources,
      targets,
      labelIds,
      outOffsets,
    };
  }

  /**
   * True when relation ids follow their sources and each out-list is in id order (packed out
   * ids are `0, 1, 2, …`), as auto-linking and {@link Graph.spliced} lay them out. Cached: the
   * graph is sealed.
   */
  #inSourceOrder(): boolean {
    if (this.#relationsBySource === undefined) {
      const ids = this.#out.packedArrays().ids;
      let inOrder = ids.length === this.#relationIds;
      for (let k = 0; k < ids.length && inOrder; k++) inOrder = ids[k] === k;
      this.#relationsBySource = inOrder;
    }
    return this.#relationsBySource;
  }

  /**
   * For a graph made by {@link Graph.spliced}: the graph it was spliced from — while something
   * else still holds it — with each old resource id's new id (-1 when removed), the ids of the
   * added resources (ascending) and how many were removed. Readers use it to carry per-snapshot
   * caches over (a splice that only adds keeps every old resource's name and relations).
   */
  get splicing(): GraphSplicing | undefined {
    const from = this.#spliceOrigin?.from.deref();
    return from ? { from, ...this.#spliceOrigin!.splice } : undefined;
  }

  /**
   * For a graph made by {@link Graph.derive}: the graph it was derived from — while something
   * else still holds it (a derived graph does not keep its origin alive) — and the ids of the
   * resources whose properties differ. Readers use it to carry per-snapshot caches over.
   */
  get derivation(): { from: Graph; changed: readonly number[] } | undefined {
    const from = this.#origin?.from.deref();
    return from ? { from, changed: this.#origin!.changed } : undefined;
  }

  /**
   * A counter that grows with every change of the graph. A resource whose
   * {@link Graph.version} is greater than a clock value read earlier changed after that read.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const a = g.upsertResource("host", "a");
   * const before = g.clock;
   * g.setProperty(a, "env", "prod");
   * console.log(g.version(a) > before); // true
   * ```
   */
  get clock(): number {
    return this.#clock;
  }

  /**
   * Resources (not removed) that changed after `clock` (see {@link Graph.clock}) or whose id is
   * in `also`, in id (insertion) order.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * g.upsertResource("host", "a");
   * const clock = g.clock;
   * g.upsertResource("host", "b");
   * console.log(g.resourcesChangedSince(clock).map((r) => r.name)); // ["b"]
   * ```
   */
  resourcesChangedSince(clock: number, also?: ReadonlySet<number>): Resource[] {
    const out: Resource[] = [];
    const versions = this.#versions;
    const resources = this.#resources;
    const removed = this.#removed;
    for (let id = 0; id < resources.length; id++) {
      if (versions[id] <= clock && !also?.has(id)) continue;
      if (removed.size > 0 && removed.has(id)) continue;
      out.push(resources[id]);
    }
    return out;
  }

  #touch(id: number): void {
    this.#versions[id] = ++this.#clock;
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
    const bucket = this.#bucket(type);
    let resource = bucket.byName.get(name);
    if (!resource) resource = this.#create(bucket, name, { name });
    if (properties) this.#merge(resource, properties);
    return resource;
  }

  /**
   * {@link Graph.upsertResource} without the copy: a new resource takes `properties` itself as
   * its property object (the caller hands it over and must not use it afterwards) with `name`
   * set to `name`; an existing one merges them as `upsertResource` does. For the key order of
   * `upsertResource`, create `properties` with `name` as its first key.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const web = g.adoptResource("host", "web-1", { name: "", env: "prod" });
   * console.log(web.properties); // { name: "web-1", env: "prod" }
   * ```
   */
  adoptResource(type: string, name: string, properties: Properties): Resource {
    this.#assertMutable();
    const bucket = this.#bucket(type);
    const resource = bucket.byName.get(name);
    if (resource) {
      this.#merge(resource, properties);
      return resource;
    }
    properties.name = name;
    const created = this.#create(bucket, name, properties);
    this.#touch(created.id);
    return created;
  }

  #bucket(type: string): TypeBucket {
    let bucket = this.#byType.get(type);
    if (!bucket) {
      if (type === "") throw new GraphError("resource type must not be empty");
      bucket = { type, byName: new NameIndex() };
      this.#byType.set(type, bucket);
    }
    return bucket;
  }

  #create(bucket: TypeBucket, name: string, properties: Properties): MutableResource {
    const id = this.#resources.length;
    const resource: MutableResource = { id, type: bucket.type, name, properties };
    if (this.#sorted.size > 0) this.#sorted.delete(bucket.type);
    this.#resources.push(resource);
    this.#versions.push(++this.#clock);
    bucket.byName.add(resource);
    return resource;
  }

  #merge(resource: MutableResource, properties: Properties): void {
    this.#touch(resource.id);
    const target = resource.properties;
    for (const key in properties) {
      if (key === "name") continue;
      target[key] = properties[key];
    }
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
    this.#touch(resource.id);
  }

  /** Removes one property from a resource (never `name`). */
  deleteProperty(resource: Resource, key: string): void {
    this.#assertMutable();
    if (key !== "name") delete (resource as MutableResource).properties[key];
    this.#touch(resource.id);
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
    return this.#byType.get(type)?.byName.get(name);
  }

  /** The resource with the given id, if present and not removed. */
  getResourceById(id: number): Resource | undefined {
    return this.#removed.has(id) ? undefined : this.#resources[id];
  }

  /** Resource types present, in sorted order. */
  types(): string[] {
    const out: string[] = [];
    for (const [type, m] of this.#byType) if (m.byName.size > 0) out.push(type);
    return out.sort(compareStrings);
  }

  /**
   * Every relation label the graph has used, in first-use order (interned; a label whose
   * relations were all removed may still be listed).
   */
  relationLabels(): readonly string[] {
    return this.#labels;
  }

  /** True when at least one resource of `type` exists. */
  hasType(type: string): boolean {
    return (this.#byType.get(type)?.byName.size ?? 0) > 0;
  }

  /** Resources of a type in insertion order (a fresh array; safe to iterate while mutating). */
  resourcesOf(type: string): Resource[] {
    const m = this.#byType.get(type);
    return m ? m.byName.values() : [];
  }

  /**
   * Resources of a type ordered by name (code-unit order; a fresh array). The order is kept until
   * a resource of the type is created or removed, so model and output passes over an unchanged
   * type copy it instead of sorting again.
   */
  resourcesOfSorted(type: string): Resource[] {
    let sorted = this.#sorted.get(type);
    if (sorted === undefined) {
      sorted = this.resourcesOf(type).sort((a, b) => compareStrings(a.name, b.name));
      this.#sorted.set(type, sorted);
    }
    return sorted.slice();
  }

  /** All resources in insertion order. */
  *resources(): IterableIterator<Resource> {
    const removed = this.#removed;
    for (const r of this.#resources) if (removed.size === 0 || !removed.has(r.id)) yield r;
  }

  /** All relations in creation order. */
  *relations(): IterableIterator<Relation> {
    const labels = this.#relationLabels;
    for (let id = 0; id < this.#relationIds; id++) if (labels[id] >= 0) yield this.#relation(id);
  }

  /** One more than the highest relation id used so far (ids of removed relations included). */
  get relationIdLimit(): number {
    return this.#relationIds;
  }

  /**
   * Visits the relations with ids in `[from, to)` (default: all) in creation order without
   * making relation objects: source and target resources, label and properties (shared and
   * read-only; an empty object for most). For scans over every relation (the GraphQL schema
   * model), which would otherwise make and keep an object per relation.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * g.upsertRelation(g.upsertResource("host", "a"), "zone", g.upsertResource("zone", "z"));
   * g.forEachRelation((source, label, target) => console.log(source.name, label, target.name)); // a zone z
   * ```
   */
  forEachRelation(
    visit: (source: Resource, label: string, target: Resource, properties: Properties) => void,
    from: number = 0,
    to: number = this.#relationIds,
  ): void {
    const labels = this.#relationLabels;
    const relations = this.#relations;
    const end = Math.min(to, this.#relationIds);
    for (let id = Math.max(0, from); id < end; id++) {
      const label = labels[id];
      if (label < 0) continue;
      const made = relations.get(id);
      visit(
        this.#resources[this.#relationSources[id]],
        this.#labels[label],
        this.#resources[this.#relationTargets[id]],
        made ? made.properties : NO_PROPERTIES,
      );
    }
  }

  /** The object of relation `id` (not removed): made on first request, the same one after. */
  #relation(id: number): MutableRelation {
    const relations = this.#relations;
    let relation = relations.get(id);
    if (relation === undefined) {
      relation = {
        id,
        type: this.#labels[this.#relationLabels[id]],
        source: this.#resources[this.#relationSources[id]],
        target: this.#resources[this.#relationTargets[id]],
        properties: NO_PROPERTIES,
      };
      relations.set(id, relation);
    }
    return relation;
  }

  /**
   * Creates the relation source -[type]-> target, or merges `properties` into the existing one:
   * at most one relation of a given type exists between the same ordered pair (reference O5).
   * The type may be empty: `create_resource` without `relation_type` links the origin to the
   * created resource with an empty-typed relation, as the original does (reference M12).
   */
  upsertRelation(
    source: Resource,
    type: string,
    target: Resource,
    properties?: Properties,
  ): Relation {
    this.#assertMutable();
    let id = this.#find(source.id, type, target.id);
    if (id < 0) id = this.#link(source.id, type, target.id);
    const relation = this.#relation(id);
    if (properties) {
      if (relation.properties === NO_PROPERTIES) relation.properties = {};
      Object.assign(relation.properties, properties);
      this.#touch(source.id);
      this.#touch(target.id);
    }
    return relation;
  }

  /**
   * Creates the relation source -[type]-> target unless it exists; true when it was created.
   * One lookup where `getRelation` then `upsertRelation` take two.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const a = g.upsertResource("host", "a");
   * const b = g.upsertResource("host", "b");
   * console.log(g.ensureRelation(a, "peer", b), g.ensureRelation(a, "peer", b)); // true false
   * ```
   */
  ensureRelation(source: Resource, type: string, target: Resource): boolean {
    this.#assertMutable();
    if (this.#find(source.id, type, target.id) >= 0) return false;
    this.#link(source.id, type, target.id);
    return true;
  }

  /**
   * {@link Graph.ensureRelation} to the resource (`targetType`, `targetName`), found by name:
   * what auto-linking does for every name of a relation column. Returns the target's own name
   * string (equal to `targetName`; holding it instead of an equal copy saves memory), or
   * `undefined` (and links nothing) when there is no such resource. Looks at neither the target
   * resource's object nor its name's characters: at 100k resources those are scattered over the
   * heap and reading them costs more than the rest of the link.
   *
   * @example
   * ```ts
   * import { Graph } from "./graph.ts";
   * const g = new Graph();
   * const web = g.upsertResource("host", "web-1", { network: "net-1" });
   * g.upsertResource("network", "net-1");
   * console.log(g.linkByName(web, "network", "network", "net-1")); // "net-1"
   * console.log(g.linkByName(web, "network", "network", "net-2")); // undefined
   * console.log(g.outgoing(web).length); // 1
   * ```
   */
  linkByName(
    source: Resource,
    type: string,
    targetType: string,
    targetName: string,
  ): string | undefined {
    this.#assertMutable();
    const index = this.#byType.get(targetType)?.byName;
    if (index === undefined) return undefined;
    const at = index.find(targetName);
    if (at < 0) return undefined;
    if (type === "") throw new GraphError("relation type must not be empty");
    const targetId = index.idAt(at);
    if (this.#find(source.id, type, targetId) < 0) this.#link(source.id, type, targetId);
    return index.nameAt(at);
  }

  /** Creates the relation source -[type]-> target (resource ids); returns its id. */
  #link(sourceId: number, type: string, targetId: number): number {
    let label = this.#lastLabel;
    if (label < 0 || this.#labels[label] !== type) {
      label = this.#labelNumbers.get(type) ?? -1;
      if (label < 0) {
        label = this.#labels.length;
        this.#labels.push(type);
        this.#labelNumbers.set(type, label);
      }
      this.#lastLabel = label;
    }
    const id = this.#relationIds++;
    if (id >= this.#relationLabels.length) {
      this.#relationSources = grown(this.#relationSources, id);
      this.#relationTargets = grown(this.#relationTargets, id);
      this.#relationLabels = grown(this.#relationLabels, id);
    }
    this.#relationSources[id] = sourceId;
    this.#relationTargets[id] = targetId;
    this.#relationLabels[id] = label;
    this.#relationCount++;
    const outCount = this.#out.add(sourceId, id);
    this.#in.add(targetId, id);
    const index = this.#outIndex.size === 0 ? undefined : this.#outIndex.get(sourceId);
    if (index) pushToMap(index, targetId, id);
    else if (outCount > INDEX_FANOUT) this.#indexOutgoing(sourceId);
    this.#touch(sourceId);
    this.#touch(targetId);
    return id;
  }

  /** The relation source -[type]-> target, if present. */
  getRelation(source: Resource, type: string, target: Resource): Relation | undefined {
    const id = this.#find(source.id, type, target.id);
    return id < 0 ? undefined : this.#relation(id);
  }

  /** The id of the relation source -[type]-> target (resource ids), -1 if there is none. */
  #find(sourceId: number, type: string, targetId: number): number {
    const index = this.#outIndex.size === 0 ? undefined : this.#outIndex.get(sourceId);
    const targets = this.#relationTargets;
    const labels = this.#relationLabels;
    if (!index && !this.#sealed) {
      // Walk the list in place (newest first; at most one relation matches).
      for (let id = this.#out.newest(sourceId); id >= 0; id = this.#out.older(id)) {
        if (targets[id] === targetId && this.#labels[labels[id]] === type) return id;
      }
      return -1;
    }
    if (index) {
      for (const id of index.get(targetId) ?? []) {
        if (this.#labels[labels[id]] === type) return id;
      }
      return -1;
    }
    for (const r of this.#out.get(sourceId)) {
      if (r.target.id === targetId && r.type === type) return r.id;
    }
    return -1;
  }

  /** Indexes the outgoing relations of `sourceId` by target (ids in creation order). */
  #indexOutgoing(sourceId: number): void {
    const newestFirst: number[] = [];
    for (let id = this.#out.newest(sourceId); id >= 0; id = this.#out.older(id)) {
      newestFirst.push(id);
    }
    const index = new Map<number, number[]>();
    for (let k = newestFirst.length - 1; k >= 0; k--) {
      const id = newestFirst[k];
      pushToMap(index, this.#relationTargets[id], id);
    }
    this.#outIndex.set(sourceId, index);
  }

  /** Sets one relation property. */
  setRelationProperty(relation: Relation, key: string, value: JsonValue): void {
    this.#assertMutable();
    const r = relation as MutableRelation;
    if (r.properties === NO_PROPERTIES) r.properties = {};
    r.properties[key] = value;
    this.#touch(relation.source.id);
    this.#touch(relation.target.id);
  }

  /** Relations leaving `resource`, optionally only those of `type`, in creation order. */
  outgoing(resource: Resource, type?: string): readonly Relation[] {
    const all = this.#out.get(resource.id);
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  /** Relations arriving at `resource`, optionally only those of `type`, in creation order. */
  incoming(resource: Resource, type?: string): readonly Relation[] {
    const all = this.#in.get(resource.id);
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  /** Removes a relation. */
  removeRelation(relation: Relation): void {
    this.#assertMutable();
    const id = relation.id;
    if (this.#relations.get(id) !== relation || this.#relationLabels[id] < 0) return;
    this.#relations.set(id, undefined);
    this.#relationLabels[id] = -1;
    this.#relationCount--;
    this.#out.remove(relation.source.id, id);
    this.#in.remove(relation.target.id, id);
    removeFrom(this.#outIndex.get(relation.source.id)?.get(relation.target.id), id);
    this.#touch(relation.source.id);
    this.#touch(relation.target.id);
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
    this.#byType.get(resource.type)?.byName.delete(resource.name);
    this.#sorted.delete(resource.type);
    this.#removed.add(resource.id);
    this.#touch(resource.id);
  }

  /** Serialises the graph in the `graphJson` shape (resources by type then name). */
  toJSON(): GraphJson {
    return graphToJson(this);
  }
}

/** How a graph made by {@link Graph.spliced} relates to the graph it came from. */
export interface GraphSplicing {
  /** The graph it was spliced from. */
  readonly from: Graph;
  /** Per resource id of `from`: its id in the spliced graph, -1 when it was removed. */
  readonly oldToNew: Int32Array;
  /** Ids (in the spliced graph) of the resources the splices added, ascending. */
  readonly added: readonly number[];
  /** Number of resources of `from` the splices removed. */
  readonly removed: number;
}

/**
 * One run of resources replaced by {@link Graph.spliced}: the resources with ids
 * `[at, at + removed)` (all of `type`) give way to `added`, whose property objects the graph
 * takes over (`name` first; it is set to the name).
 */
export interface GraphSplice {
  /** Type of the replaced resources and of the new ones. */
  type: string;
  /** Id of the first replaced resource, or where the new ones go when none is replaced. */
  at: number;
  /** Number of replaced resources. */
  removed: number;
  /** The new resources, in order. */
  added: { name: string; properties: Properties }[];
}

/**
 * The relations {@link Graph.spliced} gives a new resource, in order (`find` looks names up in
 * the spliced graph), or why it cannot be linked.
 */
export type SpliceLinks = (
  resource: Resource,
  find: (type: string, name: string) => Resource | undefined,
) => (readonly [label: string, target: Resource])[] | string;

/** A spliced graph's relations: by relation id, with the packed out-list offsets. */
interface SplicedRelations {
  labels: string[];
  labelNumbers: Map<string, number>;
  sources: Int32Array<ArrayBuffer>;
  targets: Int32Array<ArrayBuffer>;
  labelIds: Int32Array<ArrayBuffer>;
  outOffsets: Int32Array<ArrayBuffer>;
}

/** Per label number: the id of the first relation with it (`labels` of them; -1: unused). */
function labelFirstUses(relationLabels: Int32Array, labels: number): Int32Array {
  const first = new Int32Array(labels).fill(-1);
  let found = 0;
  for (let id = 0; id < relationLabels.length && found < labels; id++) {
    const label = relationLabels[id];
    if (label >= 0 && first[label] < 0) {
      first[label] = id;
      found++;
    }
  }
  return first;
}

/** Changed resources taken by {@link Graph.deriveSteps} between two pause points. */
const DERIVE_PER_STEP = 2048;

/** Shared (frozen) properties of relations that have none yet; replaced on first write. */
const NO_PROPERTIES: Properties = Object.freeze({}) as Properties;

/** Relations being laid out by {@link Graph.spliced}: parallel typed arrays that grow. */
class RelationBuffer {
  sources: Int32Array<ArrayBuffer>;
  targets: Int32Array<ArrayBuffer>;
  labels: Int32Array<ArrayBuffer>;
  count = 0;

  constructor(capacity: number) {
    this.sources = new Int32Array(capacity);
    this.targets = new Int32Array(capacity);
    this.labels = new Int32Array(capacity);
  }

  push(source: number, label: number, target: number): void {
    const at = this.count;
    if (at === this.sources.length) {
      this.sources = grown(this.sources, at);
      this.targets = grown(this.targets, at);
      this.labels = grown(this.labels, at);
    }
    this.sources[at] = source;
    this.targets[at] = target;
    this.labels[at] = label;
    this.count = at + 1;
  }
}

/** The old graph's arrays {@link copyKeptRelations} reads. */
interface KeptRelations {
  /** Old out-adjacency (CSR). */
  offsets: Int32Array;
  ids: Int32Array;
  /** Old relation targets and label numbers, by relation id. */
  targets: Int32Array;
  labels: Int32Array;
  /** Old resource id -> new id (-1: replaced). */
  oldToNew: Int32Array;
  /** Old label number -> new one (-1: not numbered yet). */
  renumberedLabels: Int32Array;
}

/**
 * Copies the kept relations `kept.ids[from..end)` of new resource `source` into `buffer` until
 * one needs the caller (its label is not numbered yet or its target was replaced); returns that
 * one's index, or `end`.
 */
function copyKeptRelations(
  buffer: RelationBuffer,
  source: number,
  kept: KeptRelations,
  from: number,
  end: number,
): number {
  const { ids, targets, labels, oldToNew, renumberedLabels } = kept;
  for (let k = from; k < end; k++) {
    const relation = ids[k];
    const label = renumberedLabels[labels[relation]];
    const target = oldToNew[targets[relation]];
    if (label < 0 || target < 0) return k;
    buffer.push(source, label, target);
  }
  return end;
}

/**
 * The name index of a spliced type's resources `list` (in id order): the old index extended when
 * `list` keeps the old resources in their order and only appends (rows added at the end of the
 * type's run, the common write), else built again.
 */
function splicedIndex(
  old: NameIndex<MutableResource>,
  list: readonly MutableResource[],
  type: string,
): NameIndex<MutableResource> {
  let extended;
  try {
    extended = old.extended(list);
  } catch (e) {
    throw new GraphError(`spliced: ${(e as Error).message} in ${type}`);
  }
  if (extended) return extended;
  const byName = new NameIndex<MutableResource>();
  for (const r of list) {
    if (byName.get(r.name)) throw new GraphError(`spliced: '${r.name}' twice in ${type}`);
    byName.add(r);
  }
  byName.compact();
  return byName;
}

/** Moves resources `old[from..upTo)` to the end of `resources` (new objects where ids move). */
function keepRun(
  old: readonly MutableResource[],
  from: number,
  upTo: number,
  resources: MutableResource[],
  oldToNew: Int32Array,
  newToOld: Int32Array,
): void {
  for (let at = from; at < upTo; at++) {
    const r = old[at];
    const id = resources.length;
    oldToNew[at] = id;
    newToOld[id] = at;
    resources.push(id === r.id ? r : { id, type: r.type, name: r.name, properties: r.properties });
  }
}

/**
 * `0, 1, …, count - 1`: a view of one array shared by every spliced graph (packed out lists
 * are read-only), so a splice allocates no out-id list of its own.
 */
function identityIds(count: number): Int32Array {
  if (identity.length < count) {
    const grown = new Int32Array(Math.max(count, identity.length * 2));
    for (let k = 0; k < grown.length; k++) grown[k] = k;
    identity = grown;
  }
  return identity.subarray(0, count);
}
let identity = new Int32Array(0);

/**
 * The packed adjacency of relations `0..count)` laid out in the order of their sources: out
 * lists are the relation ids in order (a shared identity view); in lists are bucketed by target
 * (counting sort).
 */
function packRelations(
  targets: Int32Array,
  count: number,
  resources: number,
): { outIds: Int32Array; inOffsets: Int32Array; inIds: Int32Array } {
  const outIds = identityIds(count);
  const inOffsets = new Int32Array(resources + 1);
  for (let k = 0; k < count; k++) inOffsets[targets[k] + 1]++;
  for (let id = 0; id < resources; id++) inOffsets[id + 1] += inOffsets[id];
  const fill = inOffsets.slice(0, resources);
  const inIds = new Int32Array(count);
  for (let k = 0; k < count; k++) inIds[fill[targets[k]]++] = k;
  return { outIds, inOffsets, inIds };
}

/** Outgoing relations of one source scanned linearly up to this count, then indexed. */
const INDEX_FANOUT = 16;

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
