/**
 * Typed cells of declared asset columns (reference A13, MP31): conversion of a CSV cell to its
 * declared type, and the `allowed_values` check. Shared by asset loading (lib/pipeline/assets.ts)
 * and the write path (lib/writes/cells.ts), so a value the API refuses is the value a load
 * reports.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { ColumnDeclaration } from "../workspace/manifest.ts";
import { splitNames } from "./linking.ts";

/**
 * Converts a cell according to its declared column type (A13). `undefined` = absent.
 *
 * @example
 * ```ts
 * import { convertCell } from "./cell_values.ts";
 * convertCell("80", { type: "integer", required: false }); // { value: 80 }
 * convertCell("x", { type: "integer", required: false }).error; // "'x' is not an integer"
 * ```
 */
export function convertCell(
  value: string,
  column: ColumnDeclaration | undefined,
): { value: JsonValue | undefined; error?: string } {
  if (!column || column.type === "string") return { value };
  const trimmed = value.trim();
  if (trimmed === "") return { value: undefined };
  switch (column.type) {
    case "integer": {
      if (/^[+-]?\d+$/.test(trimmed)) return { value: Number(trimmed) };
      return { value, error: `'${value}' is not an integer` };
    }
    case "number":
    case "float": {
      const n = Number(trimmed);
      if (Number.isFinite(n) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) {
        return { value: n };
      }
      return { value, error: `'${value}' is not a number` };
    }
    case "boolean": {
      if (/^(true|1)$/i.test(trimmed)) return { value: true };
      if (/^(false|0)$/i.test(trimmed)) return { value: false };
      return { value, error: `'${value}' is not a boolean` };
    }
    case "array_of_string":
      return { value: splitNames(trimmed) };
    case "array_of_integer": {
      const parts = splitNames(trimmed);
      if (parts.every((p) => /^[+-]?\d+$/.test(p))) return { value: parts.map(Number) };
      return { value, error: `'${value}' is not a list of integers` };
    }
    default:
      return { value };
  }
}

/**
 * A cell of a declared column as the asset phase loads it (A13, MP30–MP31): its typed value
 * (`undefined` for an empty cell of a typed column) and, when the cell has the wrong type or is
 * not among `allowed_values`, why — a warning of the build; an empty cell is never refused here
 * (`required` is checked on the row: {@link isEmptyValue}).
 *
 * @example
 * ```ts
 * import { loadedCell } from "./cell_values.ts";
 * console.log(loadedCell(" 80 ", { type: "integer", required: false }).value); // 80
 * console.log(loadedCell("x", { type: "integer", required: false }).invalid !== undefined); // true
 * ```
 */
export function loadedCell(
  cell: string,
  spec: ColumnDeclaration,
): { value: JsonValue | undefined; invalid?: string } {
  const { value, error } = convertCell(cell, spec);
  const invalid = error ??
    (cell.trim() === "" ? undefined : allowedValueError(value, spec.allowedValues));
  return invalid === undefined ? { value } : { value, invalid };
}

/** Whether a loaded value leaves a `required` column empty (MP31): absent or the empty string. */
export function isEmptyValue(value: JsonValue | undefined): boolean {
  return value === undefined || value === "";
}

/**
 * Checks a converted cell value against a column's `allowed_values` (MP30–MP31): every item of
 * an array value, or the value itself, must be listed. Returns the reason naming the first value
 * that is not, or `undefined` when all are allowed (or nothing is restricted). A declaration
 * written as strings (`"80"`) accepts the typed value (`80`) and vice versa.
 *
 * @example
 * ```ts
 * import { allowedValueError } from "./cell_values.ts";
 * allowedValueError("prod", ["dev", "prod"]); // undefined
 * allowedValueError("qa", ["dev", "prod"]); // '"qa" is not one of ["dev","prod"]'
 * ```
 */
export function allowedValueError(
  value: JsonValue | undefined,
  allowed: readonly JsonValue[] | undefined,
): string | undefined {
  if (!allowed || value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  const bad = values.find((v) => !allowed.some((a) => sameScalar(a, v)));
  return bad === undefined
    ? undefined
    : `${JSON.stringify(bad)} is not one of ${JSON.stringify(allowed)}`;
}

function sameScalar(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  return (typeof a === "string" || typeof a === "number" || typeof a === "boolean") &&
    (typeof b === "string" || typeof b === "number" || typeof b === "boolean") &&
    String(a) === String(b);
}
