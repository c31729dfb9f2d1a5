/**
 * One rendered `[[write]]` applied to its table (reference AC41, AC45, spec §3): row matching by
 * `lookup_by`, `expect` preconditions, the lifecycle transition rules, the repeated-finalising
 * no-op, and intake returning an existing non-final item. Errors are {@link ContractCallError}s;
 * the caller's transaction then writes nothing.
 *
 * @module
 */
import type { AssetTable } from "../writes/asset_table.ts";
import { effectiveState, predecessors, TERMINAL_STATES } from "./lifecycle.ts";
import type { RenderedWrite } from "./render.ts";
import { ContractCallError, type WriteAction } from "./types.ts";

/** What happened to one write (AC44). */
export type WriteResult =
  | "created"
  | "updated"
  | "deleted"
  | "unchanged"
  | "existing"
  | "restarted"
  | "skipped";

/** The outcome of one write, as the response lists it (AC44). */
export interface WriteOutcome {
  /** The asset as the contract names it. */
  target_asset: string;
  /** The write's action. */
  action: WriteAction;
  /** Primary key of the (first) row written or found; empty when none. */
  key: string;
  /** What happened. */
  result: WriteResult;
  /** Intake only: the item (the existing one, or the one created). */
  item?: Record<string, string>;
}

/**
 * Applies `w` to `table` (`undefined` when the file is missing and the action cannot create
 * it). `now` is the call's clock (expiry). Returns the outcome; throws on refusal.
 *
 * @example
 * ```ts
 * import { CsvEditor } from "../formats/csv_edit.ts";
 * import { AssetTable } from "../writes/asset_table.ts";
 * import { applyWrite } from "./apply.ts";
 * const t = new AssetTable(CsvEditor.parse("name,v\na,1\n", "assets/t.csv"), { path: "assets/t.csv", file: "t.csv", type: "t" });
 * const write = { index: 0, targetAsset: "t", action: "update" as const, record: { v: "1" }, lookupBy: {}, expect: {}, location: "c.toml:1" };
 * console.log(applyWrite(t, { write, record: { name: "a", v: "1" }, lookupBy: {} }, new Date()).result); // "unchanged"
 * ```
 */
export function applyWrite(
  table: AssetTable | undefined,
  w: RenderedWrite,
  now: Date,
): WriteOutcome {
  const { write } = w;
  const out = (key: string, result: WriteResult, item?: Record<string, string>): WriteOutcome => ({
    target_asset: write.targetAsset,
    action: write.action,
    key,
    result,
    ...(item ? { item } : {}),
  });
  const where = `${write.location}: ${write.targetAsset}`;
  if (!table) {
    if (write.action === "delete") return out("", "unchanged");
    throw new ContractCallError(404, "not-found", `${where}: the asset file does not exist`);
  }
  checkColumns(table, w);
  switch (write.action) {
    case "add": {
      const key = requireKey(table, w.record, where);
      if (table.rowsWithKey(key).length > 0) {
        throw new ContractCallError(409, "duplicate-key", `${where} '${key}' already exists`);
      }
      table.append(w.record);
      return out(key, "created");
    }
    case "upsert":
    case "update": {
      const rows = matchRows(table, w);
      if (rows.length === 0) {
        if (write.action === "update") {
          throw new ContractCallError(404, "not-found", `${where}: no row matches`);
        }
        const values = { ...w.lookupBy, ...w.record };
        const key = requireKey(table, values, where);
        if (table.rowsWithKey(key).length > 0) {
          throw new ContractCallError(409, "duplicate-key", `${where} '${key}' already exists`);
        }
        table.append(values);
        return out(key, "created");
      }
      const key = table.keyOf(table.rowValues(rows[0]));
      // AC45: a finalising call repeated finds every value in place: a no-op, not a 409.
      if (rows.every((r) => equalsRecord(table.rowValues(r), w.record))) {
        return out(key, "unchanged");
      }
      for (const r of rows) checkTransition(table, r, w, now, where);
      for (const r of rows) table.merge(r, w.record);
      return out(table.keyOf(table.rowValues(rows[0])), "updated");
    }
    case "delete": {
      const rows = matchRows(table, w);
      if (rows.length === 0) return out("", "unchanged");
      for (const r of rows) checkExpect(table, r, w, now, where);
      const key = table.keyOf(table.rowValues(rows[0]));
      table.remove(rows);
      return out(key, "deleted");
    }
    case "intake":
      return intake(table, w, now, where, out);
  }
}

/** Spec §3 rule 3: an existing non-final, unexpired item is returned; else a new cycle starts. */
function intake(
  table: AssetTable,
  w: RenderedWrite,
  now: Date,
  where: string,
  out: (key: string, result: WriteResult, item?: Record<string, string>) => WriteOutcome,
): WriteOutcome {
  const { write } = w;
  const state = write.state!;
  for (const r of matchRows(table, w)) {
    const row = table.rowValues(r);
    if (!TERMINAL_STATES.has(effectiveState(row, state, write.expires, now))) {
      return out(table.keyOf(row), "existing", row);
    }
  }
  const values: Record<string, string> = { ...w.lookupBy, ...w.record };
  if (!values[state]) values[state] = "pending";
  if (write.expires && write.ttlMs !== undefined) {
    values[write.expires] = new Date(now.getTime() + write.ttlMs).toISOString();
  }
  const key = requireKey(table, values, where);
  const same = table.rowsWithKey(key);
  if (same.length > 0) {
    const row = table.rowValues(same[0]);
    if (!TERMINAL_STATES.has(effectiveState(row, state, write.expires, now))) {
      throw new ContractCallError(409, "duplicate-key", `${where} '${key}' already exists`);
    }
    // The previous item under this key is terminal: its row starts the new cycle.
    for (const r of [...same]) table.merge(r, values);
    return out(key, "restarted", table.rowValues(table.rowsWithKey(key)[0]));
  }
  const row = table.append(values);
  return out(key, "created", table.rowValues(row));
}

/** Rows matching `lookup_by` (every column equal), or the record's key without one. */
function matchRows(table: AssetTable, w: RenderedWrite): number[] {
  const lookup = Object.entries(w.lookupBy);
  if (lookup.length === 0) {
    const key = table.keyOf(w.record);
    return key === "" ? [] : [...table.rowsWithKey(key)];
  }
  const templated = table.target.declaration?.nameTemplate !== undefined;
  const keyColumn = table.keyColumn;
  const byKey = !templated ? w.lookupBy[keyColumn] : undefined;
  const candidates = byKey !== undefined
    ? table.rowsWithKey(byKey.trim())
    : Array.from({ length: table.rowCount }, (_, i) => i);
  return candidates.filter((r) => {
    const row = table.rowValues(r);
    return lookup.every(([column, value]) => (row[column] ?? "").trim() === value.trim());
  });
}

function equalsRecord(row: Readonly<Record<string, string>>, record: Record<string, string>) {
  return Object.entries(record).every(([c, v]) => (row[c] ?? "").trim() === v.trim());
}

/** `expect` plus the lifecycle rules (spec §3 rule 2) for an update of row `r`. */
function checkTransition(
  table: AssetTable,
  r: number,
  w: RenderedWrite,
  now: Date,
  where: string,
): void {
  checkExpect(table, r, w, now, where);
  const { state, expires } = w.write;
  if (!state || w.write.expect[state]) return;
  const row = table.rowValues(r);
  const current = effectiveState(row, state, expires, now);
  const key = table.keyOf(row);
  const target = w.record[state];
  if (target === undefined || target === row[state]) {
    if (TERMINAL_STATES.has(current)) {
      throw transitionError(`${where} '${key}' is ${current} (terminal); it cannot change`);
    }
    return;
  }
  const allowed = predecessors(target);
  if (!allowed) {
    throw new ContractCallError(
      400,
      "bad-request",
      `${where}: '${target}' is not a lifecycle state`,
    );
  }
  if (!allowed.includes(current)) {
    throw transitionError(
      `${where} '${key}': ${state} cannot change from '${current}' to '${target}'` +
        (allowed.length > 0 ? ` (only from ${allowed.join(", ")})` : " (only intake creates it)"),
    );
  }
}

/** AC45: the matched row's current values must be among the allowed ones. */
function checkExpect(
  table: AssetTable,
  r: number,
  w: RenderedWrite,
  now: Date,
  where: string,
): void {
  const row = table.rowValues(r);
  for (const [column, allowed] of Object.entries(w.write.expect)) {
    const current = column === w.write.state
      ? effectiveState(row, column, w.write.expires, now)
      : (row[column] ?? "").trim();
    if (!allowed.includes(current)) {
      throw transitionError(
        `${where} '${table.keyOf(row)}': ${column} is '${current}', expected ${
          allowed.map((a) => `'${a}'`).join(" or ")
        }`,
      );
    }
  }
}

function transitionError(message: string): ContractCallError {
  return new ContractCallError(409, "invalid-transition", message);
}

function requireKey(table: AssetTable, values: Record<string, string>, where: string): string {
  const key = table.keyOf(values);
  if (key === "") {
    throw new ContractCallError(
      400,
      "bad-request",
      `${where}: the record has no primary key ('${table.keyColumn}')`,
    );
  }
  return key;
}

/** Fields of a declared asset must be declared columns or columns the file already has. */
function checkColumns(table: AssetTable, w: RenderedWrite): void {
  const declaration = table.target.declaration;
  if (!declaration || declaration.columns.size === 0) return;
  const columns = [...Object.keys(w.record), ...Object.keys(w.lookupBy)];
  if (w.write.state) columns.push(w.write.state);
  if (w.write.expires) columns.push(w.write.expires);
  for (const field of columns) {
    if (declaration.columns.has(field) || table.editor.columnIndex(field) >= 0) continue;
    throw new ContractCallError(
      400,
      "bad-request",
      `${w.write.location}: '${field}' is not a declared column of ${table.target.file}`,
    );
  }
}
