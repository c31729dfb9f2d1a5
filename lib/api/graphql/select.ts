/**
 * The resources a per-type root field returns (reference graphql.md G7/G8): the resources of the
 * type ordered by name, kept by the `filter` argument, then paged.
 *
 * A filter that pins `name` to a few exact strings (`name: "web-1"`, `name: { eq: … }`,
 * `name: { in: [...] }`, see {@link candidateNames}) is answered from the graph's name index
 * instead of a scan of the type: the read after a single-row write asks for one resource among
 * 100k. The whole filter still decides on each candidate, so the answer is the scan's.
 *
 * @module
 */

import type { Resource } from "../../graph/graph.ts";
import { candidateNames, compileFilter } from "./filter.ts";
import { type Page, pageOf } from "./paths.ts";
import type { GraphState } from "./snapshot.ts";

/** Options of {@link selectResources}. */
export interface SelectOptions {
  /** Scan every resource of the type even when the name index could answer (for tests). */
  readonly scan?: boolean;
}

/**
 * The resources of `type` in `snapshot` that satisfy `filter` (absent or null: all), ordered by
 * name, then the `page` of them. Throws `FilterError` for an invalid filter and `ArgumentError`
 * for invalid paging, as the scan does.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { graphState } from "./snapshot.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1", { env: "prod" });
 * g.upsertResource("host", "web-2", { env: "dev" });
 * g.seal();
 * const hits = selectResources(graphState(g), "host", { name: { in: ["web-2", "x"] } }, {});
 * console.log(hits.map((r) => r.name)); // ["web-2"]
 * ```
 */
export function selectResources(
  snapshot: GraphState,
  type: string,
  filter: unknown,
  page: Page,
  options: SelectOptions = {},
): readonly Resource[] {
  if (filter === undefined || filter === null) return pageOf(snapshot.sortedOf(type), page);
  const keep = compileFilter(filter);
  const names = options.scan ? undefined : candidateNames(filter);
  if (names === undefined) return pageOf(snapshot.sortedOf(type).filter(keep), page);
  // The filter's `name` is `Resource.name`, the very key of the name index: every resource
  // it can keep is among these lookups, which come in name order like the scan's.
  const graph = snapshot.graph;
  const hits: Resource[] = [];
  for (const name of names) {
    const resource = graph.getResource(type, name);
    if (resource !== undefined && keep(resource)) hits.push(resource);
  }
  return pageOf(hits, page);
}
