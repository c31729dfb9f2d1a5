/**
 * Validation and compilation of model rule blocks (reference M10–M57): unknown keys and
 * malformed values are build errors naming the key; the result is a typed rule.
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";
import type { RuleBlock } from "../../formats/toml.ts";
import { compileConditions, type Condition } from "../rules/conditions.ts";
import { RuleError } from "../rules/errors.ts";

/** The rule-block kinds of a model file (M1). */
export const MODEL_BLOCK_KINDS = [
  "create_resource",
  "link_resources",
  "copy_property",
  "retype_relation",
] as const;

/** A property copy entry (M31, M42, M52). */
export interface CopySpec {
  /** Source property or dotted relation path (empty for template entries). */
  from: string;
  /** Destination property. */
  as: string;
  /** Transformation template (link_resources only). */
  template?: string;
  /** Key for messages, e.g. `copy_properties[1]`. */
  key: string;
}

/** `[[create_resource]]`. */
export interface CreateRule {
  kind: "create_resource";
  matchOn?: Condition;
  resourceType?: string;
  name?: string;
  relationType?: string;
  relationProperties?: Record<string, JsonValue>;
  properties: Record<string, JsonValue>;
  createFrom?: {
    property?: string;
    list?: string;
    as?: string;
    propertyOrigin?: string;
    relationOrigin: "origin_resource" | "property_origin";
  };
  copyFrom?: { property: string; properties: CopySpec[] };
}

/** `[[link_resources]]`. */
export interface LinkRule {
  kind: "link_resources";
  with: string;
  join?: { local: string; remote: string };
  matchOn?: Condition;
  matchWith?: Condition;
  copyProperties: CopySpec[];
  createRelation?: { type: string; properties?: Record<string, JsonValue> };
}

/** `[[copy_property]]`. */
export interface CopyRule {
  kind: "copy_property";
  to?: string;
  from?: string[];
  properties: CopySpec[];
  matchOn?: Condition;
}

/** `[[retype_relation]]`. */
export interface RetypeSpec {
  kind: "retype_relation";
  propertyKey: string;
  newType: string;
  targetType: string;
}

/** Any compiled model rule. */
export type ModelRule = CreateRule | LinkRule | CopyRule | RetypeSpec;

const KEYS: Record<string, readonly string[]> = {
  create_resource: [
    "match_on",
    "resource_type",
    "name",
    "relation_type",
    "relation_properties",
    "properties",
    "create_from",
    "copy_from",
  ],
  link_resources: [
    "with",
    "join",
    "on",
    "match_on",
    "match_with",
    "copy_properties",
    "create_relation",
  ],
  copy_property: ["to", "from", "properties", "match_on"],
  retype_relation: ["property_key", "new_type", "target_resource_type"],
};

/**
 * Compiles one block; throws {@link RuleError} with the key at fault.
 *
 * @example
 * ```ts
 * import { compileModelBlock } from "./compile.ts";
 * const r = compileModelBlock({
 *   kind: "link_resources", index: 0, position: { line: 1, column: 1 }, keys: new Map(),
 *   body: { with: "zone", join: "auth" },
 * });
 * console.log(r.kind === "link_resources" && r.join); // { local: "auth", remote: "auth" }
 * ```
 */
export function compileModelBlock(block: RuleBlock): ModelRule {
  const b = block.body;
  const allowed = KEYS[block.kind];
  for (const k of Object.keys(b)) {
    if (!allowed.includes(k)) {
      throw new RuleError(
        `unknown key '${k}' in [[${block.kind}]] (expected one of: ${allowed.join(", ")})`,
        k,
        "rule_unknown_key",
      );
    }
  }
  switch (block.kind) {
    case "create_resource":
      return compileCreate(b);
    case "link_resources":
      return compileLink(b);
    case "copy_property":
      return compileCopy(b);
    default:
      return compileRetype(b);
  }
}

function str(b: Record<string, JsonValue>, key: string, required = false): string | undefined {
  const v = b[key];
  if (v === undefined) {
    if (required) throw new RuleError(`'${key}' is required`, key, "rule_missing_key");
    return undefined;
  }
  if (typeof v !== "string" || v.trim() === "") {
    throw new RuleError(`'${key}' must be a non-empty string`, key, "rule_bad_value");
  }
  return v;
}

function table(b: Record<string, JsonValue>, key: string): Record<string, JsonValue> | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (!v || typeof v !== "object" || Array.isArray(v)) {
    throw new RuleError(`'${key}' must be a table`, key, "rule_bad_value");
  }
  return v;
}

function conditions(b: Record<string, JsonValue>, key: string): Condition | undefined {
  return b[key] === undefined ? undefined : compileConditions(b[key], key);
}

function onlyKeys(t: Record<string, JsonValue>, keys: string[], key: string): void {
  for (const k of Object.keys(t)) {
    if (!keys.includes(k)) {
      throw new RuleError(
        `unknown key '${k}' in ${key} (expected ${keys.join(", ")})`,
        `${key}.${k}`,
        "rule_unknown_key",
      );
    }
  }
}

function compileCreate(b: Record<string, JsonValue>): CreateRule {
  const rule: CreateRule = {
    kind: "create_resource",
    matchOn: conditions(b, "match_on"),
    resourceType: str(b, "resource_type"),
    name: str(b, "name"),
    relationType: str(b, "relation_type"),
    relationProperties: table(b, "relation_properties"),
    properties: table(b, "properties") ?? {},
  };
  const cf = table(b, "create_from");
  if (cf) {
    onlyKeys(cf, ["property", "list", "as", "property_origin", "relation_origin"], "create_from");
    const property = str(cf, "property");
    const list = str(cf, "list");
    if ((property === undefined) === (list === undefined)) {
      throw new RuleError(
        "create_from needs exactly one of 'property' or 'list'",
        "create_from",
        "rule_bad_value",
      );
    }
    const ro = str(cf, "relation_origin") ?? "origin_resource";
    if (ro !== "origin_resource" && ro !== "property_origin") {
      throw new RuleError(
        'create_from.relation_origin must be "origin_resource" or "property_origin"',
        "create_from.relation_origin",
        "rule_bad_value",
      );
    }
    rule.createFrom = {
      property,
      list,
      as: str(cf, "as"),
      propertyOrigin: str(cf, "property_origin"),
      relationOrigin: ro,
    };
    if (list !== undefined && rule.createFrom.as === undefined && rule.resourceType === undefined) {
      throw new RuleError(
        "create_from.list needs 'as' or 'resource_type'",
        "create_from",
        "rule_missing_key",
      );
    }
  } else {
    if (rule.resourceType === undefined) {
      throw new RuleError(
        "'resource_type' is required (or use create_from)",
        "resource_type",
        "rule_missing_key",
      );
    }
    if (rule.name === undefined) {
      throw new RuleError("'name' is required (or use create_from)", "name", "rule_missing_key");
    }
  }
  const cp = table(b, "copy_from");
  if (cp) {
    onlyKeys(cp, ["property", "properties"], "copy_from");
    rule.copyFrom = {
      property: str(cp, "property", true)!,
      properties: copySpecs(cp.properties, "copy_from.properties", false),
    };
  }
  return rule;
}

function compileLink(b: Record<string, JsonValue>): LinkRule {
  const rule: LinkRule = {
    kind: "link_resources",
    with: str(b, "with", true)!,
    matchOn: conditions(b, "match_on"),
    matchWith: conditions(b, "match_with"),
    copyProperties: b.copy_properties === undefined
      ? []
      : copySpecs(b.copy_properties, "copy_properties", true),
  };
  if (b.join !== undefined && b.on !== undefined) {
    throw new RuleError(
      "use either 'join' or its legacy alias 'on', not both",
      "on",
      "rule_bad_value",
    );
  }
  const joinKey = b.join !== undefined ? "join" : b.on !== undefined ? "on" : undefined;
  if (joinKey) {
    const j = b[joinKey];
    if (typeof j === "string" && j.trim() !== "") rule.join = { local: j, remote: j };
    else if (j && typeof j === "object" && !Array.isArray(j)) {
      onlyKeys(j, ["local", "remote"], joinKey);
      rule.join = { local: str(j, "local", true)!, remote: str(j, "remote", true)! };
    } else {
      throw new RuleError(
        `'${joinKey}' must be { local = "...", remote = "..." } or a property name`,
        joinKey,
        "rule_bad_value",
      );
    }
  }
  const cr = table(b, "create_relation");
  if (cr) {
    onlyKeys(cr, ["type", "properties"], "create_relation");
    rule.createRelation = {
      type: str(cr, "type", true)!,
      properties: table(cr, "properties"),
    };
  }
  return rule;
}

function compileCopy(b: Record<string, JsonValue>): CopyRule {
  const to = str(b, "to");
  const from = str(b, "from");
  if ((to === undefined) === (from === undefined)) {
    throw new RuleError(
      "[[copy_property]] needs exactly one of 'to' (a type) or legacy 'from' (a path)",
      "to",
      "rule_missing_key",
    );
  }
  if (b.properties === undefined) {
    throw new RuleError("'properties' is required", "properties", "rule_missing_key");
  }
  return {
    kind: "copy_property",
    to,
    from: from?.split(".").map((s) => s.trim()),
    properties: copySpecs(b.properties, "properties", false),
    matchOn: conditions(b, "match_on"),
  };
}

function compileRetype(b: Record<string, JsonValue>): RetypeSpec {
  const propertyKey = str(b, "property_key", true)!;
  return {
    kind: "retype_relation",
    propertyKey,
    newType: str(b, "new_type") ?? propertyKey,
    targetType: str(b, "target_resource_type") ?? propertyKey,
  };
}

function copySpecs(raw: JsonValue, key: string, allowTemplate: boolean): CopySpec[] {
  if (!Array.isArray(raw)) throw new RuleError(`'${key}' must be an array`, key, "rule_bad_value");
  return raw.map((e, i): CopySpec => {
    const k = `${key}[${i}]`;
    if (typeof e === "string" && e.trim() !== "") {
      return { from: e.trim(), as: e.trim().replaceAll(".", "_"), key: k };
    }
    if (e && typeof e === "object" && !Array.isArray(e)) {
      onlyKeys(e, allowTemplate ? ["from", "as", "template"] : ["from", "as"], k);
      const as = str(e, "as");
      const from = str(e, "from");
      const template = allowTemplate ? str(e, "template") : undefined;
      if (template !== undefined) {
        if (as === undefined) {
          throw new RuleError("a template entry needs 'as'", k, "rule_missing_key");
        }
        if (from !== undefined) {
          throw new RuleError("use either 'from' or 'template'", k, "rule_bad_value");
        }
        return { from: "", as, template, key: k };
      }
      if (from === undefined) throw new RuleError("entry needs 'from'", k, "rule_missing_key");
      return { from, as: as ?? from.replaceAll(".", "_"), key: k };
    }
    throw new RuleError(
      `entry must be "name" or { from = "...", as = "..." }`,
      k,
      "rule_bad_value",
    );
  });
}
