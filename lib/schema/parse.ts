/**
 * Parsing one schema file (reference SV1–SV3): JSON text → {@link Schema}, or a
 * {@link SchemaLoadError} naming the file and what is wrong.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { lineColumnAt } from "../formats/errors.ts";
import {
  type Capabilities,
  PROPERTY_TYPES,
  type PropertyDef,
  type PropertyTypeName,
  type RelationDef,
  type ResourceDef,
  type Schema,
} from "./types.ts";

/**
 * A schema file that cannot be used (SV3): bad JSON, missing `schema_id`/`version`, a
 * non-object `resources`, or a malformed definition.
 *
 * @example
 * ```ts
 * import { SchemaLoadError } from "./parse.ts";
 * const e = new SchemaLoadError("missing 'schema_id'", "schemas/a.schema.json");
 * console.log(e.message); // "schemas/a.schema.json: missing 'schema_id'"
 * ```
 */
export class SchemaLoadError extends Error {
  /** Creates the error. @param reason what is wrong @param file the file or URL @param line 1-based line, when known */
  constructor(readonly reason: string, readonly file: string, readonly line?: number) {
    super(`${file}${line !== undefined ? `:${line}` : ""}: ${reason}`);
    this.name = "SchemaLoadError";
  }
}

type Obj = Record<string, JsonValue>;

function isObj(v: JsonValue | undefined): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Parses schema text. Throws {@link SchemaLoadError}.
 *
 * @example
 * ```ts
 * import { parseSchema } from "./parse.ts";
 * const s = parseSchema(
 *   '{"schema_id":"fleet","version":"20250412","resources":{"host":{"required":["name"]}}}',
 *   "schemas/fleet.schema.json",
 * );
 * console.log(s.id, [...s.resources.keys()]); // "fleet" ["host"]
 * ```
 */
export function parseSchema(text: string, origin: string): Schema {
  let doc: JsonValue;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    const m = /position (\d+)/.exec(String((e as Error).message));
    const line = m ? lineColumnAt(text, Number(m[1])).line : undefined;
    throw new SchemaLoadError(`not valid JSON (${(e as Error).message})`, origin, line);
  }
  if (!isObj(doc)) throw new SchemaLoadError("a schema must be a JSON object", origin);
  const str = (k: string) => {
    const v = doc[k as keyof typeof doc];
    if (typeof v !== "string" || v === "") {
      throw new SchemaLoadError(`missing or non-string '${k}'`, origin);
    }
    return v;
  };
  const id = str("schema_id");
  const version = str("version");
  const rawResources = doc.resources ?? {};
  if (!isObj(rawResources)) throw new SchemaLoadError("'resources' must be an object", origin);
  const resources = new Map<string, ResourceDef>();
  for (const [type, raw] of Object.entries(rawResources)) {
    resources.set(type, parseResource(raw, `resources.${type}`, origin, id));
  }
  return { id, version, origin, resources };
}

function parseResource(raw: JsonValue, at: string, origin: string, id: string): ResourceDef {
  if (!isObj(raw)) throw new SchemaLoadError(`'${at}' must be an object`, origin);
  const required = new Set(stringList(raw.required, `${at}.required`, origin));
  const properties = new Map<string, PropertyDef>();
  if (raw.properties !== undefined) {
    if (!isObj(raw.properties)) {
      throw new SchemaLoadError(`'${at}.properties' must be an object`, origin);
    }
    for (const [p, def] of Object.entries(raw.properties)) {
      properties.set(p, parseProperty(def, `${at}.properties.${p}`, origin));
      if (isObj(def) && def.required === true) required.add(p);
    }
  }
  const relations = new Map<string, RelationDef>();
  if (raw.relations !== undefined) {
    if (!isObj(raw.relations)) {
      throw new SchemaLoadError(`'${at}.relations' must be an object`, origin);
    }
    for (const [label, def] of Object.entries(raw.relations)) {
      relations.set(label, parseRelation(def, `${at}.relations.${label}`, origin, id));
    }
  }
  return {
    required,
    properties,
    implements: stringList(raw.implements, `${at}.implements`, origin),
    relations,
    capabilities: parseCapabilities(raw.capabilities, `${at}.capabilities`, origin),
  };
}

function parseProperty(raw: JsonValue, at: string, origin: string): PropertyDef {
  if (!isObj(raw)) throw new SchemaLoadError(`'${at}' must be an object`, origin);
  const out: PropertyDef = {};
  if (raw.type !== undefined) {
    const types = Array.isArray(raw.type) ? raw.type : [raw.type];
    for (const t of types) {
      if (typeof t !== "string" || !(PROPERTY_TYPES as readonly string[]).includes(t)) {
        throw new SchemaLoadError(
          `'${at}.type' must be one of ${PROPERTY_TYPES.join(", ")} (got ${JSON.stringify(t)})`,
          origin,
        );
      }
    }
    out.type = [...new Set(types as PropertyTypeName[])];
  }
  if (raw.enum !== undefined) {
    if (!Array.isArray(raw.enum)) {
      throw new SchemaLoadError(`'${at}.enum' must be an array`, origin);
    }
    out.enum = raw.enum;
  }
  if (raw.items !== undefined) out.items = parseProperty(raw.items, `${at}.items`, origin);
  if (typeof raw.description === "string") out.description = raw.description;
  return out;
}

function parseRelation(raw: JsonValue, at: string, origin: string, id: string): RelationDef {
  if (!isObj(raw)) throw new SchemaLoadError(`'${at}' must be an object`, origin);
  if (raw.target !== undefined && typeof raw.target !== "string") {
    throw new SchemaLoadError(`'${at}.target' must be a string`, origin);
  }
  if (raw.required !== undefined && typeof raw.required !== "boolean") {
    throw new SchemaLoadError(`'${at}.required' must be a boolean`, origin);
  }
  const card = raw.cardinality ?? "many";
  if (card !== "one" && card !== "many") {
    throw new SchemaLoadError(`'${at}.cardinality' must be "one" or "many"`, origin);
  }
  const edgeProperties = new Map<string, PropertyDef>();
  const edgeRequired = new Set<string>();
  const ps = raw.property_schema;
  if (ps !== undefined) {
    if (!isObj(ps)) throw new SchemaLoadError(`'${at}.property_schema' must be an object`, origin);
    if (ps.properties !== undefined) {
      if (!isObj(ps.properties)) {
        throw new SchemaLoadError(`'${at}.property_schema.properties' must be an object`, origin);
      }
      for (const [p, def] of Object.entries(ps.properties)) {
        edgeProperties.set(p, parseProperty(def, `${at}.property_schema.properties.${p}`, origin));
      }
    }
    for (const r of stringList(ps.required, `${at}.property_schema.required`, origin)) {
      edgeRequired.add(r);
    }
  }
  return {
    target: raw.target,
    required: raw.required === true,
    cardinality: card,
    edgeProperties,
    edgeRequired,
    capabilities: parseCapabilities(raw.capabilities, `${at}.capabilities`, origin),
    from: id,
  };
}

function parseCapabilities(raw: JsonValue | undefined, at: string, origin: string): Capabilities {
  const out: Capabilities = new Map();
  if (raw === undefined) return out;
  if (!isObj(raw)) throw new SchemaLoadError(`'${at}' must be an object`, origin);
  const actions = raw.actions ?? {};
  if (!isObj(actions)) throw new SchemaLoadError(`'${at}.actions' must be an object`, origin);
  for (const [verb, def] of Object.entries(actions)) {
    out.set(verb, {
      description: isObj(def) && typeof def.description === "string" ? def.description : undefined,
    });
  }
  return out;
}

function stringList(raw: JsonValue | undefined, at: string, origin: string): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== "string")) {
    throw new SchemaLoadError(`'${at}' must be an array of strings`, origin);
  }
  return raw as string[];
}
