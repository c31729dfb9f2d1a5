/**
 * The static read analysis shared by model rules (`models/reads.ts`: skipping unchanged blocks in
 * later passes) and outputs (`outputs/template_reads.ts`: keeping rendered templates from one
 * build to the next): which fields of which types a rule's templates and conditions read.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../../graph/graph.ts";
import { relationKeys } from "./view.ts";
import type { Condition } from "./conditions.ts";
import type { CompiledHeader } from "./header.ts";

const IMPURE = /\b(?:counter|get_random)\s*\(/;

/**
 * Collects the (type, field) pairs that rule templates and conditions read, statically and
 * conservatively: `all` is set by anything it cannot pin down (a whole-object use of a root, a
 * deeper path, a root the rule does not have); `impure` by a call whose result depends on
 * evaluation order or chance (`counter()`, `get_random()`).
 *
 * @example
 * ```ts
 * import { ReadCollector } from "./read_collector.ts";
 * const c = new ReadCollector();
 * c.template("{{ origin_resource.env | upper }}-{{ origin_resource.tier }}", { origin_resource: "host" });
 * console.log([...c.fields.get("host")!], c.all); // ["env", "tier"] false
 * c.template("{{ origin_resource | json_encode }}", { origin_resource: "host" });
 * console.log(c.all); // true
 * ```
 */
export class ReadCollector {
  /** Set when a read could not be pinned down: everything may be read. */
  all = false;
  /** Set when a template calls `counter()` or `get_random()`. */
  impure = false;
  /** Fields read, by type (`__value` suffixes stripped). */
  readonly fields = new Map<string, Set<string>>();
  /**
   * The fields of {@link ReadCollector.fields} read through a template, by type: there a field
   * named like one of the resource's relation fields reads the relation (reference T14); the
   * other reads (joins, condition and copy paths of one segment) read the property.
   */
  readonly views = new Map<string, Set<string>>();

  /** Notes a read of `field` on `type` (an unknown type: everything). */
  add(type: string | undefined, field: string): void {
    this.#note(this.fields, type, field);
  }

  #note(into: Map<string, Set<string>>, type: string | undefined, field: string): void {
    if (type === undefined) {
      this.all = true;
      return;
    }
    let set = into.get(type);
    if (!set) {
      set = new Set();
      into.set(type, set);
    }
    set.add(field.endsWith("__value") ? field.slice(0, -"__value".length) : field);
  }

  /** Scans a template for `origin_resource` / `target_resource` uses. */
  template(source: string, roots: Readonly<Record<string, string | undefined>>): void {
    if (!source.includes("{")) return;
    if (IMPURE.test(source)) this.impure = true;
    for (const root of ["origin_resource", "target_resource"]) {
      if (!source.includes(root)) continue;
      const re = new RegExp(`\\b${root}\\b(?:\\.([A-Za-z_][A-Za-z0-9_]*))?\\s*([.\\[(]?)`, "g");
      for (const m of source.matchAll(re)) {
        const type = roots[root];
        if (m[1] === undefined || m[2] !== "" || type === undefined) {
          // Whole-object use, a deeper path, or a root this block does not have.
          this.all = true;
          return;
        }
        this.add(type, m[1]);
        this.#note(this.views, type, m[1]);
      }
    }
  }

  /** Scans every string inside a TOML value. */
  deep(value: JsonValue | undefined, roots: Readonly<Record<string, string | undefined>>): void {
    if (typeof value === "string") this.template(value, roots);
    else if (Array.isArray(value)) { for (const v of value) this.deep(v, roots); }
    else if (value !== null && typeof value === "object") {
      for (const k in value) this.deep(value[k], roots);
    }
  }

  /** A property path read on `type`: one segment is a field, more follow relations. */
  path(type: string | undefined, path: string): void {
    if (path.includes(".")) this.all = true;
    else this.add(type, path);
  }

  /** Scans a chunk's header entries (dynamic ones are rendered for every origin). */
  header(
    header: readonly CompiledHeader[],
    roots: Readonly<Record<string, string | undefined>>,
  ): void {
    for (const h of header) {
      if (h.form.kind === "template" || h.form.kind === "block") {
        this.template(h.form.source, roots);
      } else if (h.form.kind === "json") this.template(h.form.ref, roots);
    }
  }

  /** Notes the reads of a condition whose subject has type `subject`. */
  condition(
    cond: Condition | undefined,
    subject: string | undefined,
    roots: Readonly<Record<string, string | undefined>>,
  ): void {
    if (!cond) return;
    if (cond.kind !== "test") {
      for (const c of cond.items) this.condition(c, subject, roots);
      return;
    }
    if (cond.property !== undefined) this.path(subject, cond.property);
    for (const o of cond.ops) if ("operand" in o) this.deep(o.operand, roots);
    if (cond.expression !== undefined) {
      // Bare expressions are wrapped in `{{ }}` when evaluated.
      this.template(`{{ ${cond.expression} }}`, roots);
    }
  }
}

/**
 * Calls and tags that make a rendered result depend on more than what {@link ReadCollector}
 * sees, from one build to the next: the build's clock and secrets (`now()`, `vault()`), order
 * and chance (`counter()`, `get_random()`), and other template files (`include`, `import`,
 * `extends`).
 */
export const UNTRACKED_ACROSS_BUILDS =
  /\b(?:now|vault|counter|get_random)\s*\(|\{%-?\s*(?:include|import|extends)\b/;

/**
 * True when `test` holds for a string anywhere inside `value` (objects and arrays walked).
 *
 * @example
 * ```ts
 * import { someString } from "./read_collector.ts";
 * console.log(someString({ a: ["x", { b: "now()" }] }, (s) => s.includes("now"))); // true
 * ```
 */
export function someString(value: unknown, test: (s: string) => boolean): boolean {
  if (typeof value === "string") return test(value);
  if (Array.isArray(value)) return value.some((v) => someString(v, test));
  if (value !== null && typeof value === "object") {
    return Object.values(value).some((v) => someString(v, test));
  }
  return false;
}

/**
 * Every name a relation field can have in `graph`: relation types and resource types (the second
 * argument of {@link originValues}).
 */
export function relationFieldNames(graph: Graph): Set<string> {
  return new Set([...graph.relationLabels(), ...graph.types()]);
}

/**
 * The values of `fields` of `origin` (references to them, no copies), or `undefined` when one of
 * them is a relation field of the origin (its value would be related resources, not a property).
 * `relationNames` holds every name a relation field can have in `graph` (relation types and
 * resource types); fields outside it need no look at the origin's relations. Compare two with
 * {@link sameValues}.
 */
export function originValues(
  graph: Graph,
  origin: Resource,
  fields: readonly string[],
  relationNames: ReadonlySet<string>,
): (JsonValue | undefined)[] | undefined {
  const props = origin.properties;
  let keys: Set<string> | undefined;
  const out: (JsonValue | undefined)[] = new Array(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (relationNames.has(field)) {
      keys ??= relationKeys(graph, origin, props);
      if (keys.has(field)) return undefined;
    }
    out[i] = props[field];
  }
  return out;
}

/**
 * True when two lists of JSON values (and `undefined`s) are equal, item by item.
 *
 * @example
 * ```ts
 * import { sameValues } from "./read_collector.ts";
 * console.log(sameValues(["a", { b: [1] }, undefined], ["a", { b: [1] }, undefined])); // true
 * console.log(sameValues(["a"], ["b"])); // false
 * ```
 */
export function sameValues(
  a: readonly (JsonValue | undefined)[],
  b: readonly (JsonValue | undefined)[],
): boolean {
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

/**
 * Values by name kept from one build to the next, for callers that visit names in ascending
 * order (`resourcesOfSorted`): the previous build's entries are walked alongside, so a look-up
 * costs a string comparison, not a hash of the name, and the names the caller skipped are known.
 *
 * @example
 * ```ts
 * import { SortedMemo } from "./read_collector.ts";
 * const first = new SortedMemo<number>(undefined);
 * first.keep("a", 1);
 * first.keep("b", 2);
 * first.keep("c", 3);
 * const next = new SortedMemo(first);
 * const gone: number[] = [];
 * console.log(next.previous("b", (v) => gone.push(v)), gone); // 2 [1]
 * ```
 */
export class SortedMemo<T> {
  /** Names kept in this build, ascending. */
  readonly names: string[] = [];
  /** Their values. */
  readonly values: T[] = [];
  #previous: SortedMemo<T> | undefined;
  #at = 0;

  /** Starts a build's memo over the previous build's (`undefined`: none). */
  constructor(previous: SortedMemo<T> | undefined) {
    this.#previous = previous;
  }

  /**
   * The previous build's value for `name`; `skipped` gets the values of the names before it
   * that were not asked for.
   */
  previous(name: string, skipped?: (value: T) => void): T | undefined {
    const p = this.#previous;
    if (p === undefined) return undefined;
    const names = p.names;
    while (this.#at < names.length) {
      const n = names[this.#at];
      if (n === name) return p.values[this.#at++];
      if (n > name) return undefined;
      const v = p.values[this.#at++];
      skipped?.(v);
    }
    return undefined;
  }

  /** Passes the values of the previous build's names not reached yet to `skipped`. */
  rest(skipped: (value: T) => void): void {
    const p = this.#previous;
    if (p === undefined) return;
    while (this.#at < p.names.length) skipped(p.values[this.#at++]);
  }

  /** Keeps `value` for `name` (after every name kept before it). */
  keep(name: string, value: T): void {
    this.names.push(name);
    this.values.push(value);
  }
}
