/**
 * Central schemas and validation (reference SV1–SV52): loading schema files, binding them to the
 * resource types a workspace creates, merging, the checks and their report, and
 * `generate-schema`.
 *
 * @example
 * ```ts ignore
 * import { validateWorkspace } from "./lib/schema/mod.ts";
 * const report = validateWorkspace({ sources, graph, manifest, assets }, { strict: false });
 * ```
 *
 * @module
 */
export { type GeneratedSchema, type GenerateOptions, generateSchema } from "./generate.ts";
export { parseSchema, SchemaLoadError } from "./parse.ts";
export { formatReportSyslog, formatReportText, makeReport, type SyslogOrigin } from "./report.ts";
export type { RemoteSchemaLocation, SchemaFetcher, SchemaText } from "./sources.ts";
export type {
  Capabilities,
  PropertyDef,
  PropertyTypeName,
  RelationDef,
  ResourceDef,
  Schema,
  ValidationIssue,
  ValidationReport,
  ValidationSeverity,
} from "./types.ts";
export {
  prepareSchemaTexts,
  validateWorkspace,
  type ValidationInput,
  type ValidationOptions,
} from "./validate.ts";
