/**
 * The schema model of a graph made by `Graph.spliced` from the model of the graph it came from,
 * without a scan (issue 25: a row addition costs what it changes): when the splice only added
 * resources, and every added resource's properties and relations are of kinds and shapes the
 * old model already has, the schema is the same and only the counts grow.
 *
 * @module
 */
import type { Graph, GraphSplicing, Resource } from "../../graph/graph.ts";
import { kindOf } from "./infer.ts";
import type { SchemaModel, TypeModel } from "./model.ts";

/**
 * The model of `graph` (spliced from a graph whose model is `base`), or undefined when
 * the splice removed resources or an added resource brings a property key, a kind of value, a
 * relation label or a pair of types the base model lacks (a scan is then needed).
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { buildSchemaModel } from "./model.ts";
 * import { splicedModel } from "./spliced_model.ts";
 * const g = new Graph();
 * g.upsertResource("host", "a", { port: 1 });
 * g.seal();
 * const s = g.spliced(
 *   [{ type: "host", at: 1, removed: 0, added: [{ name: "b", properties: { name: "", port: 2 } }] }],
 *   () => [],
 * ) as Graph;
 * console.log(splicedModel(buildSchemaModel(g), s, s.splicing!)?.resourceCounts.get("host")); // 2
 * ```
 */
export function splicedModel(
  base: SchemaModel,
  graph: Graph,
  splicing: Pick<GraphSplicing, "added" | "removed">,
): SchemaModel | undefined {
  if (splicing.removed > 0) return undefined;
  const types = new Map<string, TypeModel>();
  for (const t of base.types) types.set(t.raw, t);
  const kindsOf = new Map<string, Map<string, number>>();
  const propertyKinds = (type: TypeModel) => {
    let map = kindsOf.get(type.raw);
    if (!map) {
      map = new Map(type.properties.map((p) => [p.key, p.kinds]));
      kindsOf.set(type.raw, map);
    }
    return map;
  };
  // A relation field of `type` named `raw` reaching `other` in direction `outgoing`.
  const hasRelation = (type: string, raw: string, other: string, outgoing: boolean) => {
    const field = types.get(type)?.relations.find((r) => r.raw === raw);
    return field !== undefined && (outgoing ? field.outgoing : field.incoming) &&
      field.nodeTypes.includes(other) && field.edgeProperties.length === 0;
  };
  const resourceCounts = new Map(base.resourceCounts);
  const edgeCounts = new Map(base.relationEdgeCounts);
  const countEdge = (key: string) => edgeCounts.set(key, (edgeCounts.get(key) ?? 0) + 1);
  const added = new Set(splicing.added);
  let nodePropertyCount = base.nodePropertyCount;
  const relationOk = (source: Resource, label: string, target: Resource, properties: object) => {
    for (const _ in properties) return false;
    if (
      !hasRelation(source.type, label, target.type, true) ||
      !hasRelation(target.type, source.type, source.type, false)
    ) return false;
    countEdge(`${source.type}\u0000${label}`);
    countEdge(`${target.type}\u0000${source.type}`);
    return true;
  };
  for (const id of splicing.added) {
    const resource = graph.getResourceById(id);
    const type = resource && types.get(resource.type);
    if (!resource || !type) return undefined;
    const kinds = propertyKinds(type);
    for (const key in resource.properties) {
      if (key === "name") continue;
      const known = kinds.get(key);
      if (known === undefined || (known | kindOf(resource.properties[key])) !== known) {
        return undefined;
      }
      nodePropertyCount++;
    }
    nodePropertyCount++;
    resourceCounts.set(type.raw, (resourceCounts.get(type.raw) ?? 0) + 1);
    for (const r of graph.outgoing(resource)) {
      if (!relationOk(r.source, r.type, r.target, r.properties)) return undefined;
    }
    for (const r of graph.incoming(resource)) {
      if (added.has(r.source.id)) continue; // counted as the source's outgoing relation
      if (!relationOk(r.source, r.type, r.target, r.properties)) return undefined;
    }
  }
  return { ...base, nodePropertyCount, resourceCounts, relationEdgeCounts: edgeCounts };
}
