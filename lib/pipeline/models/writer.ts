/**
 * Graph mutations of the model phase with change tracking (for the fixpoint loop) and the merge
 * warnings of reference M80–M81.
 *
 * @module
 */
import type { Graph, JsonValue, Properties, Relation, Resource } from "../../graph/graph.ts";
import type { IssueCollector } from "../issues.ts";

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
}

/** Deep equality of JSON values. */
export function jsonEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== "object" || typeof b !== "object") return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Applies model-phase writes, counting effective changes. Overwriting a property with a
 * different value logs a warning (M80) unless the previous value came from the same rule and
 * origin (a re-run in a later pass); each conflicting (resource, property) warns once.
 */
export class GraphWriter {
  #created = 0;
  readonly #passStart = new Map<
    string,
    { get: () => JsonValue | undefined; start: JsonValue | undefined }
  >();
  readonly #graph: Graph;
  readonly #issues: IssueCollector;
  readonly #owners = new Map<number, Map<string, string>>();
  readonly #conflicts = new Set<string>();

  /**
   * @param graph graph to mutate
   * @param issues where merge warnings go
   */
  constructor(graph: Graph, issues: IssueCollector) {
    this.#graph = graph;
    this.#issues = issues;
  }

  /** Starts a pass: forgets the values seen at the start of the previous pass. */
  resetChanges(): void {
    this.#created = 0;
    this.#passStart.clear();
  }

  /**
   * Effective changes of the current pass: resources and relations created, plus properties
   * whose value now differs from their value when the pass started (a value written twice in a
   * pass and ending where it began is no change, so conflicting rules still converge).
   */
  get changes(): number {
    let n = this.#created;
    for (const { get, start } of this.#passStart.values()) if (!jsonEquals(get(), start)) n++;
    return n;
  }

  #remember(id: string, get: () => JsonValue | undefined): void {
    if (!this.#passStart.has(id)) this.#passStart.set(id, { get, start: get() });
  }

  /** Creates or returns the resource (type, name). */
  resource(type: string, name: string): Resource {
    const existing = this.#graph.getResource(type, name);
    if (existing) return existing;
    this.#created++;
    return this.#graph.upsertResource(type, name);
  }

  /** Sets a property with M80 semantics. */
  set(resource: Resource, key: string, value: JsonValue, site: WriteSite): void {
    if (key === "name") return;
    const old = resource.properties[key];
    const owner = `${site.file}\u0000${site.rule}\u0000${site.origin}`;
    let owners = this.#owners.get(resource.id);
    if (!owners) {
      owners = new Map();
      this.#owners.set(resource.id, owners);
    }
    const previous = owners.get(key);
    owners.set(key, owner);
    if (jsonEquals(old, value)) return;
    this.#remember(`p\u0000${resource.id}\u0000${key}`, () => resource.properties[key]);
    if (old !== undefined && previous !== owner) {
      const id = `${resource.id}\u0000${key}`;
      if (!this.#conflicts.has(id)) {
        this.#conflicts.add(id);
        this.#issues.warn(
          "model_property_overwritten",
          `${resource.type} '${resource.name}': property '${key}' overwritten: ${show(old)} -> ${
            show(value)
          }`,
          { file: site.file, line: site.line, rule: site.rule, phase: "models" },
        );
      }
    }
    this.#graph.setProperty(resource, key, value);
  }

  /** Creates or merges the relation source -[type]-> target (M81). */
  relation(source: Resource, type: string, target: Resource, properties?: Properties): Relation {
    const existing = this.#graph.getRelation(source, type, target);
    if (!existing) {
      this.#created++;
      return this.#graph.upsertRelation(source, type, target, properties);
    }
    if (properties) {
      for (const [k, v] of Object.entries(properties)) {
        if (!jsonEquals(existing.properties[k], v)) {
          this.#remember(`r\u0000${existing.id}\u0000${k}`, () => existing.properties[k]);
          this.#graph.setRelationProperty(existing, k, v);
        }
      }
    }
    return existing;
  }
}

function show(v: JsonValue | undefined): string {
  const s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v ?? null);
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}
