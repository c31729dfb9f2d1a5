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
import { allowedValueError, convertCell } from "./cell_values.ts";

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

/** CSV rows parsed between two pause points. */
const CSV_ROWS_PER_STEP = 64;

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
  const files: (ParsedAsset<CsvTable> | undefined)[] = yield* assetFileSteps(
    ctx,
    parseCsvTableSteps,
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

/** Asset rows loaded between two pause points of {@link assetPhaseSteps}. */
const ROWS_PER_STEP = 16;

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
  const { declaration, file, type } = asset;
  const { header, cells, lines } = table;
  const width = header.length;
  const keyIndex = keyColumnIndex(header);
  const seen = new Map<string, number>();
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
      return;
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
  const rowCount = lines.length;
  let tick = 0;
  for (let row = 0, at = 0; row < rowCount; row++, at += width) {
    if (++tick === ROWS_PER_STEP) {
      tick = 0;
      yield;
    }
    const line = lines[row];
    // `name` first: the key order a copy into `{ name }` (upsertResource) gives. It stays
    // undefined (as if absent) unless a name column sets it; the graph sets it to the key.
    const properties = { name: undefined } as unknown as Properties;
    for (let i = 0; i < width; i++) {
      const cell = cells[at + i];
      switch (kinds[i]) {
        case STRIPPED:
          break;
        case DECLARED: {
          const column = header[i];
          const { value, error } = convertCell(cell, specs[i]);
          // A13/MP31: a cell of the wrong type or outside `allowed_values` is loaded as it is
          // and reported; validation carries the warning, strict mode makes it an error.
          const invalid = error ??
            (cell.trim() === "" ? undefined : allowedValueError(value, specs[i]!.allowedValues));
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
        case RELATION: {
          if (cell.indexOf("[") >= 0) {
            const list = splitNames(cell);
            // An exact-length copy: the list was grown by push (16 spare slots).
            properties[header[i]] = list.length > 1 ? list.slice() : cell.trim();
            break;
          }
          // Without brackets the list rule is: comma items, trimmed, empty ones dropped.
          if (cell.indexOf(",") < 0) {
            properties[header[i]] = cell.trim();
            break;
          }
          const items = cell.split(",");
          let n = 0;
          for (let k = 0; k < items.length; k++) {
            const item = items[k].trim();
            if (item !== "") items[n++] = item;
          }
          items.length = n;
          properties[header[i]] = n > 1 ? items : cell.trim();
          break;
        }
        default:
          properties[header[i]] = cell;
      }
    }
    let key = cells[at + keyIndex].trim();
    // Templates of the declaration see the row's raw cells and the module parameters.
    let context: Record<string, unknown> | undefined;
    const rowContext = () => (context ??= assetRowContext(ctx.params, rawRow(header, cells, at)));
    if (filter) {
      const where = { file: file.displayPath, line, declaredAt };
      const view = filterView(header, properties, key);
      if (!rowMatches(ctx, filter, { type, key, properties: view }, rowContext, where)) continue;
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
        continue;
      }
    }
    if (key === "") {
      ctx.issues.warn("csv_empty_key", "row has an empty primary key and was skipped", {
        file: file.displayPath,
        line,
        phase: "assets",
      });
      continue;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      ctx.issues.warn(
        "csv_duplicate_key",
        `duplicate primary key '${key}' (first on line ${first}); rows merged, later values win`,
        { file: file.displayPath, line, phase: "assets" },
      );
    } else {
      seen.set(key, line);
    }
    if (declaration) {
      for (const [column, spec] of declaration.columns) {
        if (!spec.required || absentRequired.has(column)) continue;
        if (properties[column] === undefined || properties[column] === "") {
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
    ctx.graph.adoptResource(type, key, properties);
  }
}

/** The raw cells of the row starting at `at`, by column name. */
function rawRow(header: readonly string[], cells: readonly string[], at: number) {
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
