/**
 * The one write path of graphsvc: raw asset form writes (reference R3–R9), auto-CRUD (R10–R13,
 * G17–G20) and, later, contract writes all end here. Each write is a read-modify-write of one
 * CSV file, serialised per file, validated against the asset's declared columns, written
 * atomically and durably by the workspace, and followed by a rebuild whose generation is
 * returned, so the caller can wait for it (read-your-writes).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { CsvEditError, CsvEditor } from "../formats/csv_edit.ts";
import type { AssetDeclaration, ModuleManifest } from "../workspace/manifest.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { UnsafePathError } from "../workspace/workspace.ts";
import { checkAssetFileName, listAssetFiles, matchAssetFile } from "../workspace/asset_files.ts";
import type { TemplateRenderer } from "../pipeline/context.ts";
import { assetRowContext, assetType, baseName } from "../pipeline/assets.ts";
import { describeError } from "../pipeline/errors.ts";
import { AssetTable, type AssetTarget, type RowKeyFn, type RowValues } from "./asset_table.ts";
import { checkDeclaredColumns, jsonToCell } from "./cells.ts";
import { WriteError } from "./errors.ts";
import { parseFormRows } from "./form_rows.ts";
import { KeyedMutex } from "./keyed_mutex.ts";
import { openEditor, runTransaction, type TransactionBody } from "./transaction.ts";

/** What a write needs to know about the current build: declarations and parameter values. */
export interface WriteContext {
  /** Merged manifest (asset declarations with columns and `name_template`). */
  readonly manifest: ModuleManifest;
  /** Resolved parameter values (templates of `name_template` see them). */
  readonly params: Readonly<Record<string, JsonValue>>;
}

/** Options of {@link WriteService}. */
export interface WriteServiceOptions {
  /** The data directory; only files below its `assets/` folder are ever written. */
  workspace: Workspace;
  /** The declarations and parameters of the newest build. */
  context: () => WriteContext | Promise<WriteContext>;
  /** Creates a template renderer (for `name_template` keys). */
  createTemplates: (params: Readonly<Record<string, JsonValue>>) => TemplateRenderer;
  /**
   * Schedules a rebuild after a durable write; returns the generation that will contain it.
   * `changed`: the data-directory paths the write changed (lets the build be incremental);
   * `written`: the texts some of them now hold, exactly as written under the file's lock (the
   * build need not read them again).
   */
  scheduleRebuild: (
    changed: readonly string[],
    written?: ReadonlyMap<string, string>,
  ) => number;
  /** Generation that already contains the current files (for writes that changed nothing). */
  currentGeneration: () => number;
  /** Whether asset writes are enabled (`admin_assets`, R60); default true. */
  enabled?: boolean;
}

/** Fields of a multipart asset write (R3). */
export interface AssetForm {
  /** Complete CSV text replacing the file. */
  data?: string;
  /** Rows to upsert by primary key. */
  update?: string;
  /** Rows to delete (key column plus optional columns that must all match). */
  remove?: string;
}

/** Result of a raw asset write (R5 plus the generation). */
export interface AssetWriteResult {
  /** The file, relative to `assets/`. */
  file: string;
  /** Rows in the file after the write. */
  rows: number;
  /** Build generation that will contain the write. */
  generation: number;
  /** Whether the file's bytes changed. */
  changed: boolean;
}

/** Result of an auto-CRUD mutation. */
export interface RowWriteResult {
  /** Human-readable summary. */
  message: string;
  /** Primary key of the row written. */
  name: string;
  /** Build generation that will contain the write. */
  generation: number;
}

/** A file's table as the last write left it, with what its key index depends on. */
interface OpenTable {
  /** The file text the table prints. */
  text: string;
  /** The table (editor and key index). */
  table: AssetTable;
  /** The declaration it was opened with (identity: a new build's manifest reopens it). */
  target: AssetDeclaration | undefined;
  /** `name_template` and parameters of its keys, when templated. */
  keySpec: string | undefined;
}

/** Files whose tables are kept between writes. */
const MAX_OPEN_TABLES = 8;

/** An auto-CRUD operation. */
type RowEdit = (table: AssetTable) => string;

/**
 * Applies writes to the asset CSV files of a data directory.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { emptyManifest } from "../workspace/manifest.ts";
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * import { WriteService } from "./service.ts";
 * const workspace = new MemoryWorkspace({ "assets/host.csv": "name,os\nweb-1,linux\n" });
 * let generation = 0;
 * const writes = new WriteService({
 *   workspace,
 *   context: () => ({ manifest: emptyManifest(), params: {} }),
 *   createTemplates: createTemplateRenderer,
 *   scheduleRebuild: () => ++generation,
 *   currentGeneration: () => generation,
 * });
 * await writes.addRow("host", { name: "web-2", os: "bsd" });
 * console.log(await workspace.readText("assets/host.csv")); // "name,os\nweb-1,linux\nweb-2,bsd\n"
 * ```
 */
export class WriteService {
  readonly #options: WriteServiceOptions;
  readonly #mutex = new KeyedMutex();
  readonly #open = new Map<string, OpenTable>();

  /** Creates the service. @param options workspace, build context and rebuild hook */
  constructor(options: WriteServiceOptions) {
    this.#options = options;
  }

  /** Whether writes are enabled. */
  get enabled(): boolean {
    return this.#options.enabled ?? true;
  }

  #checkEnabled(): void {
    if (!this.enabled) throw new WriteError("forbidden", "asset writes are disabled");
  }

  /**
   * The asset types that can be written: every asset CSV of the data directory and every asset
   * declared in a manifest (G17), by resource type.
   */
  async targets(): Promise<AssetTarget[]> {
    const { manifest } = await this.#options.context();
    const out = new Map<string, AssetTarget>();
    const declaredFiles = new Set<string>();
    for (const file of await listAssetFiles(this.#options.workspace)) {
      const declaration = manifest.assets.get(baseName(file));
      if (declaration) declaredFiles.add(declaration.file);
      const type = assetType(file, declaration);
      if (!out.has(type)) out.set(type, { path: `assets/${file}`, file, type, declaration });
    }
    for (const declaration of manifest.assets.values()) {
      if (declaredFiles.has(declaration.file)) continue;
      const type = assetType(declaration.file, declaration);
      if (!out.has(type)) {
        out.set(type, {
          path: `assets/${declaration.file}`,
          file: declaration.file,
          type,
          declaration,
        });
      }
    }
    return [...out.values()].sort((a, b) => a.type < b.type ? -1 : a.type > b.type ? 1 : 0);
  }

  /** The target of an asset type (or `<type>.csv`); `not-found` when there is none. */
  async target(asset: string): Promise<AssetTarget> {
    const type = asset.toLowerCase().endsWith(".csv") ? asset.slice(0, -4) : asset;
    const found = (await this.targets()).find((t) => t.type === type);
    if (!found) throw new WriteError("not-found", `'${asset}' is not an asset type`);
    return found;
  }

  /**
   * Multipart asset write (R3–R7): `data` replaces the file; `remove` then `update` edit it in
   * one atomic write. Throws {@link WriteError} (nothing written) on any problem.
   */
  async writeAssetForm(requested: string, form: AssetForm): Promise<AssetWriteResult> {
    this.#checkEnabled();
    let file: string;
    try {
      file = checkAssetFileName(requested);
    } catch (e) {
      if (e instanceof UnsafePathError) throw new WriteError("bad-request", e.message);
      throw e;
    }
    const given = (["data", "update", "remove"] as const).filter((f) => form[f] !== undefined);
    if (given.length === 0) {
      throw new WriteError("bad-request", "expected a form field 'data', 'update' or 'remove'");
    }
    if (form.data !== undefined && given.length > 1) {
      throw new WriteError(
        "bad-request",
        "form field 'data' replaces the whole file and cannot be combined with 'update' or 'remove'",
      );
    }
    const path = await this.#resolveWritable(file);
    const { manifest } = await this.#options.context();
    const target: AssetTarget = {
      path,
      file: path.slice("assets/".length),
      type: assetType(path, manifest.assets.get(baseName(path))),
      declaration: manifest.assets.get(baseName(path)),
    };
    const update = form.update !== undefined ? parseFormRows(form.update, "update") : undefined;
    const remove = form.remove !== undefined ? parseFormRows(form.remove, "remove") : undefined;
    if (form.data !== undefined) return await this.#replace(target, form.data);
    return await this.#edit(target, update?.header, (table) => {
      if (remove) {
        if (!remove.header.includes(table.keyColumn)) {
          throw new WriteError(
            "bad-request",
            `form field 'remove' must have the primary-key column '${table.keyColumn}'`,
            "remove",
          );
        }
        table.removeMatching(remove.rows);
      }
      if (update) {
        if (!target.declaration?.nameTemplate && !update.header.includes(table.keyColumn)) {
          throw new WriteError(
            "bad-request",
            `form field 'update' must have the primary-key column '${table.keyColumn}'`,
            "update",
          );
        }
        table.upsert(update.rows);
      }
      return "";
    }, remove !== undefined && update === undefined).then(({ rows, generation, changed }) => ({
      file: target.file,
      rows,
      generation,
      changed,
    }));
  }

  /** Auto-CRUD insert (R10, G17): fails with `duplicate-key` when the key exists. */
  async addRow(
    asset: string,
    fields: Readonly<Record<string, JsonValue>>,
  ): Promise<RowWriteResult> {
    this.#checkEnabled();
    const target = await this.target(asset);
    const values = this.#cells(fields);
    const header = this.#headerForNew(target, values);
    return await this.#rowEdit(target, header, (table) => {
      this.#checkFields(target, table, values);
      const key = table.keyOf(values);
      if (key === "") {
        throw new WriteError(
          "bad-request",
          `${target.type}: the primary key ('${table.keyColumn}') is missing`,
          table.keyColumn,
        );
      }
      if (table.rowsWithKey(key).length > 0) {
        throw new WriteError("duplicate-key", `${target.type} '${key}' already exists`);
      }
      table.append(values);
      return key;
    }, "created");
  }

  /** Auto-CRUD merge (R11, G17): only the given fields change; `not-found` for a missing row. */
  async changeRow(
    asset: string,
    name: string,
    fields: Readonly<Record<string, JsonValue>>,
  ): Promise<RowWriteResult> {
    this.#checkEnabled();
    const target = await this.target(asset);
    return await this.#rowEdit(target, undefined, (table) => {
      const values = this.#cells(fields);
      this.#checkFields(target, table, values);
      const rows = table.rowsWithKey(name);
      if (rows.length === 0) {
        throw new WriteError("not-found", `${target.type} '${name}' does not exist`);
      }
      const after = table.keyOf({ ...table.rowValues(rows[0]), ...values });
      if (after !== name && table.rowsWithKey(after).length > 0) {
        throw new WriteError("duplicate-key", `${target.type} '${after}' already exists`);
      }
      for (const row of [...rows]) table.merge(row, values);
      return after;
    }, "updated");
  }

  /** Auto-CRUD delete (R12): removes every row with that key; `not-found` when there is none. */
  async deleteRow(asset: string, name: string): Promise<RowWriteResult> {
    this.#checkEnabled();
    const target = await this.target(asset);
    return await this.#rowEdit(target, undefined, (table) => {
      const rows = table.rowsWithKey(name);
      if (rows.length === 0) {
        throw new WriteError("not-found", `${target.type} '${name}' does not exist`);
      }
      table.remove(rows);
      return name;
    }, "deleted");
  }

  /**
   * Edits several asset files as one all-or-nothing write (contracts, AC43): `body` edits the
   * tables of `targets` under their locks; when it throws nothing is written, otherwise every
   * changed file is committed together (transaction.ts). Returns the body's value and the
   * generation that will contain the writes.
   */
  async transaction<T>(
    targets: readonly AssetTarget[],
    body: TransactionBody<T>,
  ): Promise<{ value: T; changed: string[]; generation: number }> {
    this.#checkEnabled();
    const outcome = await runTransaction(
      {
        workspace: this.#options.workspace,
        lock: (paths, task) => this.#lockAll(paths, task),
        keyFunction: async (target) => (await this.#keyFunction(target))?.fn,
      },
      targets,
      body,
    );
    return { ...outcome, generation: this.#generationAfter(outcome.changed) };
  }

  /** Holds the locks of `paths` (sorted by the caller) one inside the other. */
  #lockAll<T>(paths: readonly string[], task: () => Promise<T>): Promise<T> {
    if (paths.length === 0) return task();
    return this.#locked(paths[0], () => {
      this.#open.delete(paths[0]);
      return this.#lockAll(paths.slice(1), task);
    });
  }

  async #rowEdit(
    target: AssetTarget,
    headerForNew: string[] | undefined,
    edit: RowEdit,
    verb: string,
  ): Promise<RowWriteResult> {
    let name = "";
    const { generation } = await this.#edit(target, headerForNew, (table) => {
      name = edit(table);
    }, headerForNew === undefined);
    return { message: `${target.type} '${name}' ${verb}`, name, generation };
  }

  /**
   * Read-modify-write of one file under its lock. `headerForNew` creates a missing file with that
   * header; without it a missing file is `not-found`.
   */
  #edit(
    target: AssetTarget,
    headerForNew: readonly string[] | undefined,
    apply: (table: AssetTable) => unknown,
    mustExist: boolean,
  ): Promise<{ rows: number; generation: number; changed: boolean }> {
    const workspace = this.#options.workspace;
    return this.#locked(target.path, async () => {
      const text = await workspace.readText(target.path);
      const keyOf = await this.#keyFunction(target);
      // The table of the previous write is reused while the file still holds exactly what that
      // write left (no parse, no key index rebuild); anything else opens the file afresh.
      const cached = this.#open.get(target.path);
      this.#open.delete(target.path); // a failed edit must not leave a half-applied table
      let table: AssetTable;
      if (
        cached && text !== undefined && cached.text === text &&
        cached.target === target.declaration &&
        cached.keySpec === keyOf?.spec
      ) {
        table = cached.table;
      } else {
        let editor: CsvEditor;
        if (text === undefined) {
          if (mustExist || !headerForNew) {
            throw new WriteError("not-found", `asset file '${target.file}' does not exist`);
          }
          editor = CsvEditor.create(headerForNew, target.path);
        } else {
          editor = openEditor(text, target.path);
        }
        table = new AssetTable(editor, target, keyOf?.fn);
      }
      await apply(table);
      const out = table.editor.toString();
      const changed = out !== text;
      if (changed) await workspace.writeTextAtomic(target.path, out);
      this.#remember(target.path, {
        text: out,
        table,
        target: target.declaration,
        keySpec: keyOf?.spec,
      });
      return {
        rows: table.editor.rowCount,
        generation: this.#generationAfterWrite(target.path, changed ? out : undefined),
        changed,
      };
    });
  }

  /** Keeps the table of a file just written (a few files, least recently written dropped). */
  #remember(path: string, open: OpenTable): void {
    this.#open.set(path, open);
    if (this.#open.size > MAX_OPEN_TABLES) this.#open.delete(this.#open.keys().next().value!);
  }

  /** `data`: the submitted text becomes the file as it is, once it parses and validates. */
  #replace(target: AssetTarget, data: string): Promise<AssetWriteResult> {
    const rows = parseFormRows(data, "data").rows;
    rows.forEach((row, i) =>
      checkDeclaredColumns(row, target.declaration, `${target.file}, data row ${i + 1}`)
    );
    return this.#locked(target.path, async () => {
      this.#open.delete(target.path);
      const before = await this.#options.workspace.readText(target.path);
      const changed = before !== data;
      if (changed) await this.#options.workspace.writeTextAtomic(target.path, data);
      return {
        file: target.file,
        rows: rows.length,
        generation: this.#generationAfterWrite(target.path, changed ? data : undefined),
        changed,
      };
    });
  }

  /** Runs `task` under the file's lock; unsafe paths (links out of the data dir) are refused. */
  #locked<T>(path: string, task: () => Promise<T>): Promise<T> {
    return this.#mutex.run(path, async () => {
      try {
        return await task();
      } catch (e) {
        if (e instanceof UnsafePathError) throw new WriteError("forbidden", e.message);
        // A column name the file cannot hold (empty, edge spaces), too many cells, …
        if (e instanceof CsvEditError) throw new WriteError("bad-request", e.message);
        throw e;
      }
    });
  }

  /**
   * The generation containing a write of one file under its lock: `text` is what the file now
   * holds (`undefined`: the write changed nothing), handed to the build so it need not read the
   * file again.
   */
  #generationAfterWrite(path: string, text: string | undefined): number {
    return text === undefined
      ? this.#generationAfter([])
      : this.#generationAfter([path], new Map([[path, text]]));
  }

  /** Generation containing a write that changed the files `changed` (none: a no-op write). */
  #generationAfter(changed: readonly string[], written?: ReadonlyMap<string, string>): number {
    if (changed.length > 0) return this.#options.scheduleRebuild(changed, written);
    const current = this.#options.currentGeneration();
    return current > 0 ? current : this.#options.scheduleRebuild([]);
  }

  /** Path of a file that may be written (R7): existing, or new in an existing folder. */
  async #resolveWritable(file: string): Promise<string> {
    const files = await listAssetFiles(this.#options.workspace);
    const existing = matchAssetFile(files, file);
    if (existing) return existing;
    if (!file.includes("/")) return `assets/${file}`;
    const folder = file.slice(0, file.lastIndexOf("/") + 1);
    if (!files.some((f) => f.startsWith(folder))) {
      throw new WriteError(
        "bad-request",
        `folder 'assets/${folder}' does not exist; new files may only be created in existing folders`,
      );
    }
    return `assets/${file}`;
  }

  /** The key of a row: rendered `name_template` when declared, else the key column. */
  async #keyFunction(
    target: AssetTarget,
  ): Promise<{ fn: RowKeyFn; spec: string } | undefined> {
    const template = target.declaration?.nameTemplate;
    if (!template) return undefined;
    const { params } = await this.#options.context();
    const spec = JSON.stringify([template, params]);
    const templates = this.#options.createTemplates(params);
    const label = `${target.declaration!.layer === "data" ? "" : target.declaration!.layer + "/"}` +
      `module.toml: assets."${target.declaration!.file}".name_template`;
    const fn: RowKeyFn = (row) => {
      try {
        return templates.render(template, assetRowContext(params, row), label).trim();
      } catch (e) {
        throw new WriteError(
          "validation-failed",
          `${target.file}: cannot compute the row's key: ${describeError(e)}`,
        );
      }
    };
    return { fn, spec };
  }

  /** Field values as cells (R13). */
  #cells(fields: Readonly<Record<string, JsonValue>>): Record<string, string> {
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
      throw new WriteError("bad-request", "the body must be a JSON object of field values");
    }
    const out: Record<string, string> = {};
    for (const [field, value] of Object.entries(fields)) out[field] = jsonToCell(value, field);
    return out;
  }

  /** Fields of a declared asset must be declared columns or columns the file already has. */
  #checkFields(target: AssetTarget, table: AssetTable, values: RowValues): void {
    const declaration = target.declaration;
    if (!declaration || declaration.columns.size === 0) return;
    for (const field of Object.keys(values)) {
      if (declaration.columns.has(field) || table.editor.columnIndex(field) >= 0) continue;
      throw new WriteError(
        "bad-request",
        `${target.type}: field '${field}' is not a declared column of ${target.file}`,
        field,
      );
    }
  }

  /** Header of a file created by its first row: declared columns, then the row's other fields. */
  #headerForNew(target: AssetTarget, values: RowValues): string[] {
    const header = [...(target.declaration?.columns.keys() ?? [])];
    if (header.length === 0) {
      if (values.name !== undefined) header.push("name");
      for (const field of Object.keys(values)) if (!header.includes(field)) header.push(field);
    }
    return header;
  }
}
