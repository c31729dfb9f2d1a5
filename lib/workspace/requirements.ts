/**
 * `[requirements.<type>]` / `[[requirement]]` of manifests (reference MP41–MP42), checked after
 * the build: no resource of the type → `requirement_unmet`; a resource lacking a required
 * property (absent or empty) → `requirement_property_missing`. Both are warnings here;
 * `--strict-schemas` promotes them (schema validation).
 *
 * @module
 */
import type { Graph, JsonValue } from "../graph/graph.ts";
import type { ModuleManifest } from "./manifest.ts";

/** One requirement problem. */
export interface RequirementIssue {
  /** `requirement_unmet` or `requirement_property_missing`. */
  code: "requirement_unmet" | "requirement_property_missing";
  /** What is missing. */
  message: string;
  /** The resource lacking a property (`type 'name'`), for property problems. */
  resource?: { type: string; name: string };
}

/** Resources reported per requirement and property at most; the rest are counted. */
const MAX_RESOURCES = 10;

const empty = (v: JsonValue | undefined) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/**
 * Checks every requirement of `manifest` against `graph`.
 *
 * @example
 * ```ts ignore
 * for (const r of requirementIssues(result.manifest, result.graph)) console.log(r.message);
 * ```
 */
export function requirementIssues(manifest: ModuleManifest, graph: Graph): RequirementIssue[] {
  const out: RequirementIssue[] = [];
  for (const [type, spec] of manifest.requirements) {
    const why = typeof spec.description === "string" ? ` (${spec.description})` : "";
    const resources = graph.resourcesOfSorted(type);
    if (resources.length === 0) {
      out.push({
        code: "requirement_unmet",
        message: `requirement: no resource of type '${type}'${why}`,
      });
      continue;
    }
    const props = Array.isArray(spec.properties)
      ? spec.properties.filter((p): p is string => typeof p === "string")
      : [];
    for (const prop of props) {
      const lacking = resources.filter((r) => empty(r.properties[prop]));
      for (const r of lacking.slice(0, MAX_RESOURCES)) {
        out.push({
          code: "requirement_property_missing",
          message: `requirement: ${type} '${r.name}' lacks property '${prop}'${why}`,
          resource: { type, name: r.name },
        });
      }
      if (lacking.length > MAX_RESOURCES) {
        out.push({
          code: "requirement_property_missing",
          message: `requirement: ${lacking.length - MAX_RESOURCES} further ${type} resource(s) ` +
            `lack property '${prop}'`,
        });
      }
    }
  }
  return out;
}
