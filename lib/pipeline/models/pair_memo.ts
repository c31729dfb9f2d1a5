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
 * The next build, after an asset change that kept every key and relation cell (so that the
 * graph the model phase starts from differs from the last one only in the changed fields),
 * replays a pair's recorded calls instead of evaluating it when its origin fingerprint is the
 * same and none of its (type, field) reads is *dirty*. Dirty are the fields the asset change
 * touched and everything a pair in this build wrote differently from the last build (a pair
 * evaluated afresh whose calls differ, a pair that is new, a pair that is gone). The calls are
 * replayed through the same writer in the same order, so resource order, merges, overwrite
 * warnings and provenance are those of a full build; from the second pass on the phase runs as
 * it always does.
 *
 * Not kept (always evaluated): blocks whose texts call `now()`, `vault()`, `counter()` or
 * `get_random()`, include other templates, read `origin_resource_counter`, use
 * `origin_resource` as a whole or follow a relation from it; `create_resource` with
 * `create_from.property_origin` or `copy_from`; `copy_property` with `from`; a block that reads
 * a relation field of another type; and pairs that reported an error or a warning.
 *
 * @module
 */
import type { Graph, Resource } from "../../graph/graph.ts";
import type { CompiledHeader } from "../rules/header.ts";
import {
  originFingerprint,
  ReadCollector,
  someString,
  UNTRACKED_ACROSS_BUILDS,
} from "../rules/read_collector.ts";
import type { ModelRule } from "./compile.ts";
import { ANY_FIELD, MEMBERS } from "./reads.ts";
import { eachWriteCall, writeCallFields, type WriteCalls } from "./writer.ts";

/** Pseudo type under which the reads of the origin itself are collected. */
const ORIGIN = "\u0000origin";

/** What the pairs of one block read: see the module doc. */
export interface PairReads {
  /** Fields of the origin itself. */
  local: readonly string[];
  /** Whether the origin's relations are read (they go into the fingerprint). */
  relations: boolean;
  /** (type, field) reads of other resources ({@link MEMBERS}: which resources exist). */
  global: ReadonlyMap<string, ReadonlySet<string>>;
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
  for (const h of header) {
    if (h.form.kind === "template" || h.form.kind === "block") c.template(h.form.source, roots);
    else if (h.form.kind === "json") c.template(h.form.ref, roots);
  }
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
    case "link_resources": {
      const withRoots = { ...roots, target_resource: rule.with };
      c.add(rule.with, MEMBERS);
      c.condition(rule.matchOn, ORIGIN, roots);
      c.condition(rule.matchWith, rule.with, withRoots);
      if (rule.join) {
        c.add(ORIGIN, rule.join.local);
        c.add(rule.with, rule.join.remote);
      }
      for (const spec of rule.copyProperties) {
        if (spec.template !== undefined) c.template(spec.template, withRoots);
        if (spec.from !== "") c.path(rule.with, spec.from);
      }
      if (rule.createRelation?.properties) c.deep(rule.createRelation.properties, withRoots);
      break;
    }
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
  return { local: [...(c.fields.get(ORIGIN) ?? [])], relations, global };
}

interface PairEntry {
  fingerprint: string;
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
  #previous = new Map<string, Map<string, PairEntry>>();
  #current = new Map<string, Map<string, PairEntry>>();
  #dirty: Map<string, Set<string>> | undefined;
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
    this.replayed = 0;
    this.evaluated = 0;
  }

  /**
   * Lets the current build replay pairs: `dirty` holds the fields (by type) in which the graph its
   * model phase starts from differs from the last build's.
   */
  allowReplay(dirty: ReadonlyMap<string, ReadonlySet<string>>): void {
    this.#dirty = new Map([...dirty].map(([t, f]) => [t, new Set(f)]));
  }

  /** True when the current build may replay pairs. */
  get replaying(): boolean {
    return this.#dirty !== undefined;
  }

  /**
   * The pairs of block `key` in this build: `origins` are the origins it will run for, in order,
   * `reads` its analysis (undefined: every pair is evaluated; its calls are still recorded, to
   * know what a later build's pairs of it write differently).
   */
  block(
    key: string,
    reads: PairReads | undefined,
    graph: Graph,
    origins: readonly (Resource | undefined)[],
  ): BlockPairs {
    const previous = this.#previous.get(key);
    const current = new Map<string, PairEntry>();
    this.#current.set(key, current);
    const relationNames = new Set([...graph.relationLabels(), ...graph.types()]);
    let replay = reads !== undefined && this.#dirty !== undefined;
    for (const fields of reads?.global.values() ?? []) {
      for (const f of fields) if (f !== MEMBERS && relationNames.has(f)) replay = false;
    }
    if (previous !== undefined && this.#dirty !== undefined) {
      // Pairs of the last build that will not run now: what they wrote is not written.
      const now = new Set<string>();
      for (const o of origins) now.add(o?.name ?? "");
      for (const [name, entry] of previous) if (!now.has(name)) this.#mark(entry.calls);
    }
    return new BlockPairs(this, graph, reads, replay, previous, current, relationNames);
  }

  /** Marks what `calls` write as dirty. */
  #mark(calls: WriteCalls): void {
    const dirty = this.#dirty;
    if (!dirty) return;
    writeCallFields(calls, (type, field) => {
      let set = dirty.get(type);
      if (!set) dirty.set(type, set = new Set());
      set.add(field);
    });
  }

  /**
   * @ignore Marks what a pair evaluated afresh wrote differently from the last build: the calls
   * only one of `before` and `after` makes (all of both when the same calls come in another
   * order, which can end with other values).
   */
  changed(before: WriteCalls | undefined, after: WriteCalls): void {
    if (before === undefined) return this.#mark(after);
    if (callsEqual(before, after)) return;
    const a = eachWriteCall(before).map((c) => JSON.stringify(c));
    const b = eachWriteCall(after).map((c) => JSON.stringify(c));
    const count = new Map<string, number>();
    for (const c of a) count.set(c, (count.get(c) ?? 0) + 1);
    for (const c of b) count.set(c, (count.get(c) ?? 0) - 1);
    let differ = false;
    for (const n of count.values()) if (n !== 0) differ = true;
    if (!differ) {
      this.#mark(before);
      return;
    }
    for (const [c, n] of count) if (n !== 0) this.#mark(JSON.parse(c));
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
  #fingerprint: string | undefined;
  #before: PairEntry | undefined;

  /** @ignore */
  constructor(
    readonly memo: ModelPairMemo,
    readonly graph: Graph,
    readonly reads: PairReads | undefined,
    readonly replay: boolean,
    readonly previous: ReadonlyMap<string, PairEntry> | undefined,
    readonly current: Map<string, PairEntry>,
    readonly relationNames: ReadonlySet<string>,
  ) {}

  /**
   * The calls to replay for `origin` instead of evaluating it, or `undefined`: then evaluate it
   * and report with {@link BlockPairs.evaluated}.
   */
  replayable(origin: Resource | undefined): WriteCalls | undefined {
    const name = origin?.name ?? "";
    this.#origin = name;
    this.#fingerprint = undefined;
    const before = this.#before = this.previous?.get(name);
    const reads = this.reads;
    if (reads === undefined || origin === undefined) return undefined;
    let fingerprint = originFingerprint(this.graph, origin, reads.local, this.relationNames);
    if (fingerprint === undefined) return undefined;
    if (reads.relations) fingerprint += relationFingerprint(this.graph, origin);
    this.#fingerprint = fingerprint;
    if (
      this.replay && before !== undefined && before.replayable &&
      before.fingerprint === fingerprint &&
      !this.memo.isDirty(reads.global)
    ) {
      this.current.set(name, before);
      this.memo.replayed++;
      return before.calls;
    }
    return undefined;
  }

  /**
   * Records the evaluation of the origin of the last {@link BlockPairs.replayable} call: the
   * calls it made, and whether it reported no error or warning.
   */
  evaluated(calls: WriteCalls, clean: boolean): void {
    this.memo.evaluated++;
    this.memo.changed(this.#before?.calls, calls);
    this.current.set(this.#origin, {
      fingerprint: this.#fingerprint ?? "",
      calls,
      replayable: clean && this.#fingerprint !== undefined,
    });
  }
}

/** The origin's relations (both ways, with their properties) as one comparable string. */
function relationFingerprint(graph: Graph, origin: Resource): string {
  let out = "";
  for (const r of graph.outgoing(origin)) {
    out += `>${r.type}\u0000${r.target.type}\u0000${r.target.name}\u0000${
      JSON.stringify(r.properties)
    }\u0000`;
  }
  for (const r of graph.incoming(origin)) {
    out += `<${r.type}\u0000${r.source.type}\u0000${r.source.name}\u0000${
      JSON.stringify(r.properties)
    }\u0000`;
  }
  return out;
}

function callsEqual(a: WriteCalls, b: WriteCalls): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}
