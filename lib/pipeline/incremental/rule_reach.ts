/**
 * Which asset types the rules of a workspace can reach (issue 15, incremental rebuilds of
 * workspaces with rule files). A type no rule can reach is one whose properties no model,
 * compliance or output rule can read or write: a change to those properties changes nothing
 * the rule phases do, so the next build is the previous one with the new properties.
 *
 * Rules reach resources only through types they name (`origin_resource`, `with`, `to`,
 * `resource_type`, map and link targets, relation fields of a view) or through relations of
 * resources they already reached. So a type is unreachable when all of this holds, and reachable
 * (the build is a full one) when anything is in doubt:
 *
 * - its name occurs nowhere in the text of any file of any layer's `models/`, `compliance/` or
 *   `output/` folder (templates and Jsonnet included), nor in any key or string of a rule file
 *   once its TOML escapes are decoded;
 * - no rule file holds a template (`{{`, `{%`) in a value of a key that can name a type (so no
 *   type is made from data or parameters), and every rule file parses as TOML;
 * - no resource of the type has a relation (in the previous graph, which the change keeps: the
 *   changes accepted here keep keys and relation columns);
 * - the manifest states no `[requirements.<type>]` for it (checked on the finished graph, MP41).
 *
 * A type the rules do reach may still change in fields they cannot see ({@link fieldReachOf}):
 * fields named nowhere in the rule files, when every read of a resource names its field. And no
 * rule may call `now()`, `get_random()` or `vault()`: a full build renders those afresh, so
 * keeping the previous results would not be what a full build gives.
 *
 * @module
 */
import { parse as parseToml } from "smol-toml";
import type { Graph } from "../../graph/graph.ts";
import { filesIn, RULE_FOLDERS, type SourceSet } from "../../workspace/sources.ts";
import type { ModuleManifest } from "../../workspace/manifest.ts";

/**
 * Keys whose values may name a type (or a path through types): a template in any of them could
 * make a type's name from data. Matched broadly on purpose: a key wrongly taken for one only
 * costs a full build.
 */
const TYPE_KEY = /type|resource|origin|target|^with$|^to$|^from$|property|derived|join/i;

const TEMPLATE = /\{\{|\{%/;

/**
 * Template functions whose value a full build makes afresh (the build's clock, fresh entropy,
 * the vault): a rule calling one must be run again, whatever changed.
 */
const BUILD_DEPENDENT = /\b(?:now|get_random|vault)\s*\(/;

/** Keys of tables whose keys are property names (their values may be templates freely). */
const PROPERTY_TABLE = /properties$/;

/** The roots through which templates and Jsonnet programs see resources. */
const ROOT_USE =
  /\b(origin_resource|target_resource)\b(?:\.([A-Za-z_][A-Za-z0-9_]*))?\s*([.\[(]?)/g;

/**
 * Properties the rule phases write or read under fixed names, whatever the rule files say
 * (names, compliance entries and evidence, output artifacts, compatibility keys of views).
 */
const IMPLICIT_FIELDS = new Set([
  "name",
  "original_name",
  "controls",
  "evidence_summary",
  "description",
  "filename",
  "mimetype",
  "content",
  "owner",
  "relation",
  "node",
  "properties",
  "type",
  "id",
]);

/** The rule texts of a source set, scanned once and asked about any number of types. */
export class RuleReach {
  /** Why every type counts as reachable, when the rules cannot be analysed. */
  readonly doubt: string | undefined;
  /**
   * Why rules may read whole resources (every field, named or not): a template or Jsonnet
   * program uses `origin_resource`/`target_resource` other than as `root.field`, a compliance
   * map target (it reads every property of its origins). `undefined` when every read names its
   * field.
   */
  readonly wholeUse: string | undefined;
  /** Fields read as `origin_resource.<field>` / `target_resource.<field>`. */
  readonly accessed: ReadonlySet<string>;
  /** Types output rules write (`resource_type` of `[[output]]`), whose keys come from results. */
  readonly outputTypes: ReadonlySet<string>;
  readonly #texts: string[] = [];
  readonly #accessed = new Set<string>();
  readonly #outputTypes = new Set<string>();
  #wholeUse: string | undefined;

  /**
   * Scans the rule files of `sources`.
   *
   * @example
   * ```ts
   * import { RuleReach } from "./rule_reach.ts";
   * import type { SourceSet } from "../../workspace/sources.ts";
   * const files = new Map([["models/a.toml", 'origin_resource = "host"\n']]);
   * const sources = { modules: [], data: { id: "data", isDataDir: true, location: "memory:", files } } as SourceSet;
   * const reach = new RuleReach(sources);
   * console.log(reach.names("host"), reach.names("zone")); // true false
   * ```
   */
  constructor(sources: SourceSet) {
    let doubt: string | undefined;
    for (const folder of RULE_FOLDERS) {
      for (const file of filesIn(sources, folder)) {
        this.#texts.push(file.text);
        if (doubt === undefined && BUILD_DEPENDENT.test(file.text)) {
          doubt =
            `${file.displayPath} calls now(), get_random() or vault(): every build renders it afresh`;
        }
        if (!file.relPath.endsWith(".toml")) {
          // Templates and Jsonnet read beside the rule files: every use of a root counts.
          this.#scanUses(file.text, file.displayPath);
          continue;
        }
        if (doubt !== undefined) continue;
        let doc: unknown;
        try {
          doc = parseToml(file.text);
        } catch {
          doubt = `${file.displayPath} does not parse`;
          continue;
        }
        const found = this.#walk(doc, undefined, file.text, file.displayPath);
        if (found) doubt = `${file.displayPath}: ${found}`;
        if (folder === "output") this.#collectOutputTypes(doc);
      }
    }
    this.doubt = doubt;
    this.wholeUse = this.#wholeUse;
    this.accessed = this.#accessed;
    this.outputTypes = this.#outputTypes;
  }

  /** Records how `text` uses the resource roots (`what` names it in the reasons). */
  #scanUses(text: string, what: string): void {
    if (!text.includes("_resource")) return;
    for (const m of text.matchAll(ROOT_USE)) {
      if (m[2] === undefined || m[3] !== "") {
        this.#wholeUse ??= `${what} uses ${m[1]} as a whole or follows a path from it`;
      } else this.#accessed.add(m[2]);
    }
  }

  #collectOutputTypes(doc: unknown): void {
    const rules = (doc as { output?: unknown }).output;
    for (const rule of Array.isArray(rules) ? rules : []) {
      const type = (rule as { resource_type?: unknown })?.resource_type;
      if (typeof type === "string") this.#outputTypes.add(type);
    }
  }

  /**
   * Whether this analysis is the one of `sources`: their rule files hold the same texts, in the
   * same order (compared by identity first: an unchanged file keeps its string).
   */
  analyses(sources: SourceSet): boolean {
    let i = 0;
    for (const folder of RULE_FOLDERS) {
      for (const file of filesIn(sources, folder)) {
        if (i >= this.#texts.length || this.#texts[i++] !== file.text) return false;
      }
    }
    return i === this.#texts.length;
  }

  /** Whether any rule text names `type` (raw text, or a decoded TOML key or string). */
  names(type: string): boolean {
    return this.#texts.some((t) => t.includes(type)) ||
      this.#decoded.some((t) => t.includes(type));
  }

  /** Decoded TOML keys and strings that differ from any raw text (escapes). */
  readonly #decoded: string[] = [];

  /**
   * Collects the decoded strings and keys of a TOML document that its raw `text` does not hold
   * as they are (escapes); answers why a value is in doubt (a templated type key). `inValues`:
   * the value lies in a table of properties (`properties`, `relation_properties`, …), whose keys
   * are property names, never types.
   */
  #walk(
    value: unknown,
    key: string | undefined,
    text: string,
    what: string,
    inValues = false,
  ): string | undefined {
    if (typeof value === "string") {
      if (!text.includes(value)) this.#decoded.push(value);
      this.#scanUses(value, what);
      if (!inValues && key !== undefined && TYPE_KEY.test(key) && TEMPLATE.test(value)) {
        return `'${key}' is a template (it may name any type)`;
      }
      return undefined;
    }
    if (Array.isArray(value)) {
      for (const v of value) {
        const found = this.#walk(v, key, text, what, inValues);
        if (found) return found;
      }
      return undefined;
    }
    if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (!text.includes(k)) this.#decoded.push(k);
        if (TEMPLATE.test(k)) return `the key '${k}' is a template (it may name any field)`;
        if (k === "map") {
          this.#wholeUse ??= `${what}: '${k}' reads whole resources`;
        }
        const found = this.#walk(v, k, text, what, inValues || PROPERTY_TABLE.test(k));
        if (found) return found;
      }
    }
    return undefined;
  }
}

/**
 * Why the rules may reach `type` in `graph` (see the module documentation), or `undefined` when
 * they cannot.
 *
 * @example
 * ```ts ignore
 * const why = ruleReachOf(new RuleReach(sources), prev.graph, prev.manifest, "zone");
 * if (why === undefined) console.log("rules never see zone");
 * ```
 */
export function ruleReachOf(
  reach: RuleReach,
  graph: Graph,
  manifest: ModuleManifest,
  type: string,
): string | undefined {
  if (reach.doubt !== undefined) return reach.doubt;
  if (reach.names(type)) return `a rule file names '${type}'`;
  if (manifest.requirements.has(type)) return `requirements are declared for '${type}'`;
  for (const r of graph.resourcesOf(type)) {
    if (graph.outgoing(r).length > 0 || graph.incoming(r).length > 0) {
      return `'${type}' has relations`;
    }
  }
  return undefined;
}

/**
 * Why the rules may read or write one of `fields` of resources of `type` (a type they do reach),
 * or `undefined` when no rule can: no rule reads whole resources (see
 * {@link RuleReach.wholeUse}) or follows relation fields, no output writes the type, the manifest
 * states no requirements for it, and no rule file names any of the fields, which are none of the
 * fields the phases use under fixed names. Then a change of those fields changes nothing the
 * rule phases do, and the fields' values are the asset values.
 *
 * @example
 * ```ts ignore
 * const why = fieldReachOf(reach, graph, manifest, "host", ["description"]);
 * ```
 */
export function fieldReachOf(
  reach: RuleReach,
  graph: Graph,
  manifest: ModuleManifest,
  type: string,
  fields: Iterable<string>,
): string | undefined {
  if (reach.doubt !== undefined) return reach.doubt;
  if (manifest.requirements.has(type)) return `requirements are declared for '${type}'`;
  if (reach.wholeUse !== undefined) return reach.wholeUse;
  if (reach.outputTypes.has(type)) return `an output writes '${type}' resources`;
  if (reach.accessed.size > 0) {
    // A relation field (a label or a type name) gives whole related resources to the template.
    const relationKeys = new Set([...graph.types(), ...graph.relationLabels()]);
    for (const k of reach.accessed) {
      if (relationKeys.has(k) || k === "node" || k === "properties") {
        return `a rule follows the relation field '${k}'`;
      }
    }
  }
  for (const field of fields) {
    if (IMPLICIT_FIELDS.has(field)) return `the rule phases use '${field}' themselves`;
    if (reach.names(field)) return `a rule file names '${field}'`;
  }
  return undefined;
}
