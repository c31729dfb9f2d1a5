/**
 * Model rule evaluations kept from one build to the next, per (rule block, origin) pair (issue
 * 25 §2). While a block runs for an origin in the first pass, the writer records the calls it
 * makes (`GraphWriter.beginCalls`), and the pair notes what it read:
 *
 * - of the origin itself, exactly: the values of the fields its templates and conditions name,
 *   and, for `copy_property`, the origin's relations (a fingerprint string);
 * - of other resources, by (type, field): the `with` type of `link_resources` (its members and
 *   the fields its join, `match_with` and copies read), the `to` type of `copy_property`'s
 *   `match_on`.
 *
 * The next build, after a change of asset CSVs only, replays a pair's recorded calls instead of
 * evaluating it when its origin fingerprint is the same and none of its (type, field) reads is
 * *dirty*. Dirty are the fields the asset change touched (the builder says which: the changed
 * fields, or every field of a type whose keys, rows or relation cells changed) and everything a
 * pair in this build wrote differently from the last build (a pair evaluated afresh whose calls
 * differ, a pair that is new, a pair that is gone). The calls are replayed through the same
 * writer in the same order, so resource order, merges, overwrite warnings and provenance are
 * those of a full build; from the second pass on the phase runs as it always does.
 *
 * Not kept (always evaluated): blocks whose texts call `now()`, `vault()`, `counter()` or
 * `get_random()`, include other templates, read `origin_resource_counter`, use
 * `origin_resource` as a whole or through a dotted path; `create_resource` with
 * `create_from.property_origin` or `copy_from`; `copy_property` with `from`; a pair whose
 * templates name one of its origin's relation fields; after an edit of keys or relation cells,
 * a block whose templates name a relation field of another type (the relations the model phase
 * writes are tracked through the writer's calls, the ones the asset phase made are not; joins
 * and condition paths read properties only); and pairs that reported an error or a warning.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../../graph/graph.ts";
import type { CompiledHeader } from "../rules/header.ts";
import {
  originValues,
  ReadCollector,
  relationFieldNames,
  sameValues,
  someString,
  SortedMemo,
  UNTRACKED_ACROSS_BUILDS,
} from "../rules/read_collector.ts";
import type { ModelRule } from "./compile.ts";
import { ANY_FIELD, linkReads, RELATIONS } from "./reads.ts";
import { eachWriteCall, writeCallFields, type WriteCalls } from "./writer.ts";

/** Pseudo type under which the reads of the origin itself are collected. */
const ORIGIN = "\u0000origin";

/** What the pairs of one block read: see the module doc. */
export interface PairReads {
  /** Fields of the origin itself. */
  local: readonly string[];
  /** Whether the origin's relations are read (they go into the fingerprint). */
  relations: boolean;
  /** (type, field) reads of other resources (`MEMBERS` of reads.ts: which resources exist). */
  global: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The reads made through templates, by type (the origin's under a pseudo type): only there does
   * a field named like a relation field read the relation (`ReadCollector.views`).
   */
  views: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The reads of the pairs of a model block, or `undefined` when its pairs cannot be kept (see
 * the module doc).
 *
 * @example
 * ```ts
 * import { pairReads } from "./pair_memo.ts";
 * const reads = pairReads("host", {
 *   kind: "create_resource", resourceType: "vm", name: "{{ origin_resource.name }}-vm",
 *   properties: { env: "{{ origin_resource.env | upper }}" },
 * }, []);
 * console.log(reads?.local, reads?.global.size); // ["name", "env"] 0
 * ```
 */
export function pairReads(
  originType: string | undefined,
  rule: ModelRule,
  header: readonly CompiledHeader[],
): PairReads | undefined {
  if (originType === undefined) return undefined;
  if (
    someString([rule, header], (s) => UNTRACKED_ACROSS_BUILDS.test(s) || s.includes("_counter"))
  ) {
    return undefined;
  }
  const c = new ReadCollector();
  const roots = { origin_resource: ORIGIN };
  c.header(header, roots);
  let relations = false;
  switch (rule.kind) {
    case "create_resource": {
      const cf = rule.createFrom;
      if (cf?.propertyOrigin !== undefined || rule.copyFrom) return undefined;
      c.condition(rule.matchOn, ORIGIN, roots);
      for (const s of [rule.resourceType, rule.name, rule.relationType]) {
        if (s !== undefined) c.template(s, roots);
      }
      c.deep(rule.properties, roots);
      if (rule.relationProperties) c.deep(rule.relationProperties, roots);
      if (cf?.property !== undefined) c.path(ORIGIN, cf.property);
      break;
    }
    case "link_resources":
      linkReads(c, rule, ORIGIN);
      break;
    case "copy_property": {
      if (rule.from !== undefined) return undefined;
      relations = true;
      c.condition(rule.matchOn, rule.to, roots);
      for (const spec of rule.properties) c.path(ORIGIN, spec.from);
      break;
    }
    case "retype_relation":
      return undefined;
  }
  if (c.all || c.impure) return undefined;
  const global = new Map(c.fields);
  global.delete(ORIGIN);
  for (const fields of global.values()) if (fields.has(ANY_FIELD)) return undefined;
  return { local: [...(c.fields.get(ORIGIN) ?? [])], relations, global, views: c.views };
}

interface PairEntry {
  /** Values of the origin fields read. */
  values: readonly (JsonValue | undefined)[];
  /** The origin's relations, for blocks that read them (see {@link originRelations}). */
  relations: readonly unknown[] | undefined;
  calls: WriteCalls;
  /** False when the evaluation reported an error or warning: evaluate it again next time. */
  replayable: boolean;
}

/**
 * The pairs of the previous build and of the current one, by block and origin name, and the
 * fields the current build has made dirty so far (see the module doc).
 *
 * @example
 * ```ts
 * import { ModelPairMemo } from "./pair_memo.ts";
 * const memo = new ModelPairMemo();
 * memo.nextBuild(); // a build that records only
 * console.log(memo.replaying, memo.replayed, memo.evaluated); // false 0 0
 * ```
 */
export class ModelPairMemo {
  #previous = new Map<string, SortedMemo<PairEntry>>();
  #current = new Map<string, SortedMemo<PairEntry>>();
  #dirty: Map<string, Set<string>> | undefined;
  /** True when the relations the model phase starts from may differ from the last build's. */
  #relationsDirty = false;
  /** Bumped whenever a field becomes dirty (blocks cache their answer per version). */
  dirtyVersion = 0;
  /** Pairs replayed in the current build. */
  replayed = 0;
  /** Pairs evaluated in the current build. */
  evaluated = 0;

  /**
   * Starts the next build: what the last one recorded becomes the previous build's (a build whose
   * model phase did not run leaves nothing to replay), and the build only records until
   * {@link ModelPairMemo.allowReplay}.
   */
  nextBuild(): void {
    this.#previous = this.#current;
    this.#current = new Map();
    this.#dirty = undefined;
    this.#relationsDirty = false;
    this.replayed = 0;
    this.evaluated = 0;
  }

  /**
   * Lets the current build replay pairs: `dirty` holds the fields (by type) in which the graph its
   * model phase starts from may differ from the last build's ({@link ANY_FIELD}: any of the
   * type's fields, and which resources it has). `relations`: the relations it starts from may
   * differ too (keys or relation cells changed).
   */
  allowReplay(dirty: ReadonlyMap<string, ReadonlySet<string>>, relations = false): void {
    this.#relationsDirty = relations;
    this.#dirty = new Map([...dirty].map(([t, f]) => [t, new Set(f)]));
    this.dirtyVersion++;
  }

  /** True when the current build may replay pairs. */
  get replaying(): boolean {
    return this.#dirty !== undefined;
  }

  /**
   * The pairs of block `key` in this build, visited in ascending origin name order (the order of
   * `resourcesOfSorted`); `reads` is the block's analysis (undefined: every pair is evaluated;
   * its calls are still recorded, to know what a later build's pairs of it write differently).
   */
  block(key: string, reads: PairReads | undefined, graph: Graph): BlockPairs {
    const current = new SortedMemo(this.#previous.get(key));
    this.#current.set(key, current);
    const relationNames = relationFieldNames(graph);
    let replay = reads !== undefined && this.#dirty !== undefined;
    // What relations the model phase starts from is not tracked by field: after an asset edit
    // that may have changed them, a template read of another type's relation field is not
    // replayed. The relations the model phase writes are (the writer's calls name the field
    // keys they give).
    if (this.#relationsDirty) {
      for (const [type, fields] of reads?.global ?? []) {
        if (fields.has(RELATIONS)) replay = false;
        for (const f of reads!.views.get(type) ?? []) if (relationNames.has(f)) replay = false;
      }
    }
    // Of the origin's own fields, only template reads can be relation reads (originValues).
    const originGuard = new Set<string>();
    for (const f of reads?.views.get(ORIGIN) ?? []) if (relationNames.has(f)) originGuard.add(f);
    return new BlockPairs(this, graph, reads, replay, current, originGuard);
  }

  /** @ignore Marks what `calls` write as dirty (a pair of the last build that did not run now). */
  mark(calls: WriteCalls): void {
    const dirty = this.#dirty;
    if (!dirty) return;
    writeCallFields(calls, (type, field) => {
      let set = dirty.get(type);
      if (!set) dirty.set(type, set = new Set());
      if (set.has(field)) return;
      set.add(field);
      this.dirtyVersion++;
    });
  }

  /**
   * @ignore Marks what a pair evaluated afresh wrote differently from the last build: the calls
   * only one of `before` and `after` makes (all of both when the same calls come in another
   * order, which can end with other values).
   */
  changed(before: WriteCalls | undefined, after: WriteCalls): void {
    if (!this.#dirty) return;
    if (before === undefined) return this.mark(after);
    if (sameValues(before as JsonValue[], after as JsonValue[])) return;
    const a = eachWriteCall(before).map((c) => JSON.stringify(c));
    const b = eachWriteCall(after).map((c) => JSON.stringify(c));
    const count = new Map<string, number>();
    for (const c of a) count.set(c, (count.get(c) ?? 0) + 1);
    for (const c of b) count.set(c, (count.get(c) ?? 0) - 1);
    let differ = false;
    for (const n of count.values()) if (n !== 0) differ = true;
    if (!differ) {
      this.mark(before);
      return;
    }
    for (const [c, n] of count) if (n !== 0) this.mark(JSON.parse(c));
  }

  /** @ignore True when one of `global` is dirty. */
  isDirty(global: ReadonlyMap<string, ReadonlySet<string>>): boolean {
    const dirty = this.#dirty;
    if (!dirty) return true;
    for (const [type, fields] of global) {
      const d = dirty.get(type);
      if (d === undefined) continue;
      if (d.has(ANY_FIELD)) return true;
      for (const f of fields) if (d.has(f)) return true;
    }
    return false;
  }
}

/** The pairs of one block in one build (see {@link ModelPairMemo.block}). */
export class BlockPairs {
  #origin = "";
  #values: (JsonValue | undefined)[] | undefined;
  #relations: unknown[] | undefined;
  #before: PairEntry | undefined;
  #dirtyAt = -1;
  #dirty = true;
  readonly #skipped = (gone: PairEntry) => this.memo.mark(gone.calls);

  /** @ignore */
  constructor(
    readonly memo: ModelPairMemo,
    readonly graph: Graph,
    readonly reads: PairReads | undefined,
    readonly replay: boolean,
    readonly pairs: SortedMemo<PairEntry>,
    readonly originGuard: ReadonlySet<string>,
  ) {}

  /**
   * The calls to replay for `origin` instead of evaluating it, or `undefined`: then evaluate it
   * and report with {@link BlockPairs.evaluated}. Pairs of the last build whose origins are not
   * visited are marked dirty (what they wrote is not written now).
   */
  replayable(origin: Resource | undefined): WriteCalls | undefined {
    const name = origin?.name ?? "";
    this.#origin = name;
    this.#values = undefined;
    this.#relations = undefined;
    const before = this.#before = this.pairs.previous(name, this.#skipped);
    const reads = this.reads;
    if (reads === undefined || origin === undefined) return undefined;
    const values = originValues(this.graph, origin, reads.local, this.originGuard);
    if (values === undefined) return undefined;
    this.#values = values;
    if (reads.relations) this.#relations = originRelations(this.graph, origin);
    if (
      this.replay && before !== undefined && before.replayable &&
      sameValues(before.values, values) &&
      (before.relations === undefined ||
        sameValues(before.relations as JsonValue[], this.#relations as JsonValue[])) &&
      !this.#globalDirty(reads)
    ) {
      this.pairs.keep(name, before);
      this.memo.replayed++;
      return before.calls;
    }
    return undefined;
  }

  #globalDirty(reads: PairReads): boolean {
    if (this.#dirtyAt !== this.memo.dirtyVersion) {
      this.#dirtyAt = this.memo.dirtyVersion;
      this.#dirty = this.memo.isDirty(reads.global);
    }
    return this.#dirty;
  }

  /**
   * Records the evaluation of the origin of the last {@link BlockPairs.replayable} call: the
   * calls it made, and whether it reported no error or warning.
   */
  evaluated(calls: WriteCalls, clean: boolean): void {
    this.memo.evaluated++;
    this.memo.changed(this.#before?.calls, calls);
    this.pairs.keep(this.#origin, {
      values: this.#values ?? [],
      relations: this.#relations,
      calls,
      replayable: clean && this.#values !== undefined,
    });
  }

  /** Ends the block: pairs of the last build after the last origin visited are marked dirty. */
  finish(): void {
    this.pairs.rest(this.#skipped);
  }
}

/**
 * The origin's relations, both ways, as a flat list to compare with {@link sameValues}:
 * direction, type, the other end's type and name, and the relation's properties.
 */
function originRelations(graph: Graph, origin: Resource): unknown[] {
  const out: unknown[] = [];
  for (const r of graph.outgoing(origin)) {
    out.push(">", r.type, r.target.type, r.target.name, r.properties);
  }
  for (const r of graph.incoming(origin)) {
    out.push("<", r.type, r.source.type, r.source.name, r.properties);
  }
  return out;
}
