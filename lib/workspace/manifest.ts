/**
 * `module.toml` manifests: the parts the build needs (module identity, parameters, asset and input
 * declarations, requirements), merged across layers.
 *
 * @module
 */
import { parse as parseToml, TomlError } from "smol-toml";
import type { JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import { checkTomlDepth } from "../formats/toml_depth.ts";
import type { Layer } from "./sources.ts";
import { DeclarationTracker } from "./composition.ts";
import { manifestKeyWarnings, type ManifestWarning } from "./manifest_keys.ts";
import { mergeRequirement } from "./requirement_merge.ts";

export type { ManifestWarning } from "./manifest_keys.ts";

/** A declared column of an asset file (reference MP30–MP31). */
export interface ColumnDeclaration {
  /** `string` (default), `integer`, `number`, `boolean`, `array_of_string`, `array_of_integer`. */
  type: string;
  /** Whether the column must be present and non-empty. */
  required: boolean;
  /** Allowed values, when restricted. */
  allowedValues?: JsonValue[];
  /** Documentation. */
  description?: string;
}

/** An `[assets."<file>.csv"]` declaration. */
export interface AssetDeclaration {
  /** File name as declared, e.g. `a.csv`. */
  file: string;
  /** Resource type of the rows (default: file stem). */
  resourceType?: string;
  /** Tera template computing the primary key from the row. */
  nameTemplate?: string;
  /** Starter CSV text written when the file does not exist. */
  bootstrap?: string;
  /** Row filter (models.md condition syntax), raw. */
  matchOn?: JsonValue;
  /** Declared columns in declaration order. */
  columns: Map<string, ColumnDeclaration>;
  /** Id of the declaring layer. */
  layer: string;
}

/** A `[params.<name>]` declaration. */
export interface ParamDeclaration {
  /** Parameter name. */
  name: string;
  /** Documentation. */
  description?: string;
  /** Default value. */
  default?: JsonValue;
  /** Whether a value is required. */
  required: boolean;
  /** Allowed values, when restricted. */
  allowedValues?: JsonValue[];
  /** Id of the declaring layer. */
  layer: string;
}

/** The merged view of every layer's manifest. */
export interface ModuleManifest {
  /** Identity of each layer that has a manifest. */
  modules: { layer: string; name: string; version: string; description?: string }[];
  /** Parameter declarations by name. */
  params: Map<string, ParamDeclaration>;
  /** Asset declarations by file name (`a.csv`). */
  assets: Map<string, AssetDeclaration>;
  /** Input declarations by file name, raw tables. */
  inputs: Map<string, Record<string, JsonValue>>;
  /** `[requirements.<type>]` raw tables. */
  requirements: Map<string, Record<string, JsonValue>>;
  /** `[generator.<name>]` raw tables with their layer. */
  generators: { name: string; layer: string; table: Record<string, JsonValue> }[];
  /** Raw manifest tables by layer id. */
  raw: Map<string, Record<string, JsonValue>>;
  /** Keys the engine does not read: unknown, or documented but not implemented (MP8). */
  warnings: ManifestWarning[];
  /**
   * Composition problems (composition.ts): `param_conflict` and `module_conflict` errors
   * (configuration errors: the run aborts, CL21), `declaration_overridden` warnings.
   */
  composition: {
    /** `param_conflict`, `module_conflict` or `declaration_overridden`. */
    code: "param_conflict" | "module_conflict" | "declaration_overridden";
    /** Errors abort the run; warnings are reported. */
    severity: "error" | "warning";
    /** Message naming both declarations. */
    message: string;
    /** The manifest of the later declaration. */
    file: string;
  }[];
}

/** An empty manifest (no layer declares anything). */
export function emptyManifest(): ModuleManifest {
  return {
    modules: [],
    params: new Map(),
    assets: new Map(),
    inputs: new Map(),
    requirements: new Map(),
    generators: [],
    raw: new Map(),
    warnings: [],
    composition: [],
  };
}

/**
 * Parses TOML text into a plain object, converting parser errors into {@link ParseError}
 * (`toml_too_deep` for nesting past the bound of `checkTomlDepth`, checked first).
 */
export function parseTomlDocument(text: string, file: string): Record<string, JsonValue> {
  checkTomlDepth(text, file);
  try {
    return toJson(parseToml(text)) as Record<string, JsonValue>;
  } catch (e) {
    if (e instanceof TomlError) {
      const reason = e.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
      throw new ParseError(reason, file, e.line, e.column, "toml_syntax");
    }
    throw e;
  }
}

function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === "object") {
    // smol-toml returns TomlDate (a Date subclass) for date-times; handled above.
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = toJson(v);
    return out;
  }
  return String(value);
}

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseColumns(raw: JsonValue | undefined): Map<string, ColumnDeclaration> {
  const out = new Map<string, ColumnDeclaration>();
  if (!isTable(raw)) return out;
  for (const [col, spec] of Object.entries(raw)) {
    if (typeof spec === "string") {
      out.set(col, { type: spec, required: false });
    } else if (isTable(spec)) {
      out.set(col, {
        type: typeof spec.type === "string" ? spec.type : "string",
        required: spec.required === true,
        allowedValues: Array.isArray(spec.allowed_values) ? spec.allowed_values : undefined,
        description: typeof spec.description === "string" ? spec.description : undefined,
      });
    }
  }
  return out;
}

/**
 * Parses and merges the manifests of `layers` (in load order). Throws {@link ParseError} for a
 * manifest that is not valid TOML.
 *
 * @example
 * ```ts
 * import { mergeManifests } from "./manifest.ts";
 * const m = mergeManifests([{ id: "data", isDataDir: true, location: "memory:", files: new Map(),
 *   manifestText: '[module]\nname = "x"\nversion = "1.0.0"\n[params.stage]\ndefault = "DEV"\n' }]);
 * console.log(m.params.get("stage")?.default); // "DEV"
 * ```
 */
export function mergeManifests(layers: readonly Layer[]): ModuleManifest {
  const out = emptyManifest();
  const tracker = new DeclarationTracker(out.composition);
  for (const layer of layers) {
    if (layer.manifestText === undefined) continue;
    const file = layer.isDataDir ? "module.toml" : `${layer.id}/module.toml`;
    const doc = parseTomlDocument(layer.manifestText, file);
    tracker.layer(layer.id, file);
    out.raw.set(layer.id, doc);
    out.warnings.push(...manifestKeyWarnings(doc, layer.manifestText, file));
    const mod = isTable(doc.module) ? doc.module : {};
    out.modules.push({
      layer: layer.id,
      name: typeof mod.name === "string" ? mod.name : layer.id,
      version: typeof mod.version === "string" ? mod.version : "0.0.0",
      description: typeof mod.description === "string" ? mod.description : undefined,
    });
    if (isTable(doc.params)) {
      for (const [name, spec] of Object.entries(doc.params)) {
        if (!isTable(spec)) continue;
        const prev = out.params.get(name);
        const decl: ParamDeclaration = {
          name,
          description: typeof spec.description === "string" ? spec.description : undefined,
          default: spec.default,
          required: spec.required === true,
          allowedValues: Array.isArray(spec.allowed_values) ? spec.allowed_values : undefined,
          layer: layer.id,
        };
        if (!prev) out.params.set(name, decl);
        else {
          tracker.param(prev, decl, file);
          prev.required ||= decl.required;
          prev.description ??= decl.description;
          if (prev.default === undefined) prev.default = decl.default;
          if (decl.allowedValues) {
            prev.allowedValues = prev.allowedValues
              ? prev.allowedValues.filter((v) => decl.allowedValues!.includes(v))
              : decl.allowedValues;
          }
        }
      }
    }
    if (isTable(doc.assets)) {
      for (const [fileName, spec] of Object.entries(doc.assets)) {
        if (!isTable(spec)) continue;
        const decl: AssetDeclaration = {
          file: fileName,
          resourceType: typeof spec.resource_type === "string" ? spec.resource_type : undefined,
          nameTemplate: typeof spec.name_template === "string" ? spec.name_template : undefined,
          bootstrap: typeof spec.bootstrap === "string" ? spec.bootstrap : undefined,
          matchOn: spec.match_on,
          columns: parseColumns(spec.columns),
          layer: layer.id,
        };
        // MP33: columns are merged across layers; otherwise the first declaration in load order
        // wins. Conflicts and overrides are reported.
        const prev = out.assets.get(fileName);
        tracker.asset(prev, decl, file);
        if (!prev) out.assets.set(fileName, decl);
        else mergeColumns(prev, decl);
      }
    }
    for (const [fileName, spec] of layerInputs(doc, file, out.composition)) {
      tracker.input(fileName, out.inputs.get(fileName), spec, layer.id, file);
      if (!out.inputs.has(fileName)) out.inputs.set(fileName, spec);
    }
    if (isTable(doc.requirements)) {
      for (const [type, spec] of Object.entries(doc.requirements)) {
        if (isTable(spec)) {
          out.requirements.set(type, mergeRequirement(out.requirements.get(type), spec));
        }
      }
    }
    // MP42: `[[requirement]] type = "<type>", properties = [..]` means the same.
    if (Array.isArray(doc.requirement)) {
      for (const spec of doc.requirement) {
        if (!isTable(spec) || typeof spec.type !== "string") continue;
        const { type: t, ...rest } = spec;
        out.requirements.set(
          t as string,
          mergeRequirement(out.requirements.get(t as string), rest),
        );
      }
    }
    if (isTable(doc.generator)) {
      for (const [name, spec] of Object.entries(doc.generator)) {
        if (isTable(spec)) out.generators.push({ name, layer: layer.id, table: spec });
      }
    }
  }
  tracker.finish(out.assets);
  return out;
}

/**
 * The input declarations of one manifest (MP37): `[inputs."<file>"]` and `[input."<file>"]` are
 * one declaration, merged key by key (and `fields` maps field by field). A key both spellings
 * give different values keeps the documented `inputs` one, and a `declaration_overridden`
 * warning names it.
 */
function layerInputs(
  doc: Record<string, JsonValue>,
  file: string,
  composition: ModuleManifest["composition"],
): Map<string, Record<string, JsonValue>> {
  const out = new Map<string, Record<string, JsonValue>>();
  for (const key of ["inputs", "input"]) {
    const table = doc[key];
    if (!isTable(table)) continue;
    for (const [fileName, spec] of Object.entries(table)) {
      if (!isTable(spec)) continue;
      const prev = out.get(fileName);
      if (!prev) {
        out.set(fileName, spec);
        continue;
      }
      const merged: Record<string, JsonValue> = { ...prev };
      const conflicts: string[] = [];
      for (const [k, v] of Object.entries(spec)) {
        const p = prev[k];
        if (p === undefined) merged[k] = v;
        else if (k === "fields" && isTable(p) && isTable(v)) {
          const fields: Record<string, JsonValue> = { ...v, ...p };
          for (const f of Object.keys(v)) {
            if (Object.hasOwn(p, f) && !sameJson(p[f], v[f])) conflicts.push(`fields.${f}`);
          }
          merged[k] = fields;
        } else if (!sameJson(p, v)) conflicts.push(k);
      }
      out.set(fileName, merged);
      if (conflicts.length > 0) {
        composition.push({
          code: "declaration_overridden",
          severity: "warning",
          file,
          message: `input '${fileName}': ${
            conflicts.map((c) => `'${c}'`).join(", ")
          } declared differently by [inputs."${fileName}"] and [input."${fileName}"]; ` +
            `the [inputs] value is used`,
        });
      }
    }
  }
  return out;
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Adds the columns of `decl` that `prev` does not declare (MP33: the union of non-conflicting
 * columns, in declaration order); a column both declare keeps the first spec, taking the later
 * `allowed_values` and `description` when the first has none.
 */
function mergeColumns(prev: AssetDeclaration, decl: AssetDeclaration): void {
  for (const [name, spec] of decl.columns) {
    const first = prev.columns.get(name);
    if (!first) prev.columns.set(name, spec);
    else {
      first.allowedValues ??= spec.allowedValues;
      first.description ??= spec.description;
    }
  }
}
