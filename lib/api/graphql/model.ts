/**
 * The schema model: one pass over a graph's resources and relations collects, per resource
 * type, the property fields (with inferred scalar types, G11) and the relation fields (with
 * their reachable node types and edge property fields, G13–G15), and assigns every GraphQL
 * name (G5/G6). No GraphQL objects are created here.
 *
 * @module
 */

import { compareStrings, type Graph, type Properties } from "../../graph/graph.ts";
import { runSteps, type Steps } from "../../pipeline/slicing.ts";
import { type FieldScalar, KindCollector, scalarOfKinds } from "./infer.ts";
import { NameRegistry, RESERVED_TYPE_NAMES, sanitizeName, sanitizeTypeName } from "./naming.ts";

/** A field backed by a property key. */
export interface PropertyFieldModel {
  /** Property key as stored. */
  readonly key: string;
  /** GraphQL field name. */
  readonly fieldName: string;
  /** Inferred field type. */
  readonly scalar: FieldScalar;
  /** The kinds of value seen (`infer.ts` bits) the scalar was inferred from. */
  readonly kinds: number;
}

/** A relation field of a resource type (G13). */
export interface RelationFieldModel {
  /** Outgoing relation type and/or incoming source type this field follows. */
  readonly raw: string;
  /** GraphQL field name. */
  readonly fieldName: string;
  /** Resource types reachable through the field, sorted. */
  readonly nodeTypes: readonly string[];
  /** Fields of the edge `properties` object besides `relation` and `controls`. */
  readonly edgeProperties: readonly PropertyFieldModel[];
  /** Name of the edge object type. */
  readonly edgeTypeName: string;
  /** Name of the edge properties object type. */
  readonly propertiesTypeName: string;
  /** Name of the union of node types (only used when `nodeTypes` has several entries). */
  readonly unionTypeName: string;
  /** True when outgoing relations of type `raw` exist on this resource type. */
  readonly outgoing: boolean;
  /** True when incoming relations from resources of type `raw` exist. */
  readonly incoming: boolean;
}

/** Everything needed to generate the object type of one resource type. */
export interface TypeModel {
  /** Resource type as stored. */
  readonly raw: string;
  /** GraphQL object type name (G5). */
  readonly typeName: string;
  /** Query root field name (G7). */
  readonly rootFieldName: string;
  /** Property fields, in first-seen key order; `name` is not included. */
  readonly properties: readonly PropertyFieldModel[];
  /** Relation fields, sorted by raw name. */
  readonly relations: readonly RelationFieldModel[];
}

/** The model of a whole schema. */
export interface SchemaModel {
  /** Resource types, sorted by raw name. */
  readonly types: readonly TypeModel[];
  /** Number of distinct relation types. */
  readonly relationTypeCount: number;
  /** Sum over resources of their property count (including `name`). */
  readonly nodePropertyCount: number;
  /** Sum over relations of their property count. */
  readonly edgePropertyCount: number;
  /** Number of resources of each type, keyed by raw type (not part of the schema's shape). */
  readonly resourceCounts: ReadonlyMap<string, number>;
  /**
   * Number of relations behind each relation field, keyed `<raw type>\u0000<raw field>`: those
   * of the type with that label plus those reaching it from resources of a type of that name
   * (not part of the schema's shape; the query cost estimate averages them).
   */
  readonly relationEdgeCounts: ReadonlyMap<string, number>;
  /** Type-name registry: later additions (mutation inputs) must claim names here. */
  readonly typeNames: NameRegistry;
}

/** Names of the global query fields (G9); resource root fields never take them. */
export const GLOBAL_FIELD_NAMES: readonly string[] = [
  "countNodes",
  "countEdges",
  "countResourceTypes",
  "countRelationTypes",
  "countNodeProperties",
  "countEdgeProperties",
  "listNodes",
  "findPaths",
  "graphJson",
];

interface RelationScan {
  nodeTypes: Set<string>;
  props: KindCollector;
  outgoing: boolean;
  incoming: boolean;
  edges: number;
}

/** Resources or relations scanned between two pause points of {@link schemaModelSteps}. */
const ITEMS_PER_STEP = 4096;

/** Scans the graph once and names everything. */
export function buildSchemaModel(graph: Graph): SchemaModel {
  return runSteps(schemaModelSteps(graph));
}

/**
 * {@link buildSchemaModel} as steps (`pipeline/slicing.ts`): pauses every few thousand resources
 * or relations, so a large graph's model can be made in time slices beside readers.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { runSteps } from "../../pipeline/slicing.ts";
 * import { schemaModelSteps } from "./model.ts";
 * const g = new Graph();
 * g.upsertResource("zone", "a.org", { ttl: 60 });
 * console.log(runSteps(schemaModelSteps(g)).types[0].typeName); // "zone"
 * ```
 */
export function* schemaModelSteps(graph: Graph): Steps<SchemaModel> {
  const rawTypes = graph.types();

  let nodePropertyCount = 0;
  const propertyKinds = new Map<string, KindCollector>();
  const resourceCounts = new Map<string, number>();
  for (const type of rawTypes) {
    const collector = new KindCollector();
    const resources = graph.resourcesOf(type);
    for (let i = 0; i < resources.length; i++) {
      if (i % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
      nodePropertyCount += collector.add(resources[i].properties, "name") + 1;
    }
    propertyKinds.set(type, collector);
    resourceCounts.set(type, resources.length);
  }

  let edgePropertyCount = 0;
  const relationTypes = new Set<string>();
  const relationScans = new Map<string, Map<string, RelationScan>>();
  const scanFor = (type: string, raw: string): RelationScan => {
    let byRaw = relationScans.get(type);
    if (!byRaw) relationScans.set(type, byRaw = new Map());
    let scan = byRaw.get(raw);
    if (!scan) {
      byRaw.set(
        raw,
        scan = {
          nodeTypes: new Set(),
          props: new KindCollector(),
          outgoing: false,
          incoming: false,
          edges: 0,
        },
      );
    }
    return scan;
  };
  // Raw relations (no relation objects made). Runs of relations mostly share their source type,
  // label and target type: the scans of both directions are looked up once per run.
  let lastSource = "";
  let lastLabel = "";
  let lastTarget = "";
  let out: RelationScan | undefined;
  let back: RelationScan | undefined;
  const visit = (
    source: { type: string },
    label: string,
    target: { type: string },
    properties: Properties,
  ) => {
    if (
      out === undefined || source.type !== lastSource || label !== lastLabel ||
      target.type !== lastTarget
    ) {
      lastSource = source.type;
      lastLabel = label;
      lastTarget = target.type;
      relationTypes.add(label);
      out = scanFor(lastSource, label);
      out.nodeTypes.add(lastTarget);
      out.outgoing = true;
      back = scanFor(lastTarget, lastSource);
      back.nodeTypes.add(lastSource);
      back.incoming = true;
    }
    out.edges++;
    back!.edges++;
    if (isEmpty(properties)) return;
    edgePropertyCount += out.props.add(properties);
    back!.props.add(properties);
  };
  for (let from = 0; from < graph.relationIdLimit; from += ITEMS_PER_STEP) {
    graph.forEachRelation(visit, from, from + ITEMS_PER_STEP);
    yield;
  }

  const typeNames = new NameRegistry(RESERVED_TYPE_NAMES);
  const rootFields = new NameRegistry(GLOBAL_FIELD_NAMES);
  const named = rawTypes.map((raw) => ({
    raw,
    typeName: typeNames.claim(sanitizeTypeName(raw)),
    rootFieldName: rootFields.claim(sanitizeName(raw)),
  }));

  const types = named.map(({ raw, typeName, rootFieldName }): TypeModel => {
    const fields = new NameRegistry(["name"]);
    const scans = relationScans.get(raw) ?? new Map<string, RelationScan>();
    const relations = [...scans.keys()].sort(compareStrings).map((relRaw): RelationFieldModel => {
      const scan = scans.get(relRaw)!;
      const fieldName = fields.claim(sanitizeName(relRaw));
      const prefix = `${typeName}_${fieldName}`;
      return {
        raw: relRaw,
        fieldName,
        nodeTypes: [...scan.nodeTypes].sort(compareStrings),
        edgeProperties: edgePropertyFields(scan.props),
        edgeTypeName: typeNames.claim(`${prefix}_edge`),
        propertiesTypeName: typeNames.claim(`${prefix}_properties`),
        unionTypeName: scan.nodeTypes.size > 1 ? typeNames.claim(`${prefix}_target`) : "",
        outgoing: scan.outgoing,
        incoming: scan.incoming,
      };
    });
    const properties: PropertyFieldModel[] = [];
    const shadowed: string[] = [];
    for (const [key, mask] of propertyKinds.get(raw)!.kinds) {
      if (scans.has(key)) {
        shadowed.push(key);
        continue;
      }
      properties.push({
        key,
        fieldName: fields.claim(sanitizeName(key)),
        scalar: scalarOfKinds(mask),
        kinds: mask,
      });
    }
    for (const key of shadowed) {
      const mask = propertyKinds.get(raw)!.kinds.get(key)!;
      properties.push({
        key,
        fieldName: fields.claim(sanitizeName(`${key}__value`)),
        scalar: scalarOfKinds(mask),
        kinds: mask,
      });
    }
    return { raw, typeName, rootFieldName, properties, relations };
  });

  return {
    types,
    relationTypeCount: relationTypes.size,
    nodePropertyCount,
    edgePropertyCount,
    resourceCounts,
    relationEdgeCounts: edgeCounts(relationScans),
    typeNames,
  };
}

function edgeCounts(scans: Map<string, Map<string, RelationScan>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [type, byRaw] of scans) {
    for (const [raw, scan] of byRaw) out.set(`${type}\u0000${raw}`, scan.edges);
  }
  return out;
}

function isEmpty(properties: Properties): boolean {
  for (const _ in properties) return false;
  return true;
}

/** Edge property fields: `relation` and `controls` are fixed; a `relation` key is renamed. */
function edgePropertyFields(props: KindCollector): PropertyFieldModel[] {
  const fields = new NameRegistry(["relation", "controls"]);
  const out: PropertyFieldModel[] = [];
  for (const [key, mask] of props.kinds) {
    if (key === "controls") continue;
    const base = key === "relation" ? "relation__value" : sanitizeName(key);
    out.push({ key, fieldName: fields.claim(base), scalar: scalarOfKinds(mask), kinds: mask });
  }
  return out;
}
