/**
 * Types of central schemas (`*.schema.json`, reference SV1–SV2) and of validation reports
 * (SV35–SV36).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";

/** A property type name (SV2): `string`, `integer`, `boolean`, `number`, `array`, `object`. */
export type PropertyTypeName = "string" | "integer" | "boolean" | "number" | "array" | "object";

/** Every property type name a schema may use. */
export const PROPERTY_TYPES: readonly PropertyTypeName[] = [
  "string",
  "integer",
  "boolean",
  "number",
  "array",
  "object",
];

/** A JSON-Schema-like property definition (SV2). */
export interface PropertyDef {
  /** Allowed types (a set; `undefined` = any). */
  type?: PropertyTypeName[];
  /** Allowed values (`undefined` = any). */
  enum?: JsonValue[];
  /** Item type of an `array`. */
  items?: PropertyDef;
  /** Documentation. */
  description?: string;
}

/** `capabilities.actions.<verb>` (SV2). */
export type Capabilities = Map<string, { description?: string }>;

/** `relations.<label>` (SV2). */
export interface RelationDef {
  /** Target resource type. */
  target?: string;
  /** Whether every resource must have the relation. */
  required: boolean;
  /** `one` or `many` (default `many`). */
  cardinality: "one" | "many";
  /** Declared edge properties. */
  edgeProperties: Map<string, PropertyDef>;
  /** Required edge property names. */
  edgeRequired: Set<string>;
  /** Lifecycle verbs offered on the relation. */
  capabilities: Capabilities;
  /** `schema_id` that declared target/cardinality last (for messages). */
  from: string;
}

/** `resources.<type>` (SV2), after parsing. */
export interface ResourceDef {
  /** Required property names. */
  required: Set<string>;
  /** Declared properties. */
  properties: Map<string, PropertyDef>;
  /** Base types (SV4). */
  implements: string[];
  /** Relations by label. */
  relations: Map<string, RelationDef>;
  /** Lifecycle verbs of the resource. */
  capabilities: Capabilities;
}

/** A loaded schema file. */
export interface Schema {
  /** `schema_id`. */
  id: string;
  /** `version`. */
  version: string;
  /** Where it was loaded from (path or URL, as declared). */
  origin: string;
  /** Definitions by resource type. */
  resources: Map<string, ResourceDef>;
}

/** Severity of a validation issue (SV35). */
export type ValidationSeverity = "error" | "warning" | "info";

/** One validation issue (SV35). */
export interface ValidationIssue {
  /** `error`, `warning` or `info`. */
  severity: ValidationSeverity;
  /** Stable code (SV31). */
  code: string;
  /** Human-readable message. */
  message: string;
  /** Schema involved. */
  schema_id?: string;
  /** Resource type involved. */
  resource_type?: string;
  /** Resource name involved. */
  resource?: string;
  /** Property involved. */
  property?: string;
  /** Relation label involved. */
  relation?: string;
  /** Module (layer id) involved. */
  module?: string;
  /** File involved (workspace-relative). */
  file?: string;
  /** 1-based row of a CSV file (header = row 1). */
  row?: number;
  /** Column name of a CSV file. */
  column?: string;
  /** True when strict mode raised a warning to an error. */
  promoted?: boolean;
}

/** A validation report (SV36). */
export interface ValidationReport {
  /** Number of errors. */
  error_count: number;
  /** Number of warnings. */
  warning_count: number;
  /** Number of info issues. */
  info_count: number;
  /** Issues, sorted (SV35). */
  issues: ValidationIssue[];
}
