/**
 * Dotted relation paths (reference M75, M42, M44, M24): `"zone.owner"` follows relation `zone`
 * from a resource and reads `owner` on each reached resource. A segment resolves to the targets
 * of outgoing relations of that type when there are any, otherwise to the sources of incoming
 * relations from resources of that type, and failing both to the targets of outgoing relations
 * that point at resources of that type (same compatibility rule as the template view).
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../../graph/graph.ts";
import { compareStrings } from "../../graph/graph.ts";

/**
 * Resources reached from `resource` through one relation segment, ordered by name.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { followSegment } from "./paths.ts";
 * const g = new Graph();
 * const s = g.upsertResource("server", "s1");
 * g.upsertRelation(s, "networks", g.upsertResource("networks", "n1"));
 * console.log(followSegment(g, s, "networks").map((r) => r.name)); // ["n1"]
 * ```
 */
export function followSegment(graph: Graph, resource: Resource, segment: string): Resource[] {
  const out = graph.outgoing(resource, segment).map((r) => r.target);
  if (out.length > 0) return dedupeSorted(out);
  const incoming = graph.incoming(resource).filter((r) => r.source.type === segment);
  if (incoming.length > 0) return dedupeSorted(incoming.map((r) => r.source));
  return dedupeSorted(
    graph.outgoing(resource).filter((r) => r.target.type === segment).map((r) => r.target),
  );
}

/** Resources reached by following every segment of `segments` in turn. */
export function followPath(
  graph: Graph,
  resource: Resource,
  segments: readonly string[],
): Resource[] {
  let current = [resource];
  for (const seg of segments) {
    const next: Resource[] = [];
    // Loops, not push(...spread): a segment can reach more resources than the argument limit.
    for (const r of current) for (const n of followSegment(graph, r, seg)) next.push(n);
    current = dedupeSorted(next);
    if (current.length === 0) break;
  }
  return current;
}

/**
 * Values of a (possibly dotted) property path: one entry per reached resource (`undefined` for
 * a missing property). A path whose relation prefix reaches nothing falls back to reading a
 * nested object property (`data.city` on an inline-table property); failing that it yields
 * `[undefined]`.
 */
export function propertyValues(
  graph: Graph,
  resource: Resource,
  path: string,
): (JsonValue | undefined)[] {
  const segs = path.split(".");
  if (segs.length === 1) return [resource.properties[path]];
  const prop = segs[segs.length - 1];
  const reached = followPath(graph, resource, segs.slice(0, -1));
  if (reached.length > 0) return reached.map((r) => r.properties[prop]);
  let v: JsonValue | undefined = resource.properties[segs[0]];
  for (const s of segs.slice(1)) {
    if (v && typeof v === "object" && !Array.isArray(v)) v = v[s];
    else return [undefined];
  }
  return [v];
}

function dedupeSorted(list: Resource[]): Resource[] {
  const seen = new Set<number>();
  const out: Resource[] = [];
  for (const r of list) {
    if (!seen.has(r.id)) {
      seen.add(r.id);
      out.push(r);
    }
  }
  return out.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.type, b.type));
}
