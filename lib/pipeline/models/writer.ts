/**
 * Graph mutations of the model phase with change tracking (for the fixpoint loop) and the merge
 * warnings of reference M80–M81.
 *
 * @module
 */
import type { Graph, JsonValue, Properties, Relation, Resource } from "../../graph/graph.ts";
import type { IssueCollector } from "../issues.ts";
import { setById } from "../../graph/dense.ts";
import { ANY_FIELD, MEMBERS, type ReadSet, RELATIONS } from "./reads.ts";
import type { Provenance } from "../provenance.ts";

/** Where a write comes from: the rule label and the origin it ran for. */
export interface WriteSite {
  /** File shown to users. */
  file: string;
  /** Rule label, e.g. `chunk 1, create_resource[0]`. */
  rule: string;
  /** Line of the rule block. */
  line?: number;
  /** Id of the origin resource (or -1). */
  origin: number;
  /** Interned (file, rule) number, filled in by the writer. */
  siteNumber?: number;
}

/**
 * The writer calls of one (rule, origin) pair, flat: `0, type, name, sited` creates a resource;
 * `1, type, name, key, value` sets a property; `2, sourceType, sourceName, relationType,
 * targetType, targetName, properties | null, sited` creates or merges a relation (`sited`: the
 * call named its write site). Recorded between {@link GraphWriter.beginCalls} and
 * {@link GraphWriter.endCalls}, replayed by {@link GraphWriter.replay} (`pair_memo.ts`).
 */
export type WriteCalls = readonly (string | number | boolean | JsonValue)[];

const CALL_RESOURCE = 0;
const CALL_SET = 1;
const CALL_RELATION = 2;
/** Length of each call, by its first item. */
const CALL_SIZE = [4, 5, 8];

/**
 * Calls `field(type, field)` for every (type, field) that `calls` may change: resource
 * membership ({@link MEMBERS}), properties, and for relations both ends' {@link RELATIONS} and
 * relation field keys.
 *
 * @example
 * ```ts
 * import { writeCallFields } from "./writer.ts";
 * const seen: string[] = [];
 * writeCallFields([0, "vm", "a", true, 1, "vm", "a", "env", "prod"], (t, f) => seen.push(`${t}.${f}`));
 * console.log(seen); // ["vm.@members", "vm.env"]
 * ```
 */
export function writeCallFields(
  calls: WriteCalls,
  field: (type: string, field: string) => void,
): void {
  for (let i = 0; i < calls.length;) {
    const op = calls[i];
    if (op === CALL_RESOURCE) {
      field(calls[i + 1] as string, MEMBERS);
      i += 4;
    } else if (op === CALL_SET) {
      field(calls[i + 1] as string, calls[i + 3] as string);
      i += 5;
    } else {
      const source = calls[i + 1] as string;
      relationFields(source, calls[i + 3] as string, calls[i + 4] as string, field);
      field(source, RELATION_PROPERTIES);
      i += 8;
    }
  }
}

/**
 * The (type, field) pairs a relation source -[type]-> target changes: both ends'
 * {@link RELATIONS} and the relation field keys it gives them (the relation type and the target
 * type on the source, the source type on the target).
 */
function relationFields(
  sourceType: string,
  type: string,
  targetType: string,
  field: (type: string, field: string) => void,
): void {
  field(sourceType, RELATIONS);
  field(sourceType, type);
  field(sourceType, targetType);
  field(targetType, RELATIONS);
  field(targetType, sourceType);
}

/**
 * `calls` cut into single calls.
 *
 * @example
 * ```ts
 * import { eachWriteCall } from "./writer.ts";
 * console.log(eachWriteCall([0, "vm", "a", true, 1, "vm", "a", "env", "prod"]).length); // 2
 * ```
 */
export function eachWriteCall(calls: WriteCalls): WriteCalls[] {
  const out: WriteCalls[] = [];
  for (let i = 0; i < calls.length;) {
    const size = CALL_SIZE[calls[i] as number];
    out.push(calls.slice(i, i + size));
    i += size;
  }
  return out;
}

/** Deep equality of JSON values. */
export function jsonEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !jsonEquals(a[k], b[k])) return false;
  return true;
}

/**
 * Applies model-phase writes, counting effective changes. Overwriting a property with a
 * different value logs a warning (M80) unless the previous value came from the same rule and
 * origin (a re-run in a later pass); each writer (rule and origin) overwriting another's value
 * of a (resource, property) warns once.
 */
export class GraphWriter {
  #created = 0;
  /** Values at the start of the pass, per resource / relation and key (first change only). */
  readonly #startProps: (Record<string, JsonValue | undefined> | undefined)[] = [];
  #touched: Resource[] = [];
  readonly #startRelProps = new Map<Relation, Map<string, JsonValue | undefined>>();
  readonly #graph: Graph;
  readonly #issues: IssueCollector;
  readonly #provenance: Provenance | undefined;
  /** Last writer of each property: resource id -> key -> site number * 2^26 + origin + 1. */
  readonly #owners: (Record<string, number> | undefined)[] = [];
  readonly #sites = new Map<string, number>();
  readonly #conflicts = new Set<string>();
  /** Effective writes so far; `#lastWrite` maps type -> field -> sequence of the last one. */
  #seq = 0;
  readonly #lastWrite = new Map<string, Map<string, number>>();
  readonly #lastWriteOfType = new Map<string, number>();
  /** Relation field keys per resource type (relation types, source and target types). */
  #relationKeys: Map<string, Set<string>> | undefined;
  /** Fields the running block tried to write (see `beginAttempts`). */
  #attempts: Map<string, Set<string>> | undefined;
  /** Calls of the running (rule, origin) pair (see `beginCalls`). */
  #calls: (string | number | boolean | JsonValue)[] | undefined;

  /**
   * Creates a writer over `graph`.
   *
   * @param graph graph to mutate
   * @param issues where merge warnings go
   * @param provenance where effective writes are recorded per resource (rule file and kind)
   */
  constructor(graph: Graph, issues: IssueCollector, provenance?: Provenance) {
    this.#graph = graph;
    this.#issues = issues;
    this.#provenance = provenance;
  }

  /** Starts a pass: forgets the values seen at the start of the previous pass. */
  resetChanges(): void {
    this.#created = 0;
    for (const r of this.#touched) this.#startProps[r.id] = undefined;
    this.#touched = [];
    this.#startRelProps.clear();
  }

  /**
   * Effective changes of the current pass: resources and relations created, plus properties
   * whose value now differs from their value when the pass started (a value written twice in a
   * pass and ending where it began is no change, so conflicting rules still converge).
   */
  get changes(): number {
    let n = this.#created;
    for (const r of this.#touched) {
      const keys = this.#startProps[r.id]!;
      for (const k in keys) if (!jsonEquals(r.properties[k], keys[k])) n++;
    }
    for (const [r, keys] of this.#startRelProps) {
      for (const [k, start] of keys) if (!jsonEquals(r.properties[k], start)) n++;
    }
    return n;
  }

  /** Starts recording the calls of one (rule, origin) pair ({@link WriteCalls}). */
  beginCalls(): void {
    this.#calls = [];
  }

  /** Stops recording and returns the calls since {@link GraphWriter.beginCalls}. */
  endCalls(): WriteCalls {
    const calls = this.#calls ?? [];
    this.#calls = undefined;
    return calls;
  }

  /**
   * Makes `calls` again, for the origin whose write site is `site` (the calls a pair made in an
   * earlier build, `pair_memo.ts`). Throws when a resource the calls name does not exist (the
   * replay would not be what the evaluation wrote).
   */
  replay(calls: WriteCalls, site: WriteSite): void {
    // Calls name few resources, mostly the origin and the one a rule creates, alternating
    // (create it, set its properties, relate the origin to it): the last two found are kept.
    let last: Resource | undefined = site.origin >= 0
      ? this.#graph.getResourceById(site.origin)
      : undefined;
    let before: Resource | undefined;
    const find = (type: string, name: string) => {
      if (last !== undefined && last.name === name && last.type === type) return last;
      if (before !== undefined && before.name === name && before.type === type) {
        const found = before;
        before = last;
        return last = found;
      }
      const r = this.#graph.getResource(type, name);
      if (!r) throw new Error(`internal error: replayed write to missing ${type} '${name}'`);
      before = last;
      return last = r;
    };
    for (let i = 0; i < calls.length;) {
      const op = calls[i];
      if (op === CALL_RESOURCE) {
        before = last;
        last = this.resource(
          calls[i + 1] as string,
          calls[i + 2] as string,
          calls[i + 3] ? site : undefined,
        );
        i += 4;
      } else if (op === CALL_SET) {
        const r = find(calls[i + 1] as string, calls[i + 2] as string);
        this.set(r, calls[i + 3] as string, calls[i + 4] as JsonValue, site);
        i += 5;
      } else {
        const source = find(calls[i + 1] as string, calls[i + 2] as string);
        const target = find(calls[i + 4] as string, calls[i + 5] as string);
        const props = calls[i + 6] as Properties | null;
        this.relation(
          source,
          calls[i + 3] as string,
          target,
          props === null ? undefined : { ...props },
          calls[i + 7] ? site : undefined,
        );
        i += 8;
      }
    }
  }

  /** Creates or returns the resource (type, name); `site` is recorded as its creator. */
  resource(type: string, name: string, site?: WriteSite): Resource {
    this.#calls?.push(CALL_RESOURCE, type, name, site !== undefined);
    const existing = this.#graph.getResource(type, name);
    if (existing) return existing;
    this.#created++;
    this.#wrote(type, MEMBERS);
    const created = this.#graph.upsertResource(type, name);
    if (site) {
      this.#provenance?.note(created.id, site.file, "created");
      if (site.origin < 0) this.#provenance?.createdGlobally(created.id);
    }
    return created;
  }

  /** Fills in `site.siteNumber` (interned file + rule). */
  intern(site: WriteSite): void {
    this.#ownerOf(site);
  }

  #ownerOf(site: WriteSite): number {
    let n = site.siteNumber;
    if (n === undefined) {
      const id = `${site.file}\u0000${site.rule}`;
      n = this.#sites.get(id);
      if (n === undefined) {
        n = this.#sites.size + 1;
        this.#sites.set(id, n);
      }
      site.siteNumber = n;
    }
    return n * 2 ** 26 + site.origin + 1;
  }

  /** Sets a property with M80 semantics. */
  set(resource: Resource, key: string, value: JsonValue, site: WriteSite): void {
    this.#calls?.push(CALL_SET, resource.type, resource.name, key, value);
    if (key === "name") return;
    if (this.#attempts) addField(this.#attempts, resource.type, key);
    const old = resource.properties[key];
    if (jsonEquals(old, value)) return;
    const owner = this.#ownerOf(site);
    let owners = this.#owners[resource.id];
    if (!owners) {
      owners = Object.create(null) as Record<string, number>;
      setById(this.#owners, resource.id, owners);
    }
    // The owner only changes with the value: an equal write keeps the first writer.
    const previous = owners[key];
    owners[key] = owner;
    let start = this.#startProps[resource.id];
    if (!start) {
      start = Object.create(null) as Record<string, JsonValue | undefined>;
      setById(this.#startProps, resource.id, start);
      this.#touched.push(resource);
    }
    if (!(key in start)) start[key] = old;
    if (old !== undefined && previous !== owner) {
      // Every writer that overwrites another's value warns once per property (M80); the writer
      // it displaced is remembered too, so later passes re-running both stay quiet.
      const id = `${resource.id}\u0000${key}\u0000`;
      if (previous !== undefined) this.#conflicts.add(id + previous);
      if (!this.#conflicts.has(id + owner)) {
        this.#conflicts.add(id + owner);
        this.#issues.warn(
          "model_property_overwritten",
          `${resource.type} '${resource.name}': property '${key}' overwritten: ${show(old)} -> ${
            show(value)
          }`,
          { file: site.file, line: site.line, rule: site.rule, phase: "models" },
        );
      }
    }
    this.#wrote(resource.type, key);
    this.#graph.setProperty(resource, key, value);
    this.#provenance?.note(resource.id, site.file, "changed");
  }

  /**
   * Starts recording the fields a block *tries* to write (effective or not), per type;
   * {@link GraphWriter.endAttempts} returns them.
   */
  beginAttempts(): void {
    this.#attempts = new Map();
  }

  /** Stops recording and returns the fields tried since {@link GraphWriter.beginAttempts}. */
  endAttempts(): Map<string, Set<string>> {
    const out = this.#attempts ?? new Map();
    this.#attempts = undefined;
    return out;
  }

  /**
   * True when any of `fields` (type -> fields) was written after sequence `since`: another
   * rule overwrote what a block wrote, so re-running the block would write it back.
   */
  writtenSince(fields: ReadonlyMap<string, ReadonlySet<string>>, since: number): boolean {
    if (this.#seq <= since) return false;
    for (const [type, keys] of fields) {
      if ((this.#lastWriteOfType.get(type) ?? 0) <= since) continue;
      const last = this.#lastWrite.get(type)!;
      for (const k of keys) if ((last.get(k) ?? 0) > since) return true;
    }
    return false;
  }

  /** Sequence number of the last effective write (0 before any). */
  get sequence(): number {
    return this.#seq;
  }

  /**
   * True when a write after sequence `since` may have changed something in `reads`. A field
   * read that is also a relation key of its type counts as reading everything: templates can
   * walk from a relation list into other resources.
   */
  changedSince(reads: ReadSet, since: number): boolean {
    if (this.#seq <= since) return false;
    if (reads === "all") return true;
    for (const [type, fields] of reads) {
      const relationKeys = this.#relationKeysOf(type);
      for (const f of fields) if (relationKeys.has(f)) return true;
      if ((this.#lastWriteOfType.get(type) ?? 0) <= since) continue;
      if (fields.has(ANY_FIELD)) return true;
      const last = this.#lastWrite.get(type)!;
      for (const f of fields) if ((last.get(f) ?? 0) > since) return true;
    }
    return false;
  }

  /** {@link GraphWriter.#wrote} as a function value, made once (relations are many). */
  readonly #wroteField = (type: string, field: string) => this.#wrote(type, field);

  #wrote(type: string, field: string): void {
    const seq = ++this.#seq;
    let fields = this.#lastWrite.get(type);
    if (!fields) {
      fields = new Map();
      this.#lastWrite.set(type, fields);
    }
    fields.set(field, seq);
    this.#lastWriteOfType.set(type, seq);
  }

  #wroteRelation(source: Resource, type: string, target: Resource): void {
    relationFields(source.type, type, target.type, this.#wroteField);
    if (this.#relationKeys) addRelationKeys(this.#relationKeys, source.type, type, target.type);
  }

  #relationKeysOf(type: string): ReadonlySet<string> {
    if (!this.#relationKeys) {
      this.#relationKeys = new Map();
      for (const r of this.#graph.relations()) {
        addRelationKeys(this.#relationKeys, r.source.type, r.type, r.target.type);
      }
    }
    return this.#relationKeys.get(type) ?? NO_KEYS;
  }

  /**
   * Creates or merges the relation source -[type]-> target (M81); `site` is recorded as linking
   * both ends when the relation or one of its properties changes.
   */
  relation(
    source: Resource,
    type: string,
    target: Resource,
    properties?: Properties,
    site?: WriteSite,
  ): Relation {
    this.#calls?.push(
      CALL_RELATION,
      source.type,
      source.name,
      type,
      target.type,
      target.name,
      properties ? { ...properties } : null,
      site !== undefined,
    );
    const existing = this.#graph.getRelation(source, type, target);
    if (properties && this.#attempts) addField(this.#attempts, source.type, RELATION_PROPERTIES);
    if (!existing) {
      this.#created++;
      this.#wroteRelation(source, type, target);
      if (properties) this.#wrote(source.type, RELATION_PROPERTIES);
      if (site) this.#linked(source, target, site);
      return this.#graph.upsertRelation(source, type, target, properties);
    }
    if (properties) {
      for (const [k, v] of Object.entries(properties)) {
        if (jsonEquals(existing.properties[k], v)) continue;
        let start = this.#startRelProps.get(existing);
        if (!start) {
          start = new Map();
          this.#startRelProps.set(existing, start);
        }
        if (!start.has(k)) start.set(k, existing.properties[k]);
        this.#wroteRelation(source, type, target);
        this.#wrote(source.type, RELATION_PROPERTIES);
        this.#graph.setRelationProperty(existing, k, v);
        if (site) this.#linked(source, target, site);
      }
    }
    return existing;
  }

  #linked(source: Resource, target: Resource, site: WriteSite): void {
    this.#provenance?.note(source.id, site.file, "linked");
    this.#provenance?.note(target.id, site.file, "linked");
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** Pseudo field of a type: properties of relations starting at its resources. */
const RELATION_PROPERTIES = "@relation-properties";

function addField(fields: Map<string, Set<string>>, type: string, key: string): void {
  let set = fields.get(type);
  if (!set) {
    set = new Set();
    fields.set(type, set);
  }
  set.add(key);
}

function addRelationKeys(
  keys: Map<string, Set<string>>,
  sourceType: string,
  type: string,
  targetType: string,
): void {
  addField(keys, sourceType, type);
  addField(keys, sourceType, targetType);
  addField(keys, targetType, sourceType);
}

function show(v: JsonValue | undefined): string {
  const s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v ?? null);
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}
