/**
 * Loading the declared schemas and binding them to the resource types a workspace creates
 * (reference SV3, SV11, SV13–SV18, SV24): per-asset overrides win over `[[schema]]` /
 * `[[implements]]` choices, which win over automatic binding; a type defined by several loaded
 * schemas and chosen by none is ambiguous and gets the merge of all of them.
 *
 * @module
 */
import { parseSchema, SchemaLoadError } from "./parse.ts";
import { expandDef, type LabelledDef, mergeDefs } from "./merge.ts";
import type { SchemaDeclaration, SchemaText } from "./sources.ts";
import type { Schema, ValidationIssue } from "./types.ts";

/** The schemas of a run, in load order. */
export interface LoadedSchemas {
  /** Every schema loaded, in load order (SV24). */
  schemas: Schema[];
  /** Schema of each location key. */
  byLocation: Map<string, Schema>;
  /** Whether `--schema` replaced every declaration (SV13). */
  override: boolean;
}

/**
 * Loads the schemas of `declarations` from `texts` (SV3: a file that does not load is an error
 * and is left out), or only `override` when given (SV13).
 *
 * @example
 * ```ts
 * import { loadSchemas } from "./bind.ts";
 * const issues: unknown[] = [];
 * const s = loadSchemas([], new Map(), (i) => issues.push(i), {
 *   origin: "x.schema.json", text: '{"schema_id":"x","version":"1","resources":{}}' });
 * console.log(s.schemas[0].id, s.override); // "x" true
 * ```
 */
export function loadSchemas(
  declarations: readonly SchemaDeclaration[],
  texts: ReadonlyMap<string, SchemaText>,
  report: (issue: ValidationIssue) => void,
  override?: { origin: string; text: string },
): LoadedSchemas {
  const out: LoadedSchemas = { schemas: [], byLocation: new Map(), override: !!override };
  const parse = (text: string, origin: string, module?: string) => {
    try {
      return parseSchema(text, origin);
    } catch (e) {
      if (!(e instanceof SchemaLoadError)) throw e;
      report({
        severity: "error",
        code: "schema_load_error",
        message: e.message,
        file: e.file,
        module,
      });
      return undefined;
    }
  };
  if (override) {
    const s = parse(override.text, override.origin);
    if (s) out.schemas.push(s);
    return out;
  }
  const failed = new Set<string>();
  for (const d of declarations) {
    if (d.ref.kind === "invalid") {
      report({
        severity: "error",
        code: "schema_load_error",
        message: `${d.file}: schema '${d.written}': ${d.ref.reason}`,
        file: d.file,
        module: d.module,
      });
      continue;
    }
    if (d.ref.kind !== "location") continue;
    const key = d.ref.key;
    if (out.byLocation.has(key) || failed.has(key)) continue;
    const text = texts.get(key);
    const origin = d.ref.relPath
      ? (d.ref.layer.isDataDir ? d.ref.relPath : `${d.ref.layer.id}/${d.ref.relPath}`)
      : d.written;
    if (!text || "error" in text) {
      failed.add(key);
      report({
        severity: "error",
        code: "schema_load_error",
        message: `${origin}: cannot be read (${
          text && "error" in text ? text.error : "not found"
        })`,
        file: origin,
        module: d.module,
      });
      continue;
    }
    const s = parse(text.text, origin, d.module);
    if (!s) failed.add(key);
    else {
      out.byLocation.set(key, s);
      out.schemas.push(s);
    }
  }
  return out;
}

/** Result of {@link bindTypes}: the effective definition of each bound type. */
export type Bindings = Map<string, LabelledDef>;

/**
 * Binds each type of `types` (the footprint, SV15) to its effective definition.
 *
 * @example
 * ```ts
 * import { bindTypes, loadSchemas } from "./bind.ts";
 * const loaded = loadSchemas([], new Map(), () => {}, { origin: "x", text:
 *   '{"schema_id":"x","version":"1","resources":{"host":{"required":["arch"]}}}' });
 * const b = bindTypes(["host", "disk"], loaded, [], () => {});
 * console.log([...b.keys()]); // ["host"]
 * ```
 */
export function bindTypes(
  types: Iterable<string>,
  loaded: LoadedSchemas,
  declarations: readonly SchemaDeclaration[],
  report: (issue: ValidationIssue) => void,
): Bindings {
  const pool = loaded.schemas;
  const find = (d: SchemaDeclaration): Schema | undefined => {
    if (d.ref.kind === "location") {
      const s = loaded.byLocation.get(d.ref.key);
      return s && (!d.version || s.version === d.version) ? s : undefined;
    }
    if (d.ref.kind !== "id") return undefined;
    const id = d.ref.id;
    const hits = pool.filter((s) => s.id === id && (!d.version || s.version === d.version));
    return hits[hits.length - 1];
  };
  // Module choices (SV10 2–4): per-asset overrides first, then [[schema]]/[[implements]].
  const assetChoice = new Map<string, Schema[]>();
  const tableChoice = new Map<string, Schema[]>();
  const choose = (map: Map<string, Schema[]>, type: string, s: Schema) => {
    const list = map.get(type) ?? [];
    if (!list.includes(s)) list.push(s);
    map.set(type, list);
  };
  if (!loaded.override) {
    for (const d of declarations) {
      if (d.kind !== "implements" && d.kind !== "schema" && d.kind !== "asset") continue;
      const s = find(d);
      if (!s) {
        const loadedThere = d.ref.kind === "location" && loaded.byLocation.has(d.ref.key);
        if (d.ref.kind === "id" || d.kind === "implements" || loadedThere) {
          report({
            severity: "error",
            code: "schema_not_found",
            message: `${d.file}: ${d.kind === "asset" ? `asset '${d.asset}'` : `[[${d.kind}]]`} ` +
              `names schema '${d.written}'${
                d.version ? ` version '${d.version}'` : ""
              }, which is not loaded`,
            file: d.file,
            module: d.module,
            schema_id: d.ref.kind === "id" ? d.ref.id : undefined,
          });
        }
        continue;
      }
      const listed = d.kind === "asset" ? [d.assetType!] : d.resources ?? [];
      for (const type of listed) {
        if (!s.resources.has(type)) {
          report({
            severity: "warning",
            code: "schema_unknown_type",
            message: `${d.file}: schema '${s.id}' does not define resource type '${type}'`,
            file: d.file,
            module: d.module,
            schema_id: s.id,
            resource_type: type,
          });
          continue;
        }
        choose(d.kind === "asset" ? assetChoice : tableChoice, type, s);
      }
    }
  }
  const out: Bindings = new Map();
  for (const type of [...new Set(types)].sort()) {
    const chosen = assetChoice.get(type) ?? tableChoice.get(type);
    const definers = chosen ?? pool.filter((s) => s.resources.has(type));
    if (definers.length === 0) {
      if (pool.length > 0) {
        report({
          severity: "info",
          code: "unbound_type",
          message: `resource type '${type}' is defined by no loaded schema`,
          resource_type: type,
        });
      }
      continue;
    }
    const conflicts: ValidationIssue[] = [];
    let acc: LabelledDef | undefined;
    for (const s of definers) {
      const d = expandDef(s, type, pool, report);
      if (d) acc = acc ? mergeDefs(acc, d, type, (i) => conflicts.push(i)) : d;
    }
    for (const c of conflicts) report(c);
    if (!chosen && definers.length > 1 && conflicts.length > 0) {
      report({
        severity: "warning",
        code: "ambiguous_binding",
        message: `resource type '${type}' is defined by schemas ${
          definers.map((s) => `'${s.id}'`).join(", ")
        } and no module chooses one; their merge conflicts`,
        resource_type: type,
      });
    }
    if (acc) out.set(type, acc);
  }
  return out;
}
