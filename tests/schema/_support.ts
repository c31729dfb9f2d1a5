/**
 * Test support for schemas: build an in-memory workspace with every rule phase and validate it.
 *
 * @module
 */
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet, type SourceSet } from "../../lib/workspace/sources.ts";
import { buildSources } from "../pipeline/outputs/_support.ts";
import type { BuildResult } from "../../lib/pipeline/build.ts";
import {
  prepareSchemaTexts,
  validateWorkspace,
  type ValidationOptions,
} from "../../lib/schema/validate.ts";
import type { SchemaFetcher } from "../../lib/schema/sources.ts";
import type { ValidationIssue, ValidationReport } from "../../lib/schema/types.ts";

/** A schema document as JSON text. */
export function schema(id: string, resources: Record<string, unknown>, version = "20250412") {
  return JSON.stringify({ schema_id: id, version, resources });
}

/** Builds `files` (plus optional module layers) in memory. */
export async function build(
  files: Record<string, string>,
  modules: Record<string, Record<string, string>> = {},
): Promise<{ sources: SourceSet; result: BuildResult }> {
  const sources = await loadSourceSet(
    new MemoryWorkspace(files),
    Object.entries(modules).map(([id, f]) => ({ id, workspace: new MemoryWorkspace(f) })),
  );
  return { sources, result: buildSources(sources) };
}

/** Builds and validates `files`. */
export async function validate(
  files: Record<string, string>,
  options: ValidationOptions & { fetcher?: SchemaFetcher } = {},
  modules: Record<string, Record<string, string>> = {},
): Promise<ValidationReport> {
  const { sources, result } = await build(files, modules);
  const texts = await prepareSchemaTexts(sources, result.manifest, options.fetcher);
  return validateWorkspace({
    sources,
    graph: result.graph,
    manifest: result.manifest,
    assets: result.assets,
    buildIssues: result.issues,
    buildFailed: result.outcome === "failed",
  }, { texts, ...options });
}

/** Issues of `report` with `code`. */
export function withCode(report: ValidationReport, code: string): ValidationIssue[] {
  return report.issues.filter((i) => i.code === code);
}

/** Codes of a report, in report order. */
export function codes(report: ValidationReport): string[] {
  return report.issues.map((i) => i.code);
}
