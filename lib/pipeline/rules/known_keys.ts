/**
 * The keys each rule table accepts, so that nothing is dropped silently (issue 19 item 4):
 * a key the engine does not know is an `unknown_key` warning, a key the reference documents but
 * the engine does not implement yet is a `not_implemented` warning. Used for the nested tables
 * of compliance targets (C12–C14, C30, C50); `[[control]]`, `[[control.target]]` and
 * `[[output]]` check their own keys, model blocks refuse unknown keys (M10–M57).
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";

/** A key warning: the dotted key at fault, its code and the message. */
export interface KeyWarning {
  /** Dotted key, e.g. `target[0].resource.colour`. */
  key: string;
  /** `unknown_key` or `not_implemented`. */
  code: "unknown_key" | "not_implemented";
  /** Human-readable message. */
  message: string;
}

/** Accepted keys of a table; `nested` describes sub-tables (or each table of an array). */
export interface KeySpec {
  /** Keys the engine implements. */
  keys: readonly string[];
  /** Keys the reference documents that the engine ignores for now, with the reason. */
  notImplemented?: Readonly<Record<string, string>>;
  /** Specs of sub-tables (tables, or arrays of tables) by key. */
  nested?: Readonly<Record<string, KeySpec>>;
}

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Keys of `table` outside `spec`, recursively; `label` names the table in messages
 * (`control.target.resource`), `key` is the dotted prefix of reported keys.
 *
 * @example
 * ```ts
 * import { checkKeys } from "./known_keys.ts";
 * const w = checkKeys({ type: "t", colour: "red" }, { keys: ["type"] }, "x", "x");
 * console.log(w[0].key, w[0].code); // "x.colour" "unknown_key"
 * ```
 */
export function checkKeys(
  table: JsonValue | undefined,
  spec: KeySpec,
  label: string,
  key: string,
): KeyWarning[] {
  if (!isTable(table)) return [];
  const out: KeyWarning[] = [];
  for (const [k, v] of Object.entries(table)) {
    const at = `${key}.${k}`;
    const reason = spec.notImplemented?.[k];
    if (reason !== undefined) {
      out.push({
        key: at,
        code: "not_implemented",
        message: `'${k}' in [${label}] is not implemented yet and is ignored: ${reason}`,
      });
      continue;
    }
    if (!spec.keys.includes(k)) {
      out.push({
        key: at,
        code: "unknown_key",
        message: `unknown key '${k}' in [${label}] (ignored; expected one of: ${
          spec.keys.join(", ")
        })`,
      });
      continue;
    }
    const sub = spec.nested?.[k];
    if (!sub) continue;
    const subLabel = `${label}.${k}`;
    if (Array.isArray(v)) {
      v.forEach((item, i) => out.push(...checkKeys(item, sub, subLabel, `${at}[${i}]`)));
    } else out.push(...checkKeys(v, sub, subLabel, at));
  }
  return out;
}

/** Nested tables of a `[[control.target]]` (C12–C14, C30); its own keys are checked by C50. */
export const CONTROL_TARGET_NESTED: KeySpec = {
  keys: [],
  nested: {
    resource: { keys: ["type", "name", "properties"] },
    relation: { keys: ["type", "properties"] },
    resource_links: { keys: ["with", "name", "match_with", "relation_type", "direction"] },
    map: {
      keys: [
        "derived_type",
        "origin_resource_types",
        "origin_resource_type",
        "target_resource_type",
        "primary_relation_type",
        "property_on_relation",
        "link_relation_to_target",
        "secondary_relation_type",
        "property_map_overrides",
      ],
    },
  },
};

/**
 * Unknown keys of the sub-tables of one compliance target (`resource`, `relation`,
 * `resource_links`, `map`); `key` is the target's key, e.g. `target[0]`.
 *
 * @example
 * ```ts
 * import { controlTargetKeyWarnings } from "./known_keys.ts";
 * const w = controlTargetKeyWarnings({ resource: { type: "t", nam: "x" } }, "target[0]");
 * console.log(w[0].key); // "target[0].resource.nam"
 * ```
 */
export function controlTargetKeyWarnings(
  target: Record<string, JsonValue>,
  key: string,
): KeyWarning[] {
  const only: Record<string, JsonValue> = {};
  for (const k of Object.keys(CONTROL_TARGET_NESTED.nested!)) {
    if (target[k] !== undefined) only[k] = target[k];
  }
  return checkKeys(
    only,
    { ...CONTROL_TARGET_NESTED, keys: Object.keys(only) },
    "control.target",
    key,
  );
}
