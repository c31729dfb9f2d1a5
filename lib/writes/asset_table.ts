/**
 * One asset CSV file opened for writing: its editor, its declaration and how a row's primary key
 * is computed (assets.md A6: `name_template` when declared, else the `name` column, else the
 * first column — the same rule the asset phase uses, so a write addresses exactly the resource
 * the graph shows).
 *
 * @module
 */
import type { CsvEditor } from "../formats/csv_edit.ts";
import type { AssetDeclaration } from "../workspace/manifest.ts";
import { keyColumnIndex } from "../pipeline/assets.ts";
import { checkDeclaredColumns } from "./cells.ts";
import { WriteError } from "./errors.ts";

/** Where an asset lives and what it is. */
export interface AssetTarget {
  /** Workspace path, e.g. `assets/inventx/a.csv`. */
  readonly path: string;
  /** Path relative to `assets/` (what the REST API calls the file name). */
  readonly file: string;
  /** Resource type of its rows. */
  readonly type: string;
  /** Its manifest declaration, when any. */
  readonly declaration?: AssetDeclaration;
}

/** Computes the primary key of a row from its cells (column name → text). */
export type RowKeyFn = (row: Readonly<Record<string, string>>) => string;

/** A row given by a client: column name → cell text. */
export type RowValues = Readonly<Record<string, string>>;

/**
 * An asset file being edited. All changes go through here so that key lookups stay consistent
 * and every written row is validated against the declared columns.
 *
 * @example
 * ```ts
 * import { CsvEditor } from "../formats/csv_edit.ts";
 * import { AssetTable } from "./asset_table.ts";
 * const editor = CsvEditor.parse("name,os\nweb-1,linux\n", "assets/host.csv");
 * const table = new AssetTable(editor, { path: "assets/host.csv", file: "host.csv", type: "host" });
 * table.upsert([{ name: "web-1", os: "bsd" }]);
 * console.log(editor.toString()); // "name,os\nweb-1,bsd\n"
 * ```
 */
export class AssetTable {
  readonly #keyOf: RowKeyFn;
  readonly #templated: boolean;
  #index: Map<string, number[]> | undefined;

  /**
   * Opens a table.
   * @param editor the file's editor
   * @param target the asset it holds
   * @param keyOf primary key of a row (defaults to the key column's trimmed cell)
   */
  constructor(readonly editor: CsvEditor, readonly target: AssetTarget, keyOf?: RowKeyFn) {
    const keyColumn = editor.header[keyColumnIndex(editor.header)];
    this.#templated = keyOf !== undefined;
    this.#keyOf = keyOf ?? ((row) => (row[keyColumn] ?? "").trim());
  }

  /** Name of the column that carries the key in the file (`name`, else the first column). */
  get keyColumn(): string {
    return this.editor.header[keyColumnIndex(this.editor.header)];
  }

  /** Number of rows. */
  get rowCount(): number {
    return this.editor.rowCount;
  }

  /** The row as column name → text. */
  rowValues(row: number): Record<string, string> {
    const cells = this.editor.cells(row);
    const out: Record<string, string> = {};
    this.editor.header.forEach((column, i) => (out[column] = cells[i] ?? ""));
    return out;
  }

  /** Primary key of a row given as values. */
  keyOf(values: RowValues): string {
    return this.#keyOf(values);
  }

  /** Indices of the rows whose primary key is `key` (several when the file repeats a key). */
  rowsWithKey(key: string): readonly number[] {
    return this.#keyIndex().get(key) ?? [];
  }

  #keyIndex(): Map<string, number[]> {
    if (this.#index) return this.#index;
    const index = new Map<string, number[]>();
    // A plain key column is read cell by cell; only name_template keys need the whole row.
    const keyColumn = this.#templated ? -1 : this.editor.columnIndex(this.keyColumn);
    for (let row = 0; row < this.editor.rowCount; row++) {
      const key = keyColumn >= 0
        ? this.editor.cell(row, keyColumn).trim()
        : this.#keyOf(this.rowValues(row));
      const rows = index.get(key);
      if (rows) rows.push(row);
      else index.set(key, [row]);
    }
    return (this.#index = index);
  }

  /** Column index of `name`, appending the column when the file lacks it. */
  #column(name: string): number {
    const i = this.editor.columnIndex(name);
    return i >= 0 ? i : this.editor.addColumn(name);
  }

  /** Appends a row; returns its index. The caller has checked that its key is new. */
  append(values: RowValues): number {
    const cells: string[] = [];
    for (const [column, text] of Object.entries(values)) cells[this.#column(column)] = text;
    const row = this.editor.appendRow(Array.from(cells, (c) => c ?? ""));
    const full = this.rowValues(row);
    this.#validate(full);
    if (this.#index) {
      const key = this.#keyOf(full);
      const rows = this.#index.get(key);
      if (rows) rows.push(row);
      else this.#index.set(key, [row]);
    }
    return row;
  }

  /** Sets the given columns of a row (others keep their bytes); re-validates the row. */
  merge(row: number, values: RowValues): void {
    const before = this.#index ? this.#keyOf(this.rowValues(row)) : undefined;
    for (const [column, text] of Object.entries(values)) {
      this.editor.setCell(row, this.#column(column), text);
    }
    const full = this.rowValues(row);
    this.#validate(full);
    if (this.#index && before !== undefined) {
      const after = this.#keyOf(full);
      if (after !== before) {
        const old = this.#index.get(before)!.filter((r) => r !== row);
        if (old.length > 0) this.#index.set(before, old);
        else this.#index.delete(before);
        const rows = this.#index.get(after);
        if (rows) rows.push(row);
        else this.#index.set(after, [row]);
      }
    }
  }

  /** Removes rows by index (any order, duplicates ignored). */
  remove(rows: Iterable<number>): number {
    const removed = this.editor.removeRows(rows);
    if (removed > 0) this.#index = undefined;
    return removed;
  }

  /**
   * Upserts rows by primary key (A29): rows whose key exists are merged (only the given columns
   * change), others are appended. Returns how many rows were changed and added.
   */
  upsert(rows: readonly RowValues[]): { changed: number; added: number } {
    let changed = 0;
    let added = 0;
    for (const values of rows) {
      const key = this.#keyOf(values);
      if (key === "") {
        throw new WriteError(
          "bad-request",
          `${this.target.file}: a row has an empty primary key (column '${this.keyColumn}')`,
          this.keyColumn,
        );
      }
      const existing = this.rowsWithKey(key);
      if (existing.length === 0) {
        this.append(values);
        added++;
      } else {
        for (const row of [...existing]) this.merge(row, values);
        changed++;
      }
    }
    return { changed, added };
  }

  /**
   * Removes the rows matching any of `patterns` (A30): every column a pattern gives must match
   * the row's cell exactly (the key column is compared trimmed). Returns the number removed.
   */
  removeMatching(patterns: readonly RowValues[]): number {
    const keyColumn = this.keyColumn;
    const doomed: number[] = [];
    const byKey = new Map<string, RowValues[]>();
    for (const p of patterns) {
      const key = (p[keyColumn] ?? "").trim();
      const list = byKey.get(key);
      if (list) list.push(p);
      else byKey.set(key, [p]);
    }
    const keyIndex = this.editor.columnIndex(keyColumn);
    for (let row = 0; row < this.editor.rowCount; row++) {
      const candidates = byKey.get(this.editor.cell(row, keyIndex).trim());
      if (!candidates) continue;
      if (candidates.some((p) => this.#matches(row, p, keyColumn))) doomed.push(row);
    }
    return this.remove(doomed);
  }

  #matches(row: number, pattern: RowValues, keyColumn: string): boolean {
    for (const [column, text] of Object.entries(pattern)) {
      if (column === keyColumn) continue;
      const i = this.editor.columnIndex(column);
      const cell = i >= 0 ? this.editor.cell(row, i) : "";
      if (cell !== text) return false;
    }
    return true;
  }

  #validate(values: RowValues): void {
    const key = this.#keyOf(values);
    checkDeclaredColumns(values, this.target.declaration, `${this.target.file}, row '${key}'`);
  }
}
