/**
 * Module parameter resolution (reference MP21–MP27): caller values, then declared defaults;
 * validation of required and allowed values.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import { IssueCollector } from "./issues.ts";

/**
 * Resolves current parameter values. Reports `param_missing` and `param_not_allowed` errors and
 * `param_unknown` warnings (undeclared values are still exposed to templates).
 *
 * @example
 * ```ts
 * import { emptyManifest } from "../workspace/manifest.ts";
 * import { IssueCollector } from "./issues.ts";
 * import { resolveParams } from "./params.ts";
 * resolveParams(emptyManifest(), { stage: "DEV" }, new IssueCollector()); // { stage: "DEV" }
 * ```
 */
export function resolveParams(
  manifest: ModuleManifest,
  given: Readonly<Record<string, JsonValue>>,
  issues: IssueCollector,
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, decl] of manifest.params) {
    const value = Object.hasOwn(given, name) ? given[name] : decl.default;
    if (value === undefined || value === null || value === "") {
      if (decl.required) {
        issues.error("param_missing", `required parameter '${name}' has no value`, {
          phase: "params",
        });
      }
      if (value !== undefined) out[name] = value;
      continue;
    }
    if (decl.allowedValues && !decl.allowedValues.some((v) => v === value)) {
      issues.error(
        "param_not_allowed",
        `parameter '${name}' = ${JSON.stringify(value)} is not one of ${
          JSON.stringify(decl.allowedValues)
        }`,
        { phase: "params" },
      );
    }
    out[name] = value;
  }
  for (const [name, value] of Object.entries(given)) {
    if (manifest.params.has(name)) continue;
    // MP24: undeclared, also when no manifest declares anything.
    issues.warn("param_unknown", `parameter '${name}' is not declared by any module`, {
      phase: "params",
    });
    out[name] = value;
  }
  return out;
}

/**
 * Configuration errors of parameters, checked before any phase runs (reference CL21): a manifest
 * that does not parse, a required parameter without value, a value not allowed. Returns the
 * messages (empty when the configuration is usable).
 *
 * @example
 * ```ts
 * import { emptyManifest } from "../workspace/manifest.ts";
 * import { parameterErrors } from "./params.ts";
 * parameterErrors(emptyManifest(), { stage: "DEV" }); // []
 * ```
 */
export function parameterErrors(
  manifest: ModuleManifest,
  given: Readonly<Record<string, JsonValue>>,
): string[] {
  const issues = new IssueCollector();
  resolveParams(manifest, given, issues);
  return issues.all.filter((i) => i.severity === "error").map((i) => i.message);
}
