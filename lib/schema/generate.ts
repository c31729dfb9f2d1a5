/**
 * `generate-schema` (reference SV50–SV52): a starter schema inferred from a built workspace —
 * resource types from assets and models, `required` from complete CSV columns, property types
 * from declared columns or values, relations from the graph's model and convention links, and
 * capabilities from action files. Output is deterministic.
 *
 * @module
 */
import type { Graph, JsonValue } from "../graph/graph.ts";
import { parseCsv } from "../formats/csv.ts";
import type { Layer, SourceSet } from "../workspace/sources.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import { staticFootprint } from "./footprint.ts";
import { readActions, type ValidationAsset } from "./validate.ts";

/** Options of {@link generateSchema}. */
export interface GenerateOptions {
  /** Types to describe (default: every inferred type). */
  types?: readonly string[];
  /** `schema_id` (default: the module name, else `local`). */
  schemaId?: string;
  /** `version` (default: the module version, else `today`). */
  version?: string;
  /** Module whose name/version are the defaults (a layer id); default: the data directory's. */
  module?: string;
  /** Today as `YYYYMMDD`, used without any manifest. */
  today: string;
}

/** Result of {@link generateSchema}. */
export interface GeneratedSchema {
  /** The schema document, keys sorted. */
  schema: Record<string, JsonValue>;
  /** The same as text: 2-space indentation, trailing newline. */
  text: string;
  /** Requested types that were not inferred (SV52: a warning, not an error). */
  unknownTypes: string[];
}

/** What {@link generateSchema} reads. */
export interface GenerateInput {
  /** The sources. */
  sources: SourceSet;
  /** The built graph. */
  graph: Graph;
  /** The merged manifest. */
  manifest: ModuleManifest;
  /** Asset tables of the build. */
  assets: readonly ValidationAsset[];
}

const LEGACY: Record<string, JsonValue> = {
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  number: { type: "number" },
  array_of_string: { type: "array", items: { type: "string" } },
  array_of_integer: { type: "array", items: { type: "integer" } },
};

function inferType(values: readonly JsonValue[]): string {
  const present = values.filter((v) => v !== null && v !== undefined && v !== "");
  if (present.length === 0) return "string";
  if (
    present.every((v) => typeof v === "number" ? Number.isInteger(v) : /^[-+]?\d+$/.test(String(v)))
  ) {
    return "integer";
  }
  if (present.every((v) => typeof v === "boolean" || /^(true|false)$/i.test(String(v)))) {
    return "boolean";
  }
  return "string";
}

/** Sorts object keys recursively (SV52). */
function sorted(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(value).sort()) out[k] = sorted(value[k]);
  return out;
}

/**
 * Generates a starter schema.
 *
 * @example
 * ```ts ignore
 * const g = generateSchema({ sources, graph, manifest, assets }, { today: "20260101" });
 * console.log(g.text);
 * ```
 */
export function generateSchema(input: GenerateInput, options: GenerateOptions): GeneratedSchema {
  const { graph, manifest } = input;
  const assetTypes = new Map<string, ValidationAsset[]>();
  for (const a of input.assets) assetTypes.set(a.type, [...(assetTypes.get(a.type) ?? []), a]);
  // Model-created types: the footprint of the models folders only.
  const onlyModels = (l: Layer): Layer => ({
    ...l,
    files: new Map([...l.files].filter(([p]) => p.startsWith("models/"))),
  });
  const models = staticFootprint(
    { modules: input.sources.modules.map(onlyModels), data: onlyModels(input.sources.data) },
    { ...manifest, assets: new Map() },
    [],
  );
  const inferred = new Set([...assetTypes.keys(), ...models.types.keys()]);
  const wanted = options.types && options.types.length > 0 ? options.types : [...inferred];
  const unknownTypes = wanted.filter((t) => !inferred.has(t));
  const types = [...new Set(wanted.filter((t) => inferred.has(t)))].sort();
  // Capability entries (SV50): an action's `capabilities` and its declared `name`.
  const actions = readActions(input.sources).map((a) => ({
    entries: a.named ? [...a.capabilities, a.name] : a.capabilities,
    description: a.description,
  }));
  const resources: Record<string, JsonValue> = {};
  for (const type of types) {
    const properties: Record<string, JsonValue> = {};
    const required = new Set<string>(["name"]);
    const seen = new Set<string>();
    for (const a of assetTypes.get(type) ?? []) {
      const text = input.sources.data.files.get(`assets/${a.file}`);
      let rows: string[][] = [];
      try {
        if (text !== undefined) rows = parseCsv(text, a.file).rows.map((r) => r.cells);
      } catch { /* the build reports it */ }
      a.header.forEach((col, c) => {
        seen.add(col);
        const declared = a.declaration?.columns.get(col) as { type?: string } | undefined;
        const values = rows.map((r) => r[c]);
        if (col !== "name") {
          properties[col] = (declared?.type && LEGACY[declared.type]) ??
            (declared?.type ? { type: "string" } : { type: inferType(values) });
        }
        if (rows.length > 0 && values.every((v) => v !== undefined && v.trim() !== "")) {
          required.add(col);
        }
      });
    }
    const resList = graph.resourcesOf(type);
    for (const key of [...(models.keys.get(type) ?? [])].sort()) {
      if (key === "name" || seen.has(key)) continue;
      properties[key] = { type: inferType(resList.map((r) => r.properties[key])) };
    }
    const relations: Record<string, JsonValue> = {};
    const targets = new Map<string, Set<string>>();
    for (const r of resList) {
      for (const e of graph.outgoing(r)) {
        const set = targets.get(e.type) ?? new Set();
        set.add(e.target.type);
        targets.set(e.type, set);
      }
    }
    // Relations among the inferred types only (outputs' DESCRIBED_BY links are not modelled).
    for (const [label, set] of targets) {
      const inside = [...set].filter((t) => inferred.has(t) || t === type);
      if (inside.length === 1 && set.size === 1) relations[label] = { target: inside[0] };
    }
    const caps: Record<string, JsonValue> = {};
    for (const a of actions) {
      for (const entry of a.entries) {
        if (!entry.startsWith(`${type}.`)) continue;
        const verb = entry.slice(type.length + 1);
        if (verb === "" || verb.includes(".")) continue;
        caps[verb] = a.description !== undefined ? { description: a.description } : {};
      }
    }
    const def: Record<string, JsonValue> = { required: [...required].sort(), properties };
    if (Object.keys(relations).length > 0) def.relations = relations;
    if (Object.keys(caps).length > 0) def.capabilities = { actions: caps };
    resources[type] = def;
  }
  const layerId = options.module ?? "data";
  const mod = manifest.modules.find((m) => m.layer === layerId);
  const schema = sorted({
    schema_id: options.schemaId ?? mod?.name ?? "local",
    version: options.version ?? mod?.version ?? options.today,
    resources,
  }) as Record<string, JsonValue>;
  return { schema, text: JSON.stringify(schema, null, 2) + "\n", unknownTypes };
}
