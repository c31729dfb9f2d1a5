/**
 * Compliance merge semantics (reference C40) and control entries (C41).
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";

/**
 * Aggregates `incoming` into `existing` (C40): both sides are seen as lists (a scalar is a
 * one-element list, each element of an incoming array is appended), duplicates are dropped by deep
 * equality, empty strings (empty CSV cells, A12) are dropped next to other values, and a single
 * remaining element is stored as a scalar.
 *
 * @example
 * ```ts
 * import { aggregate } from "./merge.ts";
 * console.log(aggregate("pci", "gdpr"), aggregate("pci", "pci")); // ["pci","gdpr"] "pci"
 * ```
 */
export function aggregate(existing: JsonValue | undefined, incoming: JsonValue): JsonValue {
  const out: JsonValue[] = existing === undefined ? [] : Array.isArray(existing) ? [] : [existing];
  if (Array.isArray(existing)) { for (const v of existing) pushUnique(out, v); }
  if (Array.isArray(incoming)) { for (const v of incoming) pushUnique(out, v); }
  else pushUnique(out, incoming);
  // An empty CSV cell is an empty value (A12), not an item: `""` + `"pci"` is `"pci"`.
  const items = out.length > 1 ? out.filter((v) => v !== "") : out;
  return items.length === 1 ? items[0] : items;
}

function pushUnique(list: JsonValue[], v: JsonValue): void {
  if (!list.some((x) => deepEqual(x, v))) list.push(v);
}

/**
 * Deep equality of JSON values (object key order does not matter).
 *
 * @example
 * ```ts
 * import { deepEqual } from "./merge.ts";
 * console.log(deepEqual({ a: 1, b: [2] }, { b: [2], a: 1 })); // true
 * ```
 */
export function deepEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as JsonValue[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, JsonValue>;
  const bo = b as Record<string, JsonValue>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

/** What a control entry is built from. */
export interface ControlEntrySource {
  /** Control id. */
  controlId: string;
  /** Control name. */
  controlName: string;
  /** Audit id of the file. */
  auditId: string;
  /** Target description (evidence). */
  evidence?: string;
  /** Config values to copy (C21). */
  config: Record<string, JsonValue>;
}

/**
 * The control entry of C41: `control_id`, `control_name`, `audit_id`, `evidence_summary` (when
 * the target has a description), then the selected config values.
 *
 * @example
 * ```ts
 * import { controlEntry } from "./merge.ts";
 * const e = controlEntry({ controlId: "C1", controlName: "TLS", auditId: "A", config: { min: "1.2" } });
 * console.log(JSON.stringify(e)); // {"control_id":"C1","control_name":"TLS","audit_id":"A","min":"1.2"}
 * ```
 */
export function controlEntry(s: ControlEntrySource): Record<string, JsonValue> {
  const entry: Record<string, JsonValue> = {
    control_id: s.controlId,
    control_name: s.controlName,
    audit_id: s.auditId,
  };
  if (s.evidence !== undefined) entry.evidence_summary = s.evidence;
  for (const [k, v] of Object.entries(s.config)) {
    if (!Object.hasOwn(entry, k)) entry[k] = v;
  }
  return entry;
}
