/**
 * The graph in the shape of the original's own graph export (`vertices`/`edges` with
 * `start_id`/`end_id`), so users can diff the two engines' graphs of the same workspace
 * (`build --graph-json FILE --graph-format rescile`).
 *
 * Rules settled on the original's export of rescile/aws_transit_hub (graph150.json), see
 * docs/differences.md:
 * - a vertex is `{ id, label, properties }`, an edge `{ id, label, properties, start_id, end_id }`;
 *   property keys are sorted;
 * - a resource a rule created in the global context (no `origin_resource`, reference M15) hangs
 *   off a root: an edge of empty label from the nil UUID, which is no vertex;
 * - a property named after a resource type (`region`, `provider`) is a list: each name of a
 *   resource of that type created before the owner is embedded as that resource's properties
 *   plus its `id`, any other name stays a name. The graph itself keeps the string (templates
 *   compare it as one);
 * - the original's ids are random UUIDs; these are name-based (UUID version 8 from SHA-256 of the
 *   type and name), so two exports of one workspace are equal. Its `created` timestamps and
 *   `_source_model_file` are not reproduced.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Graph } from "./graph.ts";
import type { JsonValue, Properties, Resource } from "./types.ts";

/** Id of the root that globally created resources hang off (the nil UUID, as in the original). */
export const RESCILE_ROOT_ID = "00000000-0000-0000-0000-000000000000";

/** A vertex of the original's graph export. */
export interface RescileVertex {
  /** UUID. */
  id: string;
  /** Resource type. */
  label: string;
  /** Properties, keys sorted. */
  properties: Record<string, JsonValue>;
}

/** An edge of the original's graph export. */
export interface RescileEdge {
  /** UUID. */
  id: string;
  /** Relation type (empty for M12 relations and root edges). */
  label: string;
  /** Relation properties, keys sorted. */
  properties: Record<string, JsonValue>;
  /** Id of the source vertex (or {@link RESCILE_ROOT_ID}). */
  start_id: string;
  /** Id of the target vertex. */
  end_id: string;
}

/** The original's graph export. */
export interface RescileGraphJson {
  /** Every resource. */
  vertices: RescileVertex[];
  /** Every relation, then the root edges. */
  edges: RescileEdge[];
}

/** Options of {@link graphToRescileJson}. */
export interface RescileJsonOptions {
  /** True for resources a rule created in the global context (they get a root edge). */
  isGlobal?: (resource: Resource) => boolean;
}

const utf8 = new TextEncoder();

/**
 * A name-based UUID (version 8, RFC 9562) from the SHA-256 of `parts` joined by NUL.
 *
 * @example
 * ```ts
 * import { nameUuid } from "./rescile_json.ts";
 * console.log(nameUuid("host", "web-1") === nameUuid("host", "web-1")); // true
 * console.log(nameUuid("host", "web-1")[14]); // "8"
 * ```
 */
export function nameUuid(...parts: string[]): string {
  const b = sha256(utf8.encode(parts.join("\u0000"))).subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = bytesToHex(b);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}

/**
 * `graph` in the original's export shape (rules in the module comment).
 *
 * @example
 * ```ts
 * import { Graph } from "./graph.ts";
 * import { graphToRescileJson } from "./rescile_json.ts";
 * const g = new Graph();
 * const id = g.upsertResource("identity", "alice");
 * const login = g.upsertResource("login", "al", { identity: "alice" });
 * g.upsertRelation(id, "", login);
 * const out = graphToRescileJson(g);
 * console.log(out.vertices.length, out.edges[0].label === ""); // 2 true
 * console.log(out.vertices[1].properties.identity); // [{ id: "<uuid of alice>", name: "alice" }]
 * ```
 */
export function graphToRescileJson(
  graph: Graph,
  options: RescileJsonOptions = {},
): RescileGraphJson {
  const ids = new Map<number, string>();
  const idOf = (r: Resource) => {
    let id = ids.get(r.id);
    if (id === undefined) ids.set(r.id, id = nameUuid(r.type, r.name));
    return id;
  };
  const vertices: RescileVertex[] = [];
  const roots: RescileEdge[] = [];
  for (const r of graph.resources()) {
    vertices.push({ id: idOf(r), label: r.type, properties: exportedProperties(graph, r, idOf) });
    if (options.isGlobal?.(r)) {
      roots.push({
        id: nameUuid("root", r.type, r.name),
        label: "",
        properties: {},
        start_id: RESCILE_ROOT_ID,
        end_id: idOf(r),
      });
    }
  }
  const edges: RescileEdge[] = [];
  for (const rel of graph.relations()) {
    const start = idOf(rel.source);
    const end = idOf(rel.target);
    edges.push({
      id: nameUuid("edge", start, rel.type, end),
      label: rel.type,
      properties: sortedKeys(rel.properties),
      start_id: start,
      end_id: end,
    });
  }
  return { vertices, edges: edges.concat(roots) };
}

function exportedProperties(
  graph: Graph,
  r: Resource,
  idOf: (r: Resource) => string,
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(r.properties).sort()) {
    const value = r.properties[key];
    out[key] = key !== "name" && graph.hasType(key)
      ? typeNamedList(graph, r, key, value, idOf)
      : value;
  }
  return out;
}

function typeNamedList(
  graph: Graph,
  owner: Resource,
  type: string,
  value: JsonValue,
  idOf: (r: Resource) => string,
): JsonValue {
  const names = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
  if (!names) return value;
  return names.map((name) => {
    if (typeof name !== "string") return name;
    const target = graph.getResource(type, name.trim());
    if (!target || target.id >= owner.id) return name;
    return sortedKeys({ ...target.properties, id: idOf(target) });
  });
}

function sortedKeys(properties: Properties): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(properties).sort()) out[key] = properties[key];
  return out;
}
