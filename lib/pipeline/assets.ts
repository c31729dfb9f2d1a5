/**
 * Asset loading (reference A1–A19): every `assets/**\/*.csv` of the data directory becomes
 * resources of the type named by the file stem (or its declaration's `resource_type`).
 *
 * Primary key, highest priority first: the declaration's `name_template` (the original key is kept
 * as `original_name`), a column named `name`, the first column. Published modules rely on the
 * `name` column rule: public_dns CSVs start with a constant `type` column and carry the real key
 * in `name`.
 *
 * @module
 */
import type { JsonValue, Properties } from "../graph/graph.ts";
import {
  type CsvDocument,
  type CsvTable,
  parseCsvSteps,
  parseCsvTableSteps,
} from "../formats/csv.ts";
import { ParseError } from "../formats/errors.ts";
import type { AssetDeclaration, ColumnDeclaration } from "../workspace/manifest.ts";
import type { SourceFile } from "../workspace/sources.ts";
import { filesIn } from "../workspace/sources.ts";
import type { PhaseContext } from "./context.ts";
import { splitNames } from "./linking.ts";
import { describeError } from "./errors.ts";
import { compileConditions, type Condition, evaluateCondition } from "./rules/conditions.ts";
import { runSteps, type Steps } from "./slicing.ts";
import { isEmptyValue, loadedCell } from "./cell_values.ts";
import { setById } from "../graph/dense.ts";

export { convertCell } from "./cell_values.ts";

/** An asset file after parsing, before its rows become resources. */
export interface LoadedAsset {
  /** The CSV source file. */
  file: SourceFile;
  /** Resource type of its rows. */
  type: string;
  /** Its declaration in a manifest, when any. */
  declaration?: AssetDeclaration;
  /**
   * Parsed content. In the result of {@link assetPhaseSteps} / {@link runAssetPhase} `rows` is
   * empty: the rows were loaded into the graph and released file by file.
   */
  csv: CsvDocument;
}

/** Base name of a path: `assets/inventx/a.csv` → `a.csv`. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Resource type of an asset file: declaration's `resource_type`, else the file stem. */
export function assetType(path: string, declaration?: AssetDeclaration): string {
  return declaration?.resourceType ?? baseName(path).replace(/\.csv$/i, "");
}

/** Parses every asset CSV of the data directory; broken files are reported and skipped. */
export function loadAssetFiles(ctx: PhaseContext): LoadedAsset[] {
  return runSteps(assetFileSteps(ctx, parseCsvSteps)).map(({ parsed, ...rest }) => ({
    ...rest,
    csv: parsed,
  }));
}

/** An asset file parsed by the parser given to {@link assetFileSteps}. */
interface ParsedAsset<D> {
  file: SourceFile;
  type: string;
  declaration?: AssetDeclaration;
  parsed: D;
}

/** {@link loadAssetFiles} as steps: a pause point after every file. */
function* assetFileSteps<D extends { errors: ParseError[] }>(
  ctx: PhaseContext,
  parse: (text: string, file: string, rowsPerStep: number) => Steps<D>,
): Steps<ParsedAsset<D>[]> {
  const out: ParsedAsset<D>[] = [];
  for (const file of filesIn(ctx.sources, "assets", [".csv"])) {
    if (!file.layer.isDataDir) continue; // assets are read from the data directory only (O15)
    yield;
    const declaration = ctx.manifest.assets.get(baseName(file.relPath));
    try {
      const parsed = yield* parse(file.text, file.displayPath, CSV_ROWS_PER_STEP);
      for (const e of parsed.errors) reportParseError(ctx, e);
      out.push({ file, type: assetType(file.relPath, declaration), declaration, parsed });
    } catch (e) {
      if (e instanceof ParseError) reportParseError(ctx, e);
      else throw e;
    }
  }
  return out;
}

/**
 * CSV rows parsed between two pause points: about 0.1 ms of work, far below a slice (4 ms), and
 * few enough pauses that passing them up the chain of steps costs little.
 */
const CSV_ROWS_PER_STEP = 256;

function reportParseError(ctx: PhaseContext, e: ParseError): void {
  ctx.issues.error(e.code, e.reason, {
    file: e.file,
    line: e.line,
    column: e.column,
    phase: "assets",
  });
}

/**
 * The template context of an asset row (`name_template`, `match_on` operands): the module
 * parameters, also under `params`, then the row's raw cells by column name.
 */
export function assetRowContext(
  params: Readonly<Record<string, JsonValue>>,
  raw: Readonly<Record<string, string>>,
): Record<string, unknown> {
  return { ...params, params, ...raw };
}

/** Chooses the key column: `name` when present, else the first column. */
export function keyColumnIndex(header: readonly string[]): number {
  const i = header.indexOf("name");
  return i >= 0 ? i : 0;
}

/**
 * Creates the resources of every asset file. Relations are created afterwards by auto-linking
 * (A20); multi-value cells of relation columns are stored as arrays of names (A17–A18).
 */
export function runAssetPhase(ctx: PhaseContext): LoadedAsset[] {
  return runSteps(assetPhaseSteps(ctx));
}

/**
 * {@link runAssetPhase} as steps (see `slicing.ts`): pauses between files and every
 * {@link ROWS_PER_STEP} rows. Rows are parsed into flat tables, loaded straight into the graph
 * (each row's property object becomes the resource's) and each table is dropped once loaded.
 */
export function* assetPhaseSteps(ctx: PhaseContext): Steps<LoadedAsset[]> {
  // Cells worth sharing while parsing: not those of key columns (unique), `_` columns (dropped)
  // or columns that may name resources of another asset type (auto-linking shares those with
  // the names of the resources they link to).
  const types = new Set<string>();
  for (const file of filesIn(ctx.sources, "assets", [".csv"])) {
    types.add(assetType(file.relPath, ctx.manifest.assets.get(baseName(file.relPath))));
  }
  const shared = (header: readonly string[], i: number) =>
    i !== keyColumnIndex(header) && !header[i].startsWith("_") && !types.has(header[i]);
  const files: (ParsedAsset<CsvTable> | undefined)[] = yield* assetFileSteps(
    ctx,
    (text, file, rowsPerStep) => parseCsvTableSteps(text, file, rowsPerStep, shared),
  );
  const assetTypes = new Set(files.map((a) => a!.type));
  const assets: LoadedAsset[] = [];
  for (let i = 0; i < files.length; i++) {
    const { parsed: table, ...asset } = files[i]!;
    files[i] = undefined; // released once loaded
    const loaded = { ...asset, csv: { header: table.header, rows: [], errors: table.errors } };
    yield* loadRows(ctx, loaded, table, assetTypes);
    assets.push(loaded);
  }
  return assets;
}

/**
 * Asset rows loaded between two pause points of {@link assetPhaseSteps}: plain rows take about
 * 1 µs each; rows of a declaration with templates (`name_template`, `match_on`) many times that.
 */
const ROWS_PER_STEP = 64;
const TEMPLATED_ROWS_PER_STEP = 16;

/*
 * What the loader does with the cells of one column, decided once per file: `_`-prefixed columns
 * are only seen by templates (A15); declared ones are converted to their type (A13); columns
 * named like another asset type hold names of resources (A17–A18; auto-linking shares their
 * strings with the names of the resources they link to, see linking.ts); any
 * other cell is kept as it is (the table parser already shares one string per value in columns
 * with few distinct values).
 */
const STRIPPED = 0;
const DECLARED = 1;
const RELATION = 2;
const PLAIN = 3;

function* loadRows(
  ctx: PhaseContext,
  asset: LoadedAsset,
  table: CsvTable,
  assetTypes: ReadonlySet<string>,
): Steps<void> {
  const loader = rowLoader(ctx, asset, table, assetTypes);
  if (!loader) return;
  const rowCount = table.lines.length;
  const step = loader.templated ? TEMPLATED_ROWS_PER_STEP : ROWS_PER_STEP;
  for (let row = 0; row < rowCount; row += step) {
    if (row > 0) yield;
    loader.loadRows(row, Math.min(rowCount, row + step));
  }
}

/**
 * The loader of one file's rows, or `undefined` (reported) when its declaration's `match_on`
 * does not compile. Reports a required column missing from the header once (MP31).
 */
function rowLoader(
  ctx: PhaseContext,
  asset: LoadedAsset,
  table: CsvTable,
  assetTypes: ReadonlySet<string>,
): RowLoader | undefined {
  const { declaration, file, type } = asset;
  const { header } = table;
  const declaredAt = declaration
    ? `${
      declaration.layer === "data" ? "" : declaration.layer + "/"
    }module.toml: assets."${declaration.file}"`
    : "";
  let filter: Condition | undefined;
  if (declaration?.matchOn !== undefined) {
    try {
      filter = compileConditions(declaration.matchOn, "match_on");
    } catch (e) {
      ctx.issues.error("asset_match_on_invalid", `${declaredAt}.match_on: ${describeError(e)}`, {
        file: file.displayPath,
        phase: "assets",
      });
      return undefined;
    }
  }
  const kinds: number[] = [];
  const specs: (ColumnDeclaration | undefined)[] = [];
  for (const column of header) {
    const spec = column.startsWith("_") ? undefined : declaration?.columns.get(column);
    specs.push(spec);
    kinds.push(
      column.startsWith("_")
        ? STRIPPED
        : spec
        ? DECLARED
        : assetTypes.has(column) && column !== type
        ? RELATION
        : PLAIN,
    );
  }
  // MP31: a required column missing from the header is one error, not one per row.
  const absentRequired = new Set<string>();
  for (const [column, spec] of declaration?.columns ?? []) {
    if (!spec.required || header.includes(column)) continue;
    absentRequired.add(column);
    ctx.issues.error(
      "csv_required_missing",
      `required column '${column}' is missing from the header`,
      { file: file.displayPath, phase: "assets", origin: `${type} (every row)` },
    );
  }
  return new RowLoader(ctx, asset, table, { kinds, specs, filter, declaredAt, absentRequired });
}

/** How {@link RowLoader} treats the columns of its file, decided once per file. */
interface ColumnPlan {
  /** Per column: STRIPPED, DECLARED, RELATION or PLAIN. */
  kinds: readonly number[];
  /** Per column: its declaration, if any. */
  specs: readonly (ColumnDeclaration | undefined)[];
  /** The declaration's `match_on` row filter. */
  filter: Condition | undefined;
  /** Where the declaration is, for messages. */
  declaredAt: string;
  /** Required columns missing from the header (reported once). */
  absentRequired: ReadonlySet<string>;
}

/**
 * Loads rows of one file into the graph (each row's property object becomes the resource's),
 * in plain methods: the work of {@link loadRows}, which only pauses between ranges of rows.
 */
class RowLoader {
  readonly #ctx: PhaseContext;
  readonly #asset: LoadedAsset;
  readonly #table: CsvTable;
  readonly #plan: ColumnPlan;
  readonly #keyIndex: number;
  /** The constructor of this file's property objects (see {@link rowConstructor}). */
  readonly #Row: new () => Properties;
  // Duplicate keys (A8): the line of the row that created each resource of this file (by id -
  // `#firstId`) and, for keys already loaded by an earlier file of the type, the first line here.
  #firstId = -1;
  readonly #createdLines: number[] = [];
  readonly #mergedLines = new Map<string, number>();

  constructor(ctx: PhaseContext, asset: LoadedAsset, table: CsvTable, plan: ColumnPlan) {
    this.#ctx = ctx;
    this.#asset = asset;
    this.#table = table;
    this.#plan = plan;
    this.#keyIndex = keyColumnIndex(table.header);
    this.#Row = rowConstructor(table.header);
  }

  /** True when rows render templates (`name_template`, `match_on`): slow rows. */
  get templated(): boolean {
    return this.#plan.filter !== undefined || this.#asset.declaration?.nameTemplate !== undefined;
  }

  /** Loads rows `from` (included) to `to` (excluded) of the table. */
  loadRows(from: number, to: number): void {
    for (let row = from; row < to; row++) this.#loadRow(row);
  }

  #loadRow(row: number): void {
    const ctx = this.#ctx;
    const { declaration, file, type } = this.#asset;
    const { header, cells, lines } = this.#table;
    const { kinds, specs, filter, declaredAt, absentRequired } = this.#plan;
    const width = header.length;
    const at = row * width;
    const line = lines[row];
    // `name` first: the key order a copy into `{ name }` (upsertResource) gives. It stays
    // undefined (as if absent) unless a name column sets it; the graph sets it to the key.
    const properties = new this.#Row();
    for (let i = 0; i < width; i++) {
      const cell = cells[at + i];
      switch (kinds[i]) {
        case STRIPPED:
          break;
        case DECLARED: {
          const column = header[i];
          // A13/MP31: a cell of the wrong type or outside `allowed_values` is loaded as it is
          // and reported; validation carries the warning, strict mode makes it an error.
          const { value, invalid } = loadedCell(cell, specs[i]!);
          if (invalid) {
            ctx.issues.warn(
              "csv_value_invalid",
              `row ${row + 2}, column '${column}': ${invalid}`,
              { file: file.displayPath, line, phase: "assets", cell: { row: row + 2, column } },
            );
          }
          if (value !== undefined) properties[column] = value;
          break;
        }
        case RELATION:
          properties[header[i]] = relationCellValue(cell);
          break;
        default:
          properties[header[i]] = cell;
      }
    }
    let key = cells[at + this.#keyIndex].trim();
    if (filter || declaration?.nameTemplate) {
      // Templates of the declaration see the row's raw cells and the module parameters.
      let context: Record<string, unknown> | undefined;
      const rowContext = () => (context ??= assetRowContext(ctx.params, rawRow(header, cells, at)));
      if (filter) {
        const where = { file: file.displayPath, line, declaredAt };
        const view = filterView(header, properties, key);
        if (!rowMatches(ctx, filter, { type, key, properties: view }, rowContext, where)) return;
      }
      if (declaration?.nameTemplate) {
        try {
          const rendered = ctx.templates.render(
            declaration.nameTemplate,
            rowContext(),
            `${declaredAt}.name_template`,
          );
          properties.original_name = key;
          key = rendered.trim();
        } catch (e) {
          ctx.issues.error("template_error", describeError(e), {
            file: file.displayPath,
            line,
            rule: `assets."${declaration.file}".name_template`,
            phase: "assets",
          });
          return;
        }
      }
    }
    if (key === "") {
      ctx.issues.warn("csv_empty_key", "row has an empty primary key and was skipped", {
        file: file.displayPath,
        line,
        phase: "assets",
      });
      return;
    }
    const existing = ctx.graph.getResource(type, key);
    let first: number | undefined;
    if (existing === undefined) first = undefined;
    else if (this.#firstId >= 0 && existing.id >= this.#firstId) {
      first = this.#createdLines[existing.id - this.#firstId];
    } else {
      first = this.#mergedLines.get(key);
      if (first === undefined) this.#mergedLines.set(key, line);
    }
    if (first !== undefined) {
      ctx.issues.warn(
        "csv_duplicate_key",
        `duplicate primary key '${key}' (first on line ${first}); rows merged, later values win`,
        { file: file.displayPath, line, phase: "assets" },
      );
    }
    if (declaration) {
      for (const [column, spec] of declaration.columns) {
        if (!spec.required || absentRequired.has(column)) continue;
        if (isEmptyValue(properties[column])) {
          // MP31: an error; the row still loads, so the build is degraded, not failed.
          ctx.issues.error("csv_required_missing", `required column '${column}' is empty`, {
            file: file.displayPath,
            line,
            phase: "assets",
            origin: `${type} '${key}'`,
            cell: { row: row + 2, column },
          });
        }
      }
    }
    const resource = ctx.graph.adoptResource(type, key, properties);
    if (existing === undefined) {
      if (this.#firstId < 0) this.#firstId = resource.id;
      setById(this.#createdLines, resource.id - this.#firstId, line);
    }
  }
}

/**
 * The property value of a cell in a relation column (named after another asset type; A17): its
 * names by the list rule when there are several, else the trimmed cell.
 *
 * @example
 * ```ts
 * import { relationCellValue } from "./assets.ts";
 * console.log(relationCellValue(" net-a, net-b ")); // ["net-a", "net-b"]
 * console.log(relationCellValue(" net-a ")); // "net-a"
 * ```
 */
export function relationCellValue(cell: string): JsonValue {
  if (cell.indexOf("[") < 0) return commaItems(cell);
  const list = splitNames(cell);
  // An exact-length copy: the list was grown by push (16 spare slots).
  return list.length > 1 ? list.slice() : cell.trim();
}

/**
 * A relation cell without brackets: its comma items, trimmed, empty ones dropped (the list rule,
 * A17), as an array of exactly their number when there are several, else the trimmed cell.
 */
function commaItems(cell: string): JsonValue {
  let end = cell.indexOf(",");
  if (end < 0) return cell.trim();
  // Items go to a scratch list (overwritten, never emptied: emptying an array makes V8 give up
  // its storage), then are copied out at exactly their number.
  const items = ITEMS;
  let n = 0;
  for (let from = 0;; end = cell.indexOf(",", from)) {
    const item = trimmedSlice(cell, from, end < 0 ? cell.length : end);
    if (item !== "") items[n++] = item;
    if (end < 0) break;
    from = end + 1;
  }
  return n > 1 ? items.slice(0, n) : cell.trim();
}

/** Scratch list of {@link commaItems}. */
const ITEMS: string[] = [];

/**
 * `s.slice(start, end).trim()`, cutting one string instead of two: ASCII white space is skipped
 * here, anything else `trim` removes is left to `trim`.
 */
function trimmedSlice(s: string, start: number, end: number): string {
  while (start < end && isAsciiSpace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(s.charCodeAt(end - 1))) end--;
  const out = s.slice(start, end);
  return start < end && (s.charCodeAt(start) > 0x7f || s.charCodeAt(end - 1) > 0x7f)
    ? out.trim()
    : out;
}

/** Tab, line feed, vertical tab, form feed, carriage return, space: ASCII white space of `trim`. */
function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * The constructor of the property objects of rows under `header`: plain objects (prototype
 * `Object.prototype`, own key `name` first, as `{ name: undefined }`), but built by `new`, so V8
 * sizes them for the columns the first rows got (the fields are stored in the object itself) and
 * rows of the file share one hidden class. One constructor per header (files have other
 * columns), kept across builds: a rebuild's rows get the hidden classes of the last build's, so
 * the code optimized for those stays valid.
 */
function rowConstructor(header: readonly string[]): new () => Properties {
  const signature = header.join("\u0000");
  let Row = ROW_CONSTRUCTORS.get(signature);
  if (Row === undefined) {
    Row = function (this: Properties) {
      (this as Record<string, unknown>).name = undefined;
    } as unknown as new () => Properties;
    Row.prototype = Object.prototype;
    if (ROW_CONSTRUCTORS.size >= MAX_ROW_CONSTRUCTORS) ROW_CONSTRUCTORS.clear();
    ROW_CONSTRUCTORS.set(signature, Row);
  }
  return Row;
}

/** Row constructors by header (see {@link rowConstructor}); dropped when there are too many. */
const ROW_CONSTRUCTORS = new Map<string, new () => Properties>();
const MAX_ROW_CONSTRUCTORS = 256;

/** The raw cells of the row starting at `at`, by column name. */
/** A row's raw cells by column (what declaration templates see), from `cells` at offset `at`. */
export function rawRow(
  header: readonly string[],
  cells: readonly string[],
  at: number,
): Record<string, string> {
  const raw: Record<string, string> = {};
  for (let i = 0; i < header.length; i++) raw[header[i]] = cells[at + i];
  return raw;
}

/**
 * The properties a row filter sees: the row's values in column order with `name` set to the key
 * (in the name column's place when that column gave a value, else last).
 */
function filterView(header: readonly string[], properties: Properties, key: string): Properties {
  const view: Properties = {};
  for (const column of header) {
    if (column === "name") {
      if (properties.name !== undefined) view.name = key;
    } else if (Object.hasOwn(properties, column)) view[column] = properties[column];
  }
  if (view.name === undefined) view.name = key;
  return view;
}

/**
 * The row filter of an asset declaration (A10): conditions as in models, on the row's typed
 * values; templated operands see the row's columns and the module parameters. A failing
 * condition (bad regexp, template error) is an error for that row, which is then not loaded.
 */
function rowMatches(
  ctx: PhaseContext,
  filter: Condition,
  row: { type: string; key: string; properties: Properties },
  context: () => Record<string, unknown>,
  where: { file: string; line: number; declaredAt: string },
): boolean {
  const { type, key, properties } = row;
  const resource = { id: -1, type, name: key, properties: { ...properties, name: key } };
  try {
    return evaluateCondition(filter, resource, {
      graph: ctx.graph,
      render: (source, k) => ctx.templates.render(source, context(), `${where.declaredAt}.${k}`),
    });
  } catch (e) {
    ctx.issues.error("asset_match_on_failed", `${where.declaredAt}.match_on: ${describeError(e)}`, {
      file: where.file,
      line: where.line,
      phase: "assets",
    });
    return false;
  }
}
