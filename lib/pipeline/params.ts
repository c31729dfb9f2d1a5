/**
 * Module parameter resolution (reference MP21–MP27): caller values, then declared defaults;
 * validation of required and allowed values.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import type { IssueCollector } from "./issues.ts";

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
    if (manifest.modules.length > 0) {
      issues.warn("param_unknown", `parameter '${name}' is not declared by any module`, {
        phase: "params",
      });
    }
    out[name] = value;
  }
  return out;
}
