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

  /** Notes a read of `field` on `type` (an unknown type: everything). */
  add(type: string | undefined, field: string): void {
    if (type === undefined) {
      this.all = true;
      return;
    }
    let set = this.fields.get(type);
    if (!set) {
      set = new Set();
      this.fields.set(type, set);
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
 * The values of `fields` of `origin` as one comparable string, or `undefined` when one of them
 * is a relation field of the origin (its value would be related resources, not a property).
 * `relationNames` holds every name a relation field can have in `graph` (relation types and
 * resource types); fields outside it need no look at the origin's relations.
 */
export function originFingerprint(
  graph: Graph,
  origin: Resource,
  fields: readonly string[],
  relationNames: ReadonlySet<string>,
): string | undefined {
  const props = origin.properties;
  let keys: Set<string> | undefined;
  let out = "";
  for (const field of fields) {
    if (relationNames.has(field)) {
      keys ??= relationKeys(graph, origin, props);
      if (keys.has(field)) return undefined;
    }
    out += (JSON.stringify(props[field]) ?? "~") + "\u0000";
  }
  return out;
}
