/**
 * Compiling `[[control]]` blocks of a compliance file (reference C1–C5, C12–C15, C20–C21, C30,
 * C50) into typed targets. Shape errors are {@link RuleError}s naming the key at fault; unknown
 * target keys are returned as warnings (C50).
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";
import type { RuleBlock } from "../../formats/toml.ts";
import { compileConditions, type Condition } from "../rules/conditions.ts";
import { RuleError } from "../rules/errors.ts";
import { controlTargetKeyWarnings } from "../rules/known_keys.ts";

/** A table of TOML values. */
export type Table = Record<string, JsonValue>;

/** A further link of an attached resource (C14). */
export interface ResourceLink {
  /** Type of the existing resources. */
  with: string;
  /** Exact name template. */
  name?: string;
  /** Conditions evaluated with `target_resource` in scope. */
  matchWith?: Condition;
  /** Relation type. */
  relationType: string;
  /** `outgoing`: new → existing (default); `incoming`: existing → new. */
  direction: "outgoing" | "incoming";
  /** Key for messages, e.g. `target[0].resource_links[1]`. */
  key: string;
}

/** Fields common to every target kind. */
interface TargetBase {
  /** Key prefix for messages: `target[0]`. */
  key: string;
  /** Evidence text (C41 `evidence_summary`). */
  description?: string;
  /** Conditions on the origin (or the relation source for C22). */
  matchOn?: Condition;
  /** Config keys copied into the control entry (C21). */
  propertiesFromConfig: string[];
}

/** Mutating (or only annotating) the origin itself (C10, C11). */
export interface OriginTarget extends TargetBase {
  kind: "origin";
  /** Origin types, in listed order (C5). */
  originTypes: string[];
  /** Property templates written with merge semantics. */
  properties: Table;
}

/** Attaching a new resource to each matching origin (C12–C15). */
export interface AttachTarget extends TargetBase {
  kind: "attach";
  /** Origin types. */
  originTypes: string[];
  /** Type of the attached resource. */
  resourceType: string;
  /** Name template (C15 default for findings). */
  name?: string;
  /** Property templates. */
  properties: Table;
  /** Relation type origin → new (default `GOVERNED_BY`, `HAS_VIOLATION` for findings). */
  relationType: string;
  /** Relation property templates. */
  relationProperties: Table;
  /** Further links. */
  links: ResourceLink[];
}

/** Enriching relations between two types (C20–C22). */
export interface EnrichTarget extends TargetBase {
  kind: "enrich";
  /** Source type of the relations. */
  originType: string;
  /** Target type of the relations. */
  targetType: string;
  /** Optional relation type narrowing. */
  relationType?: string;
}

/** Responsibility mapping (C30–C32). */
export interface MapTarget extends TargetBase {
  kind: "map";
  /** Type whose resource names are role names. */
  derivedType: string;
  /** Origin types. */
  originTypes: string[];
  /** Type of the resources named by role properties. */
  targetType: string;
  /** Relation origin → target. */
  primaryRelationType: string;
  /** Relation property holding the role (optional). */
  propertyOnRelation?: string;
  /** Also link role resource → target. */
  linkRelationToTarget: boolean;
  /** Relation role → target. */
  secondaryRelationType?: string;
  /** Property name → role name. */
  overrides: Record<string, string>;
}

/** A compiled target. */
export type Target = OriginTarget | AttachTarget | EnrichTarget | MapTarget;

/** A compiled control. */
export interface Control {
  /** Control id. */
  id: string;
  /** Control name. */
  name: string;
  /** Control description. */
  description?: string;
  /** `[control.config]`. */
  config: Table;
  /** Targets in document order. */
  targets: Target[];
}

/** Result of compiling one control: the control (or errors) and C50 warnings. */
export interface CompiledControl {
  /** The control, when its id/name were valid (targets with errors are left out). */
  control?: Control;
  /** Errors of the control and of its targets. */
  errors: RuleError[];
  /** Unknown-key warnings (C50). */
  warnings: { key: string; message: string }[];
}

const TARGET_KEYS = new Set([
  "description",
  "origin_resource_types",
  "origin_resource_type",
  "match_on",
  "resource",
  "relation",
  "resource_links",
  "relation_origin_type",
  "relation_target_type",
  "relation_type",
  "properties_from_config",
  "map",
]);
const CONTROL_KEYS = new Set(["id", "name", "description", "config", "target"]);

/** Default relation of an attached resource (C13). */
export const DEFAULT_ATTACH_RELATION = "GOVERNED_BY";
/** Default relation offending resource → finding (C15). */
export const DEFAULT_FINDING_RELATION = "HAS_VIOLATION";
/** Type of findings (C15). */
export const FINDING_TYPE = "policy_violation";

/**
 * Compiles one `[[control]]` block.
 *
 * @example
 * ```ts ignore
 * const { control, errors } = compileControl(block);
 * ```
 */
export function compileControl(block: RuleBlock): CompiledControl {
  const body = block.body;
  const errors: RuleError[] = [];
  const warnings: { key: string; message: string }[] = [];
  for (const k of Object.keys(body)) {
    if (!CONTROL_KEYS.has(k)) {
      warnings.push({ key: k, message: `unknown key '${k}' in [[control]] (ignored)` });
    }
  }
  const id = body.id;
  const name = body.name;
  if (typeof id !== "string" || id.trim() === "") {
    errors.push(new RuleError("[[control]] needs a non-empty string 'id'", "id", "control_id"));
  }
  if (typeof name !== "string") {
    errors.push(new RuleError("[[control]] needs a string 'name'", "name", "control_name"));
  }
  const config = body.config ?? {};
  if (!isTable(config)) {
    errors.push(new RuleError("'config' must be a table", "config", "control_config"));
  }
  const rawTargets = body.target;
  let targetList: JsonValue[] = [];
  if (rawTargets === undefined) {
    errors.push(
      new RuleError(
        "[[control]] needs at least one [[control.target]]",
        "target",
        "control_target",
      ),
    );
  } else if (!Array.isArray(rawTargets)) {
    errors.push(
      new RuleError(
        "'target' must be an array of tables ([[control.target]])",
        "target",
        "control_target",
      ),
    );
  } else targetList = rawTargets;
  const targets: Target[] = [];
  targetList.forEach((raw, i) => {
    const key = `target[${i}]`;
    try {
      if (!isTable(raw)) throw new RuleError("a target must be a table", key, "control_target");
      for (const k of Object.keys(raw)) {
        if (!TARGET_KEYS.has(k)) {
          warnings.push({
            key: `${key}.${k}`,
            message: `unknown key '${k}' in [[control.target]] (ignored)`,
          });
        }
      }
      for (const w of controlTargetKeyWarnings(raw, key)) warnings.push(w);
      targets.push(compileTarget(raw, key, isTable(config) ? config : {}));
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      errors.push(e);
    }
  });
  if (errors.some((e) => e.key === "id" || e.key === "name" || e.key === "config")) {
    return { errors, warnings };
  }
  return {
    control: {
      id: (id as string).trim(),
      name: name as string,
      description: typeof body.description === "string" ? body.description : undefined,
      config: config as Table,
      targets,
    },
    errors,
    warnings,
  };
}

function compileTarget(raw: Table, key: string, config: Table): Target {
  const base: TargetBase = {
    key,
    description: optString(raw, "description", key),
    matchOn: raw.match_on === undefined
      ? undefined
      : compileConditions(raw.match_on, `${key}.match_on`),
    propertiesFromConfig: stringList(raw, "properties_from_config", key) ?? [],
  };
  for (const k of base.propertiesFromConfig) {
    if (!Object.hasOwn(config, k)) {
      throw new RuleError(
        `properties_from_config names '${k}', which is not a key of [control.config]`,
        `${key}.properties_from_config`,
        "control_config_key",
      );
    }
  }
  // C4: the kind is decided by the keys, in this order.
  if (raw.map !== undefined) return compileMap(raw.map, `${key}.map`, base);
  if (raw.relation_origin_type !== undefined || raw.relation_target_type !== undefined) {
    const originType = optString(raw, "relation_origin_type", key);
    const targetType = optString(raw, "relation_target_type", key);
    if (!originType || !targetType) {
      throw new RuleError(
        "relation enrichment needs both 'relation_origin_type' and 'relation_target_type'",
        `${key}.${originType ? "relation_target_type" : "relation_origin_type"}`,
        "control_target",
      );
    }
    return {
      ...base,
      kind: "enrich",
      originType,
      targetType,
      relationType: optString(raw, "relation_type", key),
    };
  }
  const originTypes = originTypesOf(raw, key);
  const resource = raw.resource;
  if (resource !== undefined && !isTable(resource)) {
    throw new RuleError("'resource' must be a table", `${key}.resource`, "control_target");
  }
  if (resource && resource.type !== undefined) {
    return compileAttach(raw, resource, key, base, originTypes);
  }
  if (resource && Object.keys(resource).some((k) => k !== "properties")) {
    throw new RuleError(
      "[control.target.resource] without 'type' may only hold 'properties' (mutating the origin)",
      `${key}.resource`,
      "control_target",
    );
  }
  return {
    ...base,
    kind: "origin",
    originTypes,
    properties: tableOf(resource?.properties, `${key}.resource.properties`),
  };
}

function compileAttach(
  raw: Table,
  resource: Table,
  key: string,
  base: TargetBase,
  originTypes: string[],
): AttachTarget {
  const type = resource.type;
  if (typeof type !== "string" || type.trim() === "") {
    throw new RuleError(
      "resource.type must be a non-empty string",
      `${key}.resource.type`,
      "control_target",
    );
  }
  const name = optString(resource, "name", `${key}.resource`);
  const isFinding = type === FINDING_TYPE;
  if (name === undefined && !isFinding) {
    throw new RuleError(
      "[control.target.resource] needs a 'name' (only policy_violation findings have a default)",
      `${key}.resource.name`,
      "control_target",
    );
  }
  const relation = raw.relation;
  if (relation !== undefined && !isTable(relation)) {
    throw new RuleError("'relation' must be a table", `${key}.relation`, "control_target");
  }
  const relationType = relation ? optString(relation, "type", `${key}.relation`) : undefined;
  const links: ResourceLink[] = [];
  const rawLinks = raw.resource_links ?? [];
  if (!Array.isArray(rawLinks)) {
    throw new RuleError(
      "'resource_links' must be an array of tables",
      `${key}.resource_links`,
      "control_target",
    );
  }
  rawLinks.forEach((l, i) => links.push(compileLink(l, `${key}.resource_links[${i}]`)));
  return {
    ...base,
    kind: "attach",
    originTypes,
    resourceType: type.trim(),
    name,
    properties: tableOf(resource.properties, `${key}.resource.properties`),
    relationType: relationType ?? (isFinding ? DEFAULT_FINDING_RELATION : DEFAULT_ATTACH_RELATION),
    relationProperties: tableOf(relation?.properties, `${key}.relation.properties`),
    links,
  };
}

function compileLink(raw: JsonValue, key: string): ResourceLink {
  if (!isTable(raw)) throw new RuleError("a resource link must be a table", key, "control_target");
  const withType = optString(raw, "with", key);
  if (!withType) {
    throw new RuleError("resource link needs 'with' (a type)", `${key}.with`, "control_target");
  }
  const name = optString(raw, "name", key);
  const matchWith = raw.match_with === undefined
    ? undefined
    : compileConditions(raw.match_with, `${key}.match_with`);
  if (name === undefined && matchWith === undefined) {
    throw new RuleError("resource link needs 'name' or 'match_with'", key, "control_target");
  }
  const relationType = optString(raw, "relation_type", key);
  if (!relationType) {
    throw new RuleError(
      "resource link needs 'relation_type'",
      `${key}.relation_type`,
      "control_target",
    );
  }
  const direction = raw.direction ?? "outgoing";
  if (direction !== "outgoing" && direction !== "incoming") {
    throw new RuleError(
      `direction must be "outgoing" or "incoming", got ${JSON.stringify(direction)}`,
      `${key}.direction`,
      "control_target",
    );
  }
  return { with: withType, name, matchWith, relationType, direction, key };
}

function compileMap(raw: JsonValue, key: string, base: TargetBase): MapTarget {
  if (!isTable(raw)) throw new RuleError("'map' must be a table", key, "control_target");
  const need = (k: string): string => {
    const v = optString(raw, k, key);
    if (!v) throw new RuleError(`responsibility map needs '${k}'`, `${key}.${k}`, "control_target");
    return v;
  };
  const overrides: Record<string, string> = {};
  const o = tableOf(raw.property_map_overrides, `${key}.property_map_overrides`);
  for (const [k, v] of Object.entries(o)) {
    if (typeof v !== "string") {
      throw new RuleError(
        "override values must be role names (strings)",
        `${key}.property_map_overrides.${k}`,
        "control_target",
      );
    }
    overrides[k] = v;
  }
  const link = raw.link_relation_to_target ?? false;
  if (typeof link !== "boolean") {
    throw new RuleError(
      "link_relation_to_target must be a boolean",
      `${key}.link_relation_to_target`,
      "control_target",
    );
  }
  const secondary = optString(raw, "secondary_relation_type", key);
  if (link && !secondary) {
    throw new RuleError(
      "link_relation_to_target = true needs 'secondary_relation_type'",
      `${key}.secondary_relation_type`,
      "control_target",
    );
  }
  return {
    ...base,
    kind: "map",
    derivedType: need("derived_type"),
    originTypes: originTypesOf(raw, key),
    targetType: need("target_resource_type"),
    primaryRelationType: need("primary_relation_type"),
    propertyOnRelation: optString(raw, "property_on_relation", key),
    linkRelationToTarget: link,
    secondaryRelationType: secondary,
    overrides,
  };
}

/** `origin_resource_types` or its legacy alias `origin_resource_type`, string or list (C3). */
function originTypesOf(raw: Table, key: string): string[] {
  const k = raw.origin_resource_types !== undefined
    ? "origin_resource_types"
    : "origin_resource_type";
  const list = stringList(raw, k, key);
  if (!list || list.length === 0) {
    throw new RuleError(
      "target needs 'origin_resource_types' (a type or a list of types)",
      `${key}.origin_resource_types`,
      "control_target",
    );
  }
  return list;
}

function stringList(raw: Table, k: string, key: string): string[] | undefined {
  const v = raw[k];
  if (v === undefined) return undefined;
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v as string[];
  throw new RuleError(
    `'${k}' must be a string or an array of strings`,
    `${key}.${k}`,
    "control_target",
  );
}

function optString(raw: Table, k: string, key: string): string | undefined {
  const v = raw[k];
  if (v === undefined) return undefined;
  if (typeof v !== "string") {
    throw new RuleError(`'${k}' must be a string`, `${key}.${k}`, "control_target");
  }
  return v;
}

function tableOf(v: JsonValue | undefined, key: string): Table {
  if (v === undefined) return {};
  if (!isTable(v)) throw new RuleError("must be a table", key, "control_target");
  return v;
}

/** True for a plain TOML table. */
export function isTable(v: JsonValue | undefined): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
