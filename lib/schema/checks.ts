/**
 * The checks of a validation run (reference SV31–SV34, SV40): required properties, relations,
 * cardinality and edge properties, capability coverage, orphans, and in strict mode CSV cell and
 * static edge value conformance.
 *
 * @module
 */
import type { Graph, JsonValue } from "../graph/graph.ts";
import { parseCsv } from "../formats/csv.ts";
import type { Bindings } from "./bind.ts";
import type { Footprint } from "./footprint.ts";
import type { PropertyDef, ValidationIssue } from "./types.ts";

/** An action as far as capability coverage needs it (SV33). */
export interface ActionOffer {
  /** `name` as written (before expansion). */
  name: string;
  /** `capabilities` entries. */
  capabilities: readonly string[];
  /** `origin_resource` of a template action. */
  originType?: string;
  /** Whether the file declares `name` (else `name` is the file's stem). */
  named: boolean;
  /** `description`, when declared. */
  description?: string;
}

/** An asset CSV of the build, with its text (for strict cell checks). */
export interface AssetCsv {
  /** Resource type of its rows. */
  type: string;
  /** File shown in messages, e.g. `assets/host.csv`. */
  file: string;
  /** CSV text. */
  text?: string;
}

/** Inputs of {@link runChecks}. */
export interface CheckInput {
  /** The built graph. */
  graph: Graph;
  /** Effective definitions of bound types. */
  bindings: Bindings;
  /** Static footprint. */
  footprint: Footprint;
  /** Actions of every layer. */
  actions: readonly ActionOffer[];
  /** Asset CSVs. */
  assets: readonly AssetCsv[];
  /** Strict mode (SV40). */
  strict: boolean;
}

/**
 * Whether a JSON value conforms to a property definition (type and enum).
 *
 * @example
 * ```ts
 * import { valueConforms } from "./checks.ts";
 * console.log(valueConforms(3, { type: ["integer"] }), valueConforms("x", { type: ["integer"] })); // true false
 * ```
 */
export function valueConforms(value: JsonValue, def: PropertyDef): boolean {
  if (def.enum && !def.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return false;
  if (!def.type) return true;
  return def.type.some((t) => {
    switch (t) {
      case "string":
        return typeof value === "string";
      case "integer":
        return typeof value === "number" && Number.isInteger(value);
      case "number":
        return typeof value === "number";
      case "boolean":
        return typeof value === "boolean";
      case "array":
        return Array.isArray(value) &&
          (!def.items || value.every((v) => valueConforms(v, def.items!)));
      case "object":
        return typeof value === "object" && value !== null && !Array.isArray(value);
    }
  });
}

/**
 * Whether a CSV cell (text) conforms: integers, numbers and booleans are read from the text
 * (`true`/`false` in any case), enums compare the text with each value's text.
 *
 * @example
 * ```ts
 * import { cellConforms } from "./checks.ts";
 * console.log(cellConforms("42", { type: ["integer"] }), cellConforms("TRUE", { type: ["boolean"] })); // true true
 * ```
 */
export function cellConforms(cell: string, def: PropertyDef): boolean {
  const text = cell.trim();
  if (def.enum && !def.enum.some((e) => (typeof e === "string" ? e : JSON.stringify(e)) === text)) {
    return false;
  }
  if (!def.type) return true;
  return def.type.some((t) => {
    switch (t) {
      case "string":
        return true;
      case "integer":
        return /^[-+]?\d+$/.test(text);
      case "number":
        return text !== "" && Number.isFinite(Number(text));
      case "boolean":
        return /^(true|false)$/i.test(text);
      case "array":
        return true;
      case "object":
        try {
          const v = JSON.parse(text);
          return typeof v === "object" && v !== null && !Array.isArray(v);
        } catch {
          return false;
        }
    }
  });
}

function describe(def: PropertyDef): string {
  const parts: string[] = [];
  if (def.type) parts.push(def.type.join(" or "));
  if (def.enum) parts.push(`one of ${JSON.stringify(def.enum)}`);
  return parts.join(", ");
}

/**
 * Runs the checks over bound types; every finding goes to `report`.
 *
 * @example
 * ```ts ignore
 * runChecks({ graph, bindings, footprint, actions: [], assets: [], strict: false }, (i) => out.push(i));
 * ```
 */
export function runChecks(input: CheckInput, report: (issue: ValidationIssue) => void): void {
  const { graph, bindings, footprint } = input;
  for (const [type, { def, from }] of bindings) {
    const resources = graph.resourcesOf(type);
    const keys = footprint.keys.get(type);
    for (const p of [...def.required].sort()) {
      if (p === "name" || keys?.has(p)) continue;
      if (resources.some((r) => r.properties[p] !== undefined)) continue;
      report({
        severity: "error",
        code: "missing_required_property",
        message: `required property '${p}' of '${type}' (schema '${from}') is created by no module`,
        schema_id: from,
        resource_type: type,
        property: p,
      });
    }
    for (const [label, rel] of [...def.relations].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
      const edgeKeys = new Set(footprint.edgeKeys.get(label) ?? []);
      for (const r of resources) {
        const out = graph.outgoing(r, label).filter((e) =>
          !rel.target || e.target.type === rel.target
        );
        for (const e of out) for (const k of Object.keys(e.properties)) edgeKeys.add(k);
        if (rel.required && out.length === 0) {
          report({
            severity: "error",
            code: "missing_required_relation",
            message: `${type} '${r.name}' has no relation '${label}' to a ${
              rel.target ?? "resource"
            }`,
            schema_id: rel.from,
            resource_type: type,
            resource: r.name,
            relation: label,
          });
        }
        if (rel.cardinality === "one" && out.length > 1) {
          report({
            severity: "error",
            code: "relation_cardinality_exceeded",
            message: `${type} '${r.name}' has ${out.length} relations '${label}' (cardinality one)`,
            schema_id: rel.from,
            resource_type: type,
            resource: r.name,
            relation: label,
          });
        }
      }
      for (const p of [...rel.edgeRequired].sort()) {
        if (edgeKeys.has(p)) continue;
        report({
          severity: "error",
          code: "missing_required_edge_property",
          message:
            `required edge property '${p}' of relation '${label}' of '${type}' is provided by no edge`,
          schema_id: rel.from,
          resource_type: type,
          relation: label,
          property: p,
        });
      }
      if (input.strict) {
        for (const v of footprint.edgeValues.get(label) ?? []) {
          const d = rel.edgeProperties.get(v.key);
          if (!d || valueConforms(v.value, d)) continue;
          report({
            severity: "error",
            code: "relation_property_type_mismatch",
            message: `${v.file}: edge property '${v.key}' of relation '${label}' is ${
              JSON.stringify(v.value)
            }, expected ${describe(d)}`,
            schema_id: rel.from,
            resource_type: type,
            relation: label,
            property: v.key,
            file: v.file,
            module: v.module,
          });
        }
      }
      for (const verb of rel.capabilities.keys()) {
        if (offered(input.actions, type, verb, label)) continue;
        report({
          severity: "warning",
          code: "capability_not_covered",
          message: `no action offers '${type}.${label}.${verb}'`,
          schema_id: rel.from,
          resource_type: type,
          relation: label,
        });
      }
    }
    for (const verb of def.capabilities.keys()) {
      if (offered(input.actions, type, verb)) continue;
      report({
        severity: "warning",
        code: "capability_not_covered",
        message: `no action offers '${type}.${verb}'`,
        schema_id: from,
        resource_type: type,
      });
    }
  }
  for (const a of input.assets) {
    for (const r of graph.resourcesOf(a.type)) {
      if (graph.outgoing(r).length > 0 || graph.incoming(r).length > 0) continue;
      report({
        severity: "info",
        code: "orphan_resource",
        message: `${a.type} '${r.name}' has no relation`,
        resource_type: a.type,
        resource: r.name,
      });
    }
  }
  if (input.strict) { for (const a of input.assets) csvCells(a, bindings, report); }
}

/** SV33: `T.verb` in `capabilities`, a `name` of `T.verb`, or a template on `T` named `verb`. */
function offered(actions: readonly ActionOffer[], type: string, verb: string, label?: string) {
  const want = label ? `${type}.${label}.${verb}` : `${type}.${verb}`;
  return actions.some((a) =>
    a.capabilities.includes(want) || a.name === want ||
    (!label && a.originType === type && a.name === verb)
  );
}

function csvCells(a: AssetCsv, bindings: Bindings, report: (i: ValidationIssue) => void): void {
  const bound = bindings.get(a.type);
  if (!bound || a.text === undefined) return;
  let doc;
  try {
    doc = parseCsv(a.text, a.file);
  } catch {
    return; // the build reports unreadable CSVs
  }
  const cols = doc.header.map((h) => bound.def.properties.get(h));
  doc.rows.forEach((row, i) => {
    row.cells.forEach((cell, c) => {
      const def = cols[c];
      if (!def || cell.trim() === "" || cellConforms(cell, def)) return;
      const column = doc.header[c];
      report({
        severity: "error",
        code: "csv_value_invalid",
        message: `${a.file} row ${i + 2} column '${column}': value ${JSON.stringify(cell)} is not ${
          describe(def)
        }`,
        schema_id: bound.from,
        resource_type: a.type,
        property: column,
        file: a.file,
        row: i + 2,
        column,
      });
    });
  });
}
