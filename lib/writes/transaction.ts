/**
 * Multi-file, all-or-nothing writes (contracts, reference AC43): several asset files are read
 * under their locks (taken in sorted path order, so two transactions never deadlock), edited in
 * memory, and committed together. Any failure before the commit leaves every file untouched;
 * the commit itself uses the workspace's multi-file write (every temp file written and synced
 * before any is renamed into place) and, for workspaces without one, one atomic write per file
 * with the earlier files restored when a later one fails.
 *
 * @module
 */
import { CsvEditor } from "../formats/csv_edit.ts";
import { ParseError } from "../formats/errors.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { AssetTable, type AssetTarget, type RowKeyFn } from "./asset_table.ts";
import { WriteError } from "./errors.ts";

/** The tables of one transaction, opened on first use. */
export interface TransactionTables {
  /**
   * The table of `target` (one of the transaction's targets). A missing file is created with
   * `headerForNew` when given; without it a missing file gives `undefined`.
   */
  open(target: AssetTarget, headerForNew?: readonly string[]): AssetTable | undefined;
}

/** The edits of a transaction; throwing refuses the whole transaction (nothing is written). */
export type TransactionBody<T> = (tables: TransactionTables) => T | Promise<T>;

/** What a transaction needs from the write service. */
export interface TransactionDeps {
  /** The data directory. */
  workspace: Workspace;
  /** Runs `task` holding the locks of every path (the service's per-file locks). */
  lock<T>(paths: readonly string[], task: () => Promise<T>): Promise<T>;
  /** The key function of a target (`name_template`), or `undefined` for the key column. */
  keyFunction(target: AssetTarget): Promise<RowKeyFn | undefined>;
}

/** Result of {@link runTransaction}. */
export interface TransactionOutcome<T> {
  /** What the body returned. */
  value: T;
  /** Workspace paths whose bytes changed, sorted. */
  changed: string[];
}

/** One file of a multi-file commit. */
export interface FileWrite {
  /** Workspace path. */
  path: string;
  /** New text. */
  text: string;
}

interface Slot {
  target: AssetTarget;
  before: string | undefined;
  keyOf: RowKeyFn | undefined;
  table?: AssetTable;
}

/**
 * Runs `body` over the tables of `targets` and commits every changed file at once.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { runTransaction } from "./transaction.ts";
 * const workspace = new MemoryWorkspace({ "assets/a.csv": "name,v\nx,1\n" });
 * const target = { path: "assets/a.csv", file: "a.csv", type: "a" };
 * const out = await runTransaction(
 *   { workspace, lock: (_paths, task) => task(), keyFunction: () => Promise.resolve(undefined) },
 *   [target],
 *   (tables) => tables.open(target)!.upsert([{ name: "y", v: "2" }]),
 * );
 * console.log(out.changed); // ["assets/a.csv"]
 * ```
 */
export function runTransaction<T>(
  deps: TransactionDeps,
  targets: readonly AssetTarget[],
  body: TransactionBody<T>,
): Promise<TransactionOutcome<T>> {
  const byPath = new Map<string, AssetTarget>();
  for (const t of targets) if (!byPath.has(t.path)) byPath.set(t.path, t);
  const paths = [...byPath.keys()].sort();
  return deps.lock(paths, async () => {
    const slots = new Map<string, Slot>();
    for (const path of paths) {
      const target = byPath.get(path)!;
      slots.set(path, {
        target,
        before: await deps.workspace.readText(path),
        keyOf: await deps.keyFunction(target),
      });
    }
    const tables: TransactionTables = {
      open(target, headerForNew) {
        const slot = slots.get(target.path);
        if (!slot) throw new Error(`transaction: '${target.path}' is not one of its targets`);
        if (slot.table) return slot.table;
        let editor: CsvEditor;
        if (slot.before === undefined) {
          if (!headerForNew) return undefined;
          editor = CsvEditor.create(headerForNew, target.path);
        } else {
          editor = openEditor(slot.before, target.path);
        }
        return (slot.table = new AssetTable(editor, target, slot.keyOf));
      },
    };
    const value = await body(tables);
    const writes: FileWrite[] = [];
    const originals = new Map<string, string | undefined>();
    for (const [path, slot] of slots) {
      if (!slot.table) continue;
      const text = slot.table.editor.toString();
      if (text === slot.before) continue;
      writes.push({ path, text });
      originals.set(path, slot.before);
    }
    await commitFiles(deps.workspace, writes, originals);
    return { value, changed: writes.map((w) => w.path) };
  });
}

/**
 * Writes several files as one: the workspace's `writeTextsAtomic` when it has one, else one
 * atomic write per file, restoring the files already written when a later write fails (a file
 * that did not exist before is emptied, since a workspace cannot delete).
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { commitFiles } from "./transaction.ts";
 * const ws = new MemoryWorkspace({ "a.txt": "1" });
 * await commitFiles(ws, [{ path: "a.txt", text: "2" }], new Map([["a.txt", "1"]]));
 * console.log(await ws.readText("a.txt")); // "2"
 * ```
 */
export async function commitFiles(
  workspace: Workspace,
  writes: readonly FileWrite[],
  originals: ReadonlyMap<string, string | undefined>,
): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await workspace.writeTextAtomic(writes[0].path, writes[0].text);
    return;
  }
  if (workspace.writeTextsAtomic) {
    await workspace.writeTextsAtomic(writes);
    return;
  }
  const done: FileWrite[] = [];
  try {
    for (const w of writes) {
      await workspace.writeTextAtomic(w.path, w.text);
      done.push(w);
    }
  } catch (e) {
    for (const w of done.reverse()) {
      await workspace.writeTextAtomic(w.path, originals.get(w.path) ?? "").catch(() => {});
    }
    throw e;
  }
}

/**
 * A CSV editor over `text`; a file that does not parse is a `validation-failed` write error
 * (it must be repaired before the API writes to it).
 */
export function openEditor(text: string, path: string): CsvEditor {
  try {
    return CsvEditor.parse(text, path);
  } catch (e) {
    if (e instanceof ParseError) {
      throw new WriteError(
        "validation-failed",
        `${e.message} (the file must be repaired before it can be written through the API)`,
      );
    }
    throw e;
  }
}
