/**
 * A validation run (reference SV30–SV43): the schemas of a workspace, bound to the types its
 * modules create, checked against its built graph and sources. Pure: the caller builds the graph
 * and reads remote schema texts first ({@link prepareSchemaTexts}).
 *
 * @module
 */
import type { Graph } from "../graph/graph.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import { filesIn, type SourceSet } from "../workspace/sources.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";
import type { BuildIssue } from "../pipeline/issues.ts";
import { bindTypes, loadSchemas } from "./bind.ts";
import { type ActionOffer, type AssetCsv, runChecks } from "./checks.ts";
import { staticFootprint } from "./footprint.ts";
import { makeReport } from "./report.ts";
import {
  readSchemaTexts,
  type SchemaDeclaration,
  schemaDeclarations,
  type SchemaFetcher,
  type SchemaText,
} from "./sources.ts";
import type { ValidationIssue, ValidationReport } from "./types.ts";

/** An asset table of the build (type, file under `assets/`, header, declared columns). */
export interface ValidationAsset {
  /** Resource type. */
  type: string;
  /** Path relative to `assets/`. */
  file: string;
  /** Header columns. */
  header: readonly string[];
  /** Declaration of the manifest, when any. */
  declaration?: { columns: ReadonlyMap<string, unknown>; layer: string };
}

/** What a validation run reads: the sources and the result of their build. */
export interface ValidationInput {
  /** Everything the build read. */
  sources: SourceSet;
  /** The built graph. */
  graph: Graph;
  /** The merged manifest. */
  manifest: ModuleManifest;
  /** Asset tables of the build. */
  assets: readonly ValidationAsset[];
  /** Issues of the build (module and parameter codes are carried into the report). */
  buildIssues?: readonly BuildIssue[];
  /** Whether the build failed (structural errors). */
  buildFailed?: boolean;
}

/** Options of {@link validateWorkspace}. */
export interface ValidationOptions {
  /** Strict mode (SV40). */
  strict?: boolean;
  /** `--schema FILE`: the only schema of the run (SV13). */
  override?: { origin: string; text: string };
  /** Texts of declared locations ({@link prepareSchemaTexts}); in-memory files need none. */
  texts?: ReadonlyMap<string, SchemaText>;
}

/** Build issue codes that belong in the validation report (SV31, MP24–MP41). */
export const CARRIED_BUILD_CODES: ReadonlySet<string> = new Set([
  "requirement_unmet",
  "requirement_property_missing",
  "csv_required_missing",
  "csv_value_invalid",
  "module_conflict",
  "param_missing",
  "param_not_allowed",
  "param_conflict",
  "param_unknown",
  "input_invalid",
  "unknown_key",
]);

/**
 * Reads the texts of every schema location `sources` declare that is not in memory (HTTP, Git,
 * files outside the loaded folders) through `fetcher`.
 *
 * @example
 * ```ts ignore
 * const texts = await prepareSchemaTexts(sources, result.manifest, denoSchemaFetcher());
 * ```
 */
export function prepareSchemaTexts(
  sources: SourceSet,
  manifest: ModuleManifest,
  fetcher?: SchemaFetcher,
): Promise<Map<string, SchemaText>> {
  return readSchemaTexts(schemaDeclarations(sources, manifest), fetcher);
}

/**
 * Validates a built workspace against its schemas and returns the report (SV36).
 *
 * @example
 * ```ts ignore
 * const report = validateWorkspace(
 *   { sources, graph: result.graph, manifest: result.manifest, assets: result.assets },
 *   { strict: true },
 * );
 * console.log(report.error_count);
 * ```
 */
export function validateWorkspace(
  input: ValidationInput,
  options: ValidationOptions = {},
): ValidationReport {
  const issues: ValidationIssue[] = [];
  const report = (i: ValidationIssue) => issues.push(i);
  const strict = options.strict ?? false;
  const declarations: SchemaDeclaration[] = options.override
    ? []
    : schemaDeclarations(input.sources, input.manifest);
  const texts = new Map(options.texts ?? []);
  for (const d of declarations) {
    if (d.ref.kind === "location" && !d.ref.remote && !texts.has(d.ref.key)) {
      texts.set(d.ref.key, { text: d.ref.layer.files.get(d.ref.relPath!) ?? "" });
    }
  }
  const loaded = loadSchemas(declarations, texts, report, options.override);
  const footprint = staticFootprint(
    input.sources,
    input.manifest,
    input.assets.map((a) => ({
      type: a.type,
      header: a.header,
      declared: a.declaration?.columns.keys(),
      module: a.declaration?.layer,
    })),
  );
  const types = new Set([...footprint.types.keys(), ...input.graph.types()]);
  const bindings = bindTypes(types, loaded, declarations, report);
  const assets: AssetCsv[] = input.assets.map((a) => ({
    type: a.type,
    file: `assets/${a.file}`,
    text: input.sources.data.files.get(`assets/${a.file}`),
  }));
  runChecks({
    graph: input.graph,
    bindings,
    footprint,
    actions: readActions(input.sources),
    assets,
    strict,
  }, report);
  // A cell the strict schema check already reports is not reported again from the build.
  const cellKey = (file?: string, row?: number, column?: string) => `${file}\0${row}\0${column}`;
  const checkedCells = new Set(
    issues.filter((i) => i.code === "csv_value_invalid").map((i) =>
      cellKey(i.file, i.row, i.column)
    ),
  );
  for (const b of input.buildIssues ?? []) {
    if (!CARRIED_BUILD_CODES.has(b.code)) continue;
    if (
      b.code === "csv_value_invalid" &&
      checkedCells.has(cellKey(b.file, b.cell?.row, b.cell?.column))
    ) {
      continue;
    }
    issues.push({
      severity: b.severity,
      code: b.code,
      message: b.file ? `${b.file}${b.line ? `:${b.line}` : ""}: ${b.message}` : b.message,
      file: b.file,
      ...(b.cell ? { row: b.cell.row, column: b.cell.column } : {}),
    });
  }
  if (input.buildFailed) {
    const first = (input.buildIssues ?? []).find((i) => i.severity === "error");
    issues.push({
      severity: "error",
      code: "build_failed",
      message: `the build failed${
        first ? `: ${first.file ? `${first.file}: ` : ""}${first.message}` : ""
      }`,
      file: first?.file,
    });
  }
  return makeReport(issues, strict);
}

/** Actions of every layer, as far as capability coverage needs them (SV33). */
export function readActions(sources: SourceSet): ActionOffer[] {
  const out: ActionOffer[] = [];
  for (const f of filesIn(sources, "actions", [".toml"])) {
    let doc;
    try {
      doc = parseTomlDocument(f.text, f.displayPath);
    } catch {
      continue;
    }
    const caps = Array.isArray(doc.capabilities)
      ? doc.capabilities.filter((c): c is string => typeof c === "string")
      : [];
    out.push({
      name: typeof doc.name === "string" ? doc.name : f.relPath.replace(/^.*\/|\.toml$/g, ""),
      named: typeof doc.name === "string",
      capabilities: caps,
      originType: typeof doc.origin_resource === "string" ? doc.origin_resource : undefined,
      description: typeof doc.description === "string" ? doc.description : undefined,
    });
  }
  return out;
}
