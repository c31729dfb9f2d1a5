/**
 * Merging several definitions of one resource type (reference SV20–SV22) and expanding
 * `implements` bases (SV4).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { PropertyDef, RelationDef, ResourceDef, Schema, ValidationIssue } from "./types.ts";

/** A definition with the name of the schema(s) it comes from (for messages). */
export interface LabelledDef {
  /** The definition. */
  def: ResourceDef;
  /** `schema_id` (or `a+b` for merged ones). */
  from: string;
}

/** An empty definition. */
export function emptyDef(): ResourceDef {
  return {
    required: new Set(),
    properties: new Map(),
    implements: [],
    relations: new Map(),
    capabilities: new Map(),
  };
}

function sameValue(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function mergeProperty(
  a: PropertyDef,
  b: PropertyDef,
  conflict: (what: string) => void,
): PropertyDef {
  const out: PropertyDef = { ...a };
  if (b.type) {
    if (!a.type) out.type = [...b.type];
    else {
      // `number` admits integers: integer ∩ number = integer.
      const types = a.type.filter((t) => b.type!.includes(t));
      if (a.type.includes("number") && b.type.includes("integer")) types.push("integer");
      if (b.type.includes("number") && a.type.includes("integer")) types.push("integer");
      out.type = [...new Set(types)];
      if (out.type.length === 0) {
        conflict(`types ${JSON.stringify(a.type)} and ${JSON.stringify(b.type)} do not intersect`);
      }
    }
  }
  if (b.enum) {
    if (!a.enum) out.enum = [...b.enum];
    else {
      out.enum = a.enum.filter((v) => b.enum!.some((w) => sameValue(v, w)));
      if (out.enum.length === 0) {
        conflict(`enums ${JSON.stringify(a.enum)} and ${JSON.stringify(b.enum)} do not intersect`);
      }
    }
  }
  if (b.items) out.items = a.items ? mergeProperty(a.items, b.items, conflict) : b.items;
  if (out.description === undefined && b.description !== undefined) {
    out.description = b.description;
  }
  return out;
}

/**
 * Merges `b` into `a` (SV20); `b` is the later one. Conflicts are reported through `report`
 * (SV21 `property_type_conflict`, SV22 `relation_conflict`). Returns a new definition.
 *
 * @example
 * ```ts
 * import { emptyDef, mergeDefs } from "./merge.ts";
 * const a = emptyDef(); a.required.add("name");
 * const b = emptyDef(); b.required.add("arch");
 * const m = mergeDefs({ def: a, from: "x" }, { def: b, from: "y" }, "host", () => {});
 * console.log([...m.def.required]); // ["name", "arch"]
 * ```
 */
export function mergeDefs(
  a: LabelledDef,
  b: LabelledDef,
  type: string,
  report: (issue: ValidationIssue) => void,
): LabelledDef {
  const out = emptyDef();
  for (const r of a.def.required) out.required.add(r);
  for (const r of b.def.required) out.required.add(r);
  for (const [p, d] of a.def.properties) out.properties.set(p, d);
  for (const [p, d] of b.def.properties) {
    const prev = out.properties.get(p);
    out.properties.set(
      p,
      prev
        ? mergeProperty(prev, d, (what) =>
          report({
            severity: "error",
            code: "property_type_conflict",
            message:
              `property '${p}' of '${type}': schemas '${a.from}' and '${b.from}' conflict: ${what}`,
            resource_type: type,
            property: p,
            schema_id: b.from,
          }))
        : d,
    );
  }
  out.implements = [...new Set([...a.def.implements, ...b.def.implements])];
  for (const [l, r] of a.def.relations) out.relations.set(l, r);
  for (const [l, r] of b.def.relations) {
    const prev = out.relations.get(l);
    out.relations.set(l, prev ? mergeRelation(prev, r, type, l, a.from, b.from, report) : r);
  }
  for (const [v, c] of a.def.capabilities) out.capabilities.set(v, c);
  for (const [v, c] of b.def.capabilities) if (!out.capabilities.has(v)) out.capabilities.set(v, c);
  return { def: out, from: a.from === b.from ? a.from : `${a.from}+${b.from}` };
}

function mergeRelation(
  a: RelationDef,
  b: RelationDef,
  type: string,
  label: string,
  fromA: string,
  fromB: string,
  report: (issue: ValidationIssue) => void,
): RelationDef {
  const target = b.target ?? a.target;
  if (
    (a.target !== undefined && b.target !== undefined && a.target !== b.target) ||
    a.cardinality !== b.cardinality
  ) {
    report({
      severity: "warning",
      code: "relation_conflict",
      message: `relation '${label}' of '${type}': schemas '${fromA}' (target ${
        a.target ?? "any"
      }, cardinality ${a.cardinality}) and '${fromB}' (target ${
        b.target ?? "any"
      }, cardinality ${b.cardinality}) differ; '${fromB}' wins`,
      resource_type: type,
      relation: label,
      schema_id: fromB,
    });
  }
  const edgeProperties = new Map(a.edgeProperties);
  for (const [p, d] of b.edgeProperties) {
    const prev = edgeProperties.get(p);
    edgeProperties.set(
      p,
      prev
        ? mergeProperty(prev, d, (what) =>
          report({
            severity: "error",
            code: "property_type_conflict",
            message:
              `edge property '${p}' of relation '${label}' of '${type}': schemas '${fromA}' and '${fromB}' conflict: ${what}`,
            resource_type: type,
            relation: label,
            property: p,
            schema_id: fromB,
          }))
        : d,
    );
  }
  const capabilities = new Map(a.capabilities);
  for (const [v, c] of b.capabilities) if (!capabilities.has(v)) capabilities.set(v, c);
  return {
    target,
    required: a.required || b.required,
    cardinality: b.cardinality,
    edgeProperties,
    edgeRequired: new Set([...a.edgeRequired, ...b.edgeRequired]),
    capabilities,
    from: b.from,
  };
}

/**
 * Expands the `implements` bases of `type` as defined by `schema` (SV4): each base is looked up
 * in `pool` (every loaded schema in load order), expanded recursively and merged; the type's own
 * definition is merged last. Unknown base → `schema_unknown_base`; cycle →
 * `schema_implements_cycle`.
 *
 * @example
 * ```ts
 * import { parseSchema } from "./parse.ts";
 * import { expandDef } from "./merge.ts";
 * const s = parseSchema(JSON.stringify({ schema_id: "s", version: "1", resources: {
 *   compute: { required: ["arch"] }, gateway: { implements: ["compute"] } } }), "s.json");
 * const d = expandDef(s, "gateway", [s], () => {});
 * console.log([...d!.def.required]); // ["arch"]
 * ```
 */
export function expandDef(
  schema: Schema,
  type: string,
  pool: readonly Schema[],
  report: (issue: ValidationIssue) => void,
  stack: readonly string[] = [],
): LabelledDef | undefined {
  const own = schema.resources.get(type);
  if (!own) return undefined;
  if (stack.includes(type)) {
    report({
      severity: "error",
      code: "schema_implements_cycle",
      message: `schema '${schema.id}': implements cycle ${[...stack, type].join(" → ")}`,
      schema_id: schema.id,
      resource_type: type,
    });
    return undefined;
  }
  let acc: LabelledDef | undefined;
  for (const base of own.implements) {
    const definers = pool.filter((s) => s.resources.has(base));
    if (definers.length === 0) {
      report({
        severity: "error",
        code: "schema_unknown_base",
        message:
          `schema '${schema.id}': '${type}' implements '${base}', which no loaded schema defines`,
        schema_id: schema.id,
        resource_type: type,
      });
      continue;
    }
    for (const d of definers) {
      const expanded = expandDef(d, base, pool, report, [...stack, type]);
      if (expanded) acc = acc ? mergeDefs(acc, expanded, type, report) : expanded;
    }
  }
  const self: LabelledDef = { def: own, from: schema.id };
  return acc ? mergeDefs(acc, self, type, report) : self;
}
