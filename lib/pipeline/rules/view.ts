/**
 * The resource view given to templates (reference T12–T15): all properties, plus one lazily
 * computed field per relation — outgoing relation type → targets, incoming source type →
 * sources, and (compatibility with published modules) outgoing target type → targets — each element being the related resource's view augmented with the compatibility keys
 * `node` (itself) and `properties` (edge properties incl. `relation`). Relation fields win over a
 * property of the same key; the raw property stays available as `<key>__value`. Relation lists
 * are ordered by name. Fields are built on first access, so cyclic graphs are fine.
 *
 * Non-enumerable extras: `_type` (the resource type, used by published modules), `<key>__value`,
 * `node`, `properties`, and `toJSON()` (depth-limited plain copy for `json_encode`).
 *
 * @module
 */
import type { Graph, JsonValue, Relation, Resource } from "../../graph/graph.ts";
import { compareStrings } from "../../graph/graph.ts";
import { setById } from "../../graph/dense.ts";

/** A resource as seen by templates. */
export type ResourceView = Record<string, unknown>;

/** Depth of relation expansion in {@link ResourceView}'s `toJSON` (reference T34). */
export const VIEW_JSON_DEPTH = 2;

/**
 * Builds the lazy template view of `resource`.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { resourceView } from "./view.ts";
 * const g = new Graph();
 * const app = g.upsertResource("app", "web", { owner: "ops" });
 * const db = g.upsertResource("database", "pg");
 * g.upsertRelation(app, "USES", db);
 * const v = resourceView(g, app);
 * console.log((v.USES as { name: string }[])[0].name); // "pg"
 * ```
 */
export function resourceView(graph: Graph, resource: Resource): ResourceView {
  return buildView(graph, resource, undefined);
}

/**
 * Reuses the view of a resource while the resource is unchanged ({@link Graph.version}) and no
 * relation field of the view has been expanded yet (expanded fields hold views of other
 * resources, which may have changed since). Model rules build the same origin views block
 * after block and pass after pass; most of them can be shared.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { ViewCache } from "./view.ts";
 * const g = new Graph();
 * const a = g.upsertResource("host", "a");
 * const views = new ViewCache(g);
 * console.log(views.view(a) === views.view(a)); // true
 * g.setProperty(a, "env", "prod");
 * console.log(views.view(a).env); // "prod"
 * ```
 */
export class ViewCache {
  #graph: Graph;
  #entries: ({ version: number; view: ResourceView } | undefined)[] = [];

  /** Creates a cache over `graph`. @param graph the graph whose resources are viewed */
  constructor(graph: Graph) {
    this.#graph = graph;
  }

  /** The view of `resource` (same as {@link resourceView}). */
  view(resource: Resource): ResourceView {
    const version = this.#graph.version(resource);
    const hit = this.#entries[resource.id];
    if (hit && hit.version === version && !(hit.view as Expandable)[VIEW_EXPANDED]) {
      return hit.view;
    }
    const view = buildView(this.#graph, resource, undefined);
    setById(this.#entries, resource.id, { version, view });
    return view;
  }
}

const VIEW_EXPANDED = Symbol("view expanded");
type Expandable = { [VIEW_EXPANDED]?: true };

const VIEW_GRAPH = Symbol("view graph");
const VIEW_RESOURCE = Symbol("view resource");

/**
 * Prototype of every view: `toJSON` lives here rather than on each view (one
 * `defineProperty` less per view; templates only see own properties).
 */
const VIEW_PROTOTYPE: object = Object.create(Object.prototype, {
  toJSON: {
    value(this: { [VIEW_GRAPH]: Graph; [VIEW_RESOURCE]: Resource }) {
      return plainResource(this[VIEW_GRAPH], this[VIEW_RESOURCE], VIEW_JSON_DEPTH);
    },
    enumerable: false,
  },
});

function buildView(graph: Graph, resource: Resource, edge: Relation | undefined): ResourceView {
  const view = Object.create(VIEW_PROTOTYPE) as ResourceView & {
    [VIEW_GRAPH]: Graph;
    [VIEW_RESOURCE]: Resource;
  };
  view[VIEW_GRAPH] = graph;
  view[VIEW_RESOURCE] = resource;
  const props = resource.properties;
  const relKeys = relationKeys(graph, resource, props);
  for (const key in props) {
    if (relKeys.has(key)) {
      hidden(view, key + "__value", props[key]);
    } else {
      view[key] = props[key];
    }
  }
  for (const key of relKeys) {
    Object.defineProperty(view, key, { enumerable: true, configurable: true, get: expander(key) });
  }
  if (!("_type" in view)) hidden(view, "_type", resource.type);
  if (edge) {
    if (!("node" in view)) hidden(view, "node", view);
    if (!("properties" in view)) {
      hidden(view, "properties", { ...edge.properties, relation: edge.type });
    }
  }
  return view;
}

/** The lazy getter of relation field `key`, one per key for every view (see {@link expander}). */
const expanders = new Map<string, (this: ResourceView) => unknown>();

/**
 * The getter of relation field `key`: on first read, the field's related views replace it as a
 * data property. One function per key, shared by every view: views with the same fields then
 * share their hidden class, where a closure per view gave each view its own (~2 µs a view).
 */
function expander(key: string): (this: ResourceView) => unknown {
  let get = expanders.get(key);
  if (get === undefined) {
    get = function (this: ResourceView) {
      const self = this as ResourceView & Expandable & {
        [VIEW_GRAPH]: Graph;
        [VIEW_RESOURCE]: Resource;
      };
      self[VIEW_EXPANDED] = true;
      const list = relatedViews(self[VIEW_GRAPH], self[VIEW_RESOURCE], key);
      Object.defineProperty(self, key, { value: list, enumerable: true, configurable: true });
      return list;
    };
    expanders.set(key, get);
  }
  return get;
}

function hidden(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true });
}

/**
 * Relation field keys of a resource: outgoing relation types, incoming source types, and the
 * target types of outgoing relations unless a property has that name (published modules read
 * `origin_resource.provider[0]` through a `DEFINED_BY` relation to a `provider`).
 */
export function relationKeys(
  graph: Graph,
  resource: Resource,
  properties: Readonly<Record<string, unknown>> = resource.properties,
): Set<string> {
  const keys = new Set<string>();
  for (const r of graph.outgoing(resource)) keys.add(r.type);
  for (const r of graph.incoming(resource)) keys.add(r.source.type);
  // Target-type keys are weaker than properties: a property of that name keeps its value.
  for (const r of graph.outgoing(resource)) {
    if (!keys.has(r.target.type) && !(r.target.type in properties)) keys.add(r.target.type);
  }
  return keys;
}

/** Related resources behind a relation field key, with the edge that reaches each, by name. */
export function relatedVia(
  graph: Graph,
  resource: Resource,
  key: string,
): { resource: Resource; edge: Relation }[] {
  const seen = new Set<number>();
  const out: { resource: Resource; edge: Relation }[] = [];
  for (const r of graph.outgoing(resource, key)) {
    if (!seen.has(r.target.id)) {
      seen.add(r.target.id);
      out.push({ resource: r.target, edge: r });
    }
  }
  for (const r of graph.incoming(resource)) {
    if (r.source.type === key && !seen.has(r.source.id)) {
      seen.add(r.source.id);
      out.push({ resource: r.source, edge: r });
    }
  }
  for (const r of graph.outgoing(resource)) {
    if (r.target.type === key && !seen.has(r.target.id)) {
      seen.add(r.target.id);
      out.push({ resource: r.target, edge: r });
    }
  }
  return out.sort((a, b) =>
    compareStrings(a.resource.name, b.resource.name) ||
    compareStrings(a.resource.type, b.resource.type)
  );
}

function relatedViews(graph: Graph, resource: Resource, key: string): ResourceView[] {
  return relatedVia(graph, resource, key).map((x) => buildView(graph, x.resource, x.edge));
}

/**
 * Plain JSON copy of a resource: properties, plus relation fields expanded `depth` levels deep
 * (depth 0: properties only). Relation fields win over properties of the same key.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { plainResource } from "./view.ts";
 * const g = new Graph();
 * const a = g.upsertResource("a", "x");
 * g.upsertRelation(a, "b", g.upsertResource("b", "y"));
 * console.log(JSON.stringify(plainResource(g, a, 1))); // {"name":"x","b":[{"name":"y","a":[{"name":"x"}]}]}
 * ```
 */
export function plainResource(
  graph: Graph,
  resource: Resource,
  depth: number,
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = { ...resource.properties };
  if (depth <= 0) return out;
  for (const key of relationKeys(graph, resource)) {
    out[key] = relatedVia(graph, resource, key).map((x) =>
      plainResource(graph, x.resource, depth - 1)
    );
  }
  return out;
}
