/**
 * `resource_aliases` of a dependency (reference MP17): while that dependency's rule files, schema
 * files and manifest declarations (assets, `[[implements]]`/`[[schema]]` resources,
 * requirements) are loaded, every resource-type reference equal to an aliased type is read as
 * its new type. The rewrite works on the parsed TOML: values of the type-naming keys
 * (`origin_resource`, `resource_type`, `with`, `to`, `as`, `origin_resource_types`, `type`,
 * `types`, `target_types`) that equal an old type exactly; the file is written back as TOML.
 * Templates additionally see `RESOURCE_ALIASES` (lib/pipeline/rules/scope.ts).
 *
 * @module
 */
import { parse, stringify } from "smol-toml";
import type { JsonValue } from "../graph/graph.ts";
import { mergeRequirement } from "./requirement_merge.ts";

type Table = Record<string, JsonValue>;

/** Keys whose string (or string-array) values name resource types. */
const TYPE_KEYS = new Set([
  "origin_resource",
  "resource_type",
  "with",
  "to",
  "as",
  "origin_resource_types",
  "type",
  "types",
  "target_types",
]);

/** Folders whose TOML files are rewritten. */
const FOLDERS = ["models/", "compliance/", "output/", "actions/"];

function rewrite(value: unknown, aliases: Readonly<Record<string, string>>, typed: boolean): {
  value: unknown;
  changed: boolean;
} {
  if (typed && typeof value === "string" && Object.hasOwn(aliases, value)) {
    return { value: aliases[value], changed: true };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = rewrite(v, aliases, typed);
      changed ||= r.changed;
      return r.value;
    });
    return { value: out, changed };
  }
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = rewrite(v, aliases, TYPE_KEYS.has(k));
      changed ||= r.changed;
      out[k] = r.value;
    }
    return { value: out, changed };
  }
  return { value, changed: false };
}

/**
 * The TOML `text` with aliased type references replaced; `text` itself when nothing changes or
 * it does not parse (the build reports the syntax error on the original).
 *
 * @example
 * ```ts
 * import { aliasTomlText } from "./aliases.ts";
 * aliasTomlText('origin_resource = "zone"\n', { zone: "dns_zone" }); // 'origin_resource = "dns_zone"\n'
 * ```
 */
export function aliasTomlText(text: string, aliases: Readonly<Record<string, string>>): string {
  if (Object.keys(aliases).length === 0) return text;
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch {
    return text;
  }
  const r = rewrite(doc, aliases, false);
  return r.changed ? stringify(r.value as Record<string, unknown>) + "\n" : text;
}

/**
 * The schema JSON `text` (schemas-and-validation.md SV1) with aliased types renamed: the keys of
 * `resources` (unless the new name is defined as well), `implements` entries and relation
 * `target`s. `text` itself when nothing changes or it does not parse (validation reports it).
 *
 * @example
 * ```ts
 * import { aliasSchemaText } from "./aliases.ts";
 * const s = '{"schema_id":"s","version":"1","resources":{"zone":{}}}';
 * JSON.parse(aliasSchemaText(s, { zone: "dns_zone" })).resources; // { dns_zone: {} }
 * ```
 */
export function aliasSchemaText(text: string, aliases: Readonly<Record<string, string>>): string {
  if (Object.keys(aliases).length === 0) return text;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return text;
  }
  const resources = isObject(doc) ? doc.resources : undefined;
  if (!isObject(resources)) return text;
  const alias = (t: unknown) => typeof t === "string" && Object.hasOwn(aliases, t) ? aliases[t] : t;
  let changed = false;
  const renamed: Record<string, unknown> = {};
  for (const [type, def] of Object.entries(resources)) {
    const to = alias(type) as string;
    const name = to !== type && !Object.hasOwn(resources, to) ? to : type;
    changed ||= name !== type;
    if (isObject(def)) {
      if (Array.isArray(def.implements)) {
        const list = def.implements.map(alias);
        changed ||= list.some((t, i) => t !== (def.implements as unknown[])[i]);
        def.implements = list;
      }
      for (const rel of isObject(def.relations) ? Object.values(def.relations) : []) {
        if (isObject(rel) && alias(rel.target) !== rel.target) {
          rel.target = alias(rel.target);
          changed = true;
        }
      }
    }
    renamed[name] = def;
  }
  if (!changed) return text;
  (doc as Record<string, unknown>).resources = renamed;
  return JSON.stringify(doc, null, 2) + "\n";
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Applies `aliases` to the rule files (models, compliance, outputs, actions) and schema files
 * (`*.schema.json`) of a layer's `files`, and to its manifest: the `resource_type` of asset
 * declarations, the `resources` of `[[implements]]`/`[[schema]]`, the types of
 * `[requirements.<type>]` and `[[requirement]]` (MP17, MP40–MP42).
 *
 * @example
 * ```ts
 * import { aliasLayerFiles } from "./aliases.ts";
 * const r = aliasLayerFiles(new Map([["models/a.toml", 'origin_resource = "zone"\n']]), undefined,
 *   { zone: "dns_zone" });
 * console.log(r.files.get("models/a.toml")); // 'origin_resource = "dns_zone"\n'
 * ```
 */
export function aliasLayerFiles(
  files: ReadonlyMap<string, string>,
  manifestText: string | undefined,
  aliases: Readonly<Record<string, string>>,
): { files: Map<string, string>; manifestText?: string } {
  const out = new Map<string, string>();
  for (const [path, text] of files) {
    const rule = path.endsWith(".toml") && FOLDERS.some((f) => path.startsWith(f));
    out.set(
      path,
      rule
        ? aliasTomlText(text, aliases)
        : path.endsWith(".schema.json")
        ? aliasSchemaText(text, aliases)
        : text,
    );
  }
  let manifest = manifestText;
  if (manifestText !== undefined) {
    try {
      const doc = parse(manifestText) as Record<string, unknown>;
      if (aliasManifest(doc, aliases)) manifest = stringify(doc) + "\n";
    } catch { /* the build reports the syntax error */ }
  }
  return { files: out, manifestText: manifest };
}

/** Rewrites the type references of a parsed manifest in place; whether any changed. */
function aliasManifest(
  doc: Record<string, unknown>,
  aliases: Readonly<Record<string, string>>,
): boolean {
  let changed = false;
  const alias = (t: unknown) => {
    if (typeof t !== "string" || !Object.hasOwn(aliases, t)) return t;
    changed = true;
    return aliases[t];
  };
  for (const [file, spec] of Object.entries(isObject(doc.assets) ? doc.assets : {})) {
    if (!isObject(spec)) continue;
    // Without `resource_type` the type is the file stem (A3).
    const t = spec.resource_type ?? file.replace(/\.csv$/, "");
    const to = alias(t);
    if (to !== t) spec.resource_type = to;
  }
  for (const key of ["implements", "schema"]) {
    for (const entry of Array.isArray(doc[key]) ? doc[key] as unknown[] : []) {
      if (isObject(entry) && Array.isArray(entry.resources)) {
        entry.resources = entry.resources.map(alias);
      }
    }
  }
  if (isObject(doc.requirements)) {
    const renamed: Record<string, unknown> = {};
    for (const [type, spec] of Object.entries(doc.requirements)) {
      const to = alias(type) as string;
      // Two requirement tables meeting on one name are merged like two manifests' (union).
      renamed[to] = Object.hasOwn(renamed, to) && isObject(renamed[to]) && isObject(spec)
        ? mergeRequirement(renamed[to] as Table, spec as Table)
        : spec;
    }
    doc.requirements = renamed;
  }
  for (const entry of Array.isArray(doc.requirement) ? doc.requirement as unknown[] : []) {
    if (isObject(entry)) entry.type = alias(entry.type);
  }
  return changed;
}
