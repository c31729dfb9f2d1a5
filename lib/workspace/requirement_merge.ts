/**
 * Merging two requirement tables of one resource type (reference MP41).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";

/**
 * Two requirement tables on one type (MP41): the union of their properties; other keys from the
 * first.
 *
 * @example
 * ```ts
 * import { mergeRequirement } from "./requirement_merge.ts";
 * mergeRequirement({ properties: ["a"] }, { properties: ["b"] }); // { properties: ["a", "b"] }
 * ```
 */
export function mergeRequirement(
  prev: Record<string, JsonValue> | undefined,
  spec: Record<string, JsonValue>,
): Record<string, JsonValue> {
  if (!prev) return spec;
  const props = [
    ...(Array.isArray(prev.properties) ? prev.properties : []),
    ...(Array.isArray(spec.properties) ? spec.properties : []),
  ];
  return { ...spec, ...prev, properties: [...new Set(props)] };
}
