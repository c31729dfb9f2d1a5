/**
 * Cell values of written rows: JSON values from auto-CRUD bodies become CSV cells (reference
 * R13), and every written row is checked against the asset's declared columns (type, `required`,
 * `allowed_values`; assets.md A13, rest-api.md R10).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { AssetDeclaration } from "../workspace/manifest.ts";
import { allowedValueError, convertCell } from "../pipeline/cell_values.ts";
import { WriteError } from "./errors.ts";

/**
 * Converts one JSON field value into cell text (R13): strings as they are, numbers in shortest
 * round-trip form, booleans as `true`/`false`, arrays of scalars joined with `,`, `null` as an
 * empty cell. Objects (and arrays holding objects) are a {@link WriteError}.
 *
 * @example
 * ```ts
 * import { jsonToCell } from "./cells.ts";
 * jsonToCell(["a", "b"], "tags"); // "a,b"
 * jsonToCell(0.1, "weight"); // "0.1"
 * ```
 */
export function jsonToCell(value: JsonValue | undefined, field: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new WriteError("bad-request", `field '${field}': ${value} is not a number`, field);
    }
    return String(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) {
    return value.map((item) => {
      if (item !== null && typeof item === "object") {
        throw new WriteError(
          "bad-request",
          `field '${field}': arrays may hold only strings, numbers and booleans`,
          field,
        );
      }
      return jsonToCell(item, field);
    }).join(",");
  }
  throw new WriteError(
    "bad-request",
    `field '${field}': objects cannot be stored in a CSV cell`,
    field,
  );
}

/**
 * Checks a row (column name → cell text) against the declared columns: types, required values
 * and allowed values. Throws a `validation-failed` {@link WriteError} naming the first offending
 * column; `where` says which row (e.g. `host.csv, row 'web-1'`).
 *
 * @example
 * ```ts
 * import { checkDeclaredColumns } from "./cells.ts";
 * checkDeclaredColumns({ name: "web-1", port: "80" }, undefined, "host.csv"); // no declaration: ok
 * ```
 */
export function checkDeclaredColumns(
  row: Readonly<Record<string, string>>,
  declaration: AssetDeclaration | undefined,
  where: string,
): void {
  if (!declaration) return;
  for (const [column, spec] of declaration.columns) {
    const cell = row[column] ?? "";
    if (cell.trim() === "") {
      if (spec.required) {
        throw new WriteError(
          "validation-failed",
          `${where}: required column '${column}' is empty`,
          column,
        );
      }
      continue;
    }
    const { value, error } = convertCell(cell, spec);
    const invalid = error ?? allowedValueError(value, spec.allowedValues);
    if (invalid) {
      throw new WriteError("validation-failed", `${where}: column '${column}': ${invalid}`, column);
    }
  }
}
