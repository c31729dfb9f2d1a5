/**
 * The CSV texts of multipart asset writes (reference R3–R6): `update` and `remove` carry a header
 * and rows; they are parsed strictly, and any problem is a `400` naming the form field, line and
 * column.
 *
 * @module
 */
import { parseCsv } from "../formats/csv.ts";
import { ParseError } from "../formats/errors.ts";
import type { RowValues } from "./asset_table.ts";
import { WriteError } from "./errors.ts";

/** Rows of a form field's CSV text, with its header. */
export interface FormRows {
  /** Header names of the submitted CSV. */
  header: string[];
  /** Rows as column name → cell text. */
  rows: RowValues[];
}

/**
 * Parses the CSV text of form field `field`; a malformed text (broken quotes, ragged rows, empty
 * or duplicate header) is a `bad-request` {@link WriteError} located as `field:line:column`.
 *
 * @example
 * ```ts
 * import { parseFormRows } from "./form_rows.ts";
 * parseFormRows("name,os\nweb-1,linux\n", "update").rows; // [{ name: "web-1", os: "linux" }]
 * ```
 */
export function parseFormRows(text: string, field: string): FormRows {
  try {
    const doc = parseCsv(text, `form field '${field}'`);
    if (doc.errors.length > 0) throw doc.errors[0];
    const rows = doc.rows.map((row) => {
      const values: Record<string, string> = {};
      doc.header.forEach((column, i) => (values[column] = row.cells[i]));
      return values;
    });
    return { header: doc.header, rows };
  } catch (e) {
    if (e instanceof ParseError) throw new WriteError("bad-request", e.message, field);
    throw e;
  }
}
