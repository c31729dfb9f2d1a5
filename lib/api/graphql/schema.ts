/**
 * Generates the read-only GraphQL schema of a graph snapshot (reference graphql.md G5–G15).
 *
 * The schema is built from a {@link SchemaModel} (one scan of the graph); resolvers work on the
 * graph's own `Resource`/`Relation` objects, so no per-resource object is created up front.
 *
 * @module
 */

import {
  GraphQLBoolean,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLNullableOutputType,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
} from "graphql";
import { compareStrings, type Graph, type Relation, type Resource } from "../../graph/graph.ts";
import type { FieldScalar } from "./infer.ts";
import { GraphQLJSON } from "./json_scalar.ts";
import type { PropertyFieldModel, RelationFieldModel } from "./model.ts";
import {
  DEFAULT_PATH_DEPTH,
  findPaths,
  graphJsonPage,
  listNodes,
  type Page,
  PAGE_ARGS,
} from "./paths.ts";
import { selectResources } from "./select.ts";
import { costExtension, FIND_PATHS_COST, pagedSize } from "./cost.ts";
import { type GraphState, graphState } from "./snapshot.ts";

/**
 * Per-request context passed to every resolver by `executeGraphQL`.
 *
 * @example
 * ```ts
 * const context: GraphQLContext = { edges: { take: (n: number) => void n } };
 * ```
 */
export interface GraphQLContext {
  /** Edge counter enforcing the returned-edges limit (absent → unlimited); throws past it. */
  readonly edges?: { take(count: number): void };
  /**
   * The snapshot the request reads. Schemas are shared by snapshots of the same shape, so the
   * resolvers take the graph from here, never from the schema.
   */
  readonly snapshot?: GraphState;
}

/** The snapshot of a request's context; an internal error when the executor gave none. */
function snapshotOf(context: GraphQLContext | undefined): GraphState {
  const snapshot = context?.snapshot;
  if (!snapshot) throw new Error("GraphQL context carries no graph snapshot");
  return snapshot;
}

/**
 * What a mutation generator gets to build the `Mutation` type from.
 *
 * @example
 * ```ts
 * const options: BuildSchemaOptions = {
 *   mutations: (ctx: MutationBuildContext) => ({}),
 * };
 * ```
 */
export interface MutationBuildContext {
  /**
   * A graph snapshot of the shape the schema is built for (schemas are shared by snapshots of
   * one shape: resolvers must read the request's snapshot from the context, not this graph).
   */
  readonly graph: Graph;
  /** Generated object type of each resource type, keyed by raw (unsanitised) type. */
  readonly objectTypes: ReadonlyMap<string, GraphQLObjectType>;
  /**
   * Reserves a schema-wide type name for a new type (input objects, results); returns `name`
   * or, when taken by a resource type or helper type, `name_<n>`.
   */
  claimTypeName(name: string): string;
}

/**
 * Options of {@link buildGraphQLSchema}.
 *
 * @example
 * ```ts
 * import { GraphQLString } from "graphql";
 * const options: BuildSchemaOptions = {
 *   mutations: () => ({ ping: { type: GraphQLString, resolve: () => "pong" } }),
 * };
 * ```
 */
export interface BuildSchemaOptions {
  /**
   * Extension point for auto-CRUD (G17–G20, a later issue): returns the fields of the `Mutation`
   * root type. When absent or empty, the schema has no `Mutation` type.
   */
  readonly mutations?: (
    context: MutationBuildContext,
  ) => GraphQLFieldConfigMap<unknown, GraphQLContext> | undefined;
}

/** An edge object as handed to the edge type's resolvers. */
export interface Edge {
  /** The underlying relation. */
  readonly relation: Relation;
  /** The resource at the other end. */
  readonly node: Resource;
  /** The resource the traversal came from. */
  readonly parent: Resource;
  /** True when the relation points away from `parent`. */
  readonly outgoing: boolean;
}

const schemaGraphs = new WeakMap<GraphQLSchema, Graph>();
const schemaShapes = new WeakMap<GraphQLSchema, string>();

/**
 * The graph a schema was built for by {@link buildGraphQLSchema} (such a schema refuses to run
 * against another snapshot); `undefined` for a shared schema ({@link sharedGraphQLSchema}).
 */
export function graphOfSchema(schema: GraphQLSchema): Graph | undefined {
  return schemaGraphs.get(schema);
}

/** The shape signature of the graphs a schema serves (see snapshot.ts `shapeSignature`). */
export function shapeOfSchema(schema: GraphQLSchema): string | undefined {
  return schemaShapes.get(schema);
}

/** Most shared schemas kept (least recently used first out). */
const MAX_SHARED_SCHEMAS = 16;
const shared = new Map<string, GraphQLSchema>();

/**
 * The schema of every graph with the shape of `graph`, for schema variant `variant` (which must
 * name everything `options` adds, e.g. the mutation mode and mutable assets): built on first
 * use, then reused by every later snapshot of the same shape. Resolvers read the snapshot from
 * the execution context, so the schema runs against any graph of its shape.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * const a = new Graph();
 * a.upsertResource("zone", "a.org", { ttl: 60 });
 * a.seal();
 * const b = new Graph();
 * b.upsertResource("zone", "b.org", { ttl: 300 });
 * b.seal();
 * console.log(sharedGraphQLSchema(a, "") === sharedGraphQLSchema(b, "")); // true
 * ```
 */
export function sharedGraphQLSchema(
  graph: Graph,
  variant: string,
  options: BuildSchemaOptions = {},
): GraphQLSchema {
  const state = graphState(graph);
  const key = `${variant}\n${state.signature}`;
  let schema = shared.get(key);
  if (schema) {
    shared.delete(key); // re-inserted below: most recently used last
  } else {
    schema = schemaFromModel(state, options);
    schemaShapes.set(schema, state.signature);
  }
  shared.set(key, schema);
  if (shared.size > MAX_SHARED_SCHEMAS) shared.delete(shared.keys().next().value!);
  return schema;
}

const SCALARS: Record<FieldScalar, GraphQLNullableOutputType> = {
  Boolean: GraphQLBoolean,
  Int: GraphQLInt,
  Float: GraphQLFloat,
  String: GraphQLString,
  StringList: new GraphQLList(GraphQLString),
  JSON: GraphQLJSON,
};

const nonNull = <T extends GraphQLNullableOutputType>(t: T): GraphQLNonNull<T> =>
  new GraphQLNonNull(t);
const nonNullList = <T extends GraphQLNullableOutputType>(
  t: T,
): GraphQLNonNull<GraphQLList<GraphQLNonNull<T>>> =>
  new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)));
const NON_NULL_STRING = new GraphQLNonNull(GraphQLString);

/**
 * Builds the GraphQL schema of a graph snapshot. Call once per published graph.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1", { env: "prod" });
 * const schema = buildGraphQLSchema(g);
 * ```
 */
export function buildGraphQLSchema(graph: Graph, options: BuildSchemaOptions = {}): GraphQLSchema {
  const schema = schemaFromModel(graphState(graph), options);
  schemaGraphs.set(schema, graph);
  return schema;
}

function schemaFromModel(state: GraphState, options: BuildSchemaOptions): GraphQLSchema {
  const model = state.model;
  const typeNames = model.typeNames.copy();
  const typeNameOf = new Map<string, string>();
  for (const t of model.types) typeNameOf.set(t.raw, t.typeName);

  const objectTypes = new Map<string, GraphQLObjectType>();
  for (const t of model.types) {
    objectTypes.set(
      t.raw,
      new GraphQLObjectType<Resource, GraphQLContext>({
        name: t.typeName,
        description: `Resource type \`${t.raw}\`.`,
        fields: () => {
          const fields: GraphQLFieldConfigMap<Resource, GraphQLContext> = {
            name: { type: nonNull(GraphQLString), resolve: (r) => r.name },
          };
          for (const p of t.properties) fields[p.fieldName] = propertyField(p);
          for (const rel of t.relations) {
            fields[rel.fieldName] = relationField(rel, objectTypes.get(t.raw)!, t.raw);
          }
          return fields;
        },
      }),
    );
  }

  const nodeTypeCache = new Map<string, GraphQLUnionType>();
  function nodeType(rel: RelationFieldModel): GraphQLNullableOutputType {
    if (rel.nodeTypes.length === 1) return objectTypes.get(rel.nodeTypes[0])!;
    let union = nodeTypeCache.get(rel.unionTypeName);
    if (!union) {
      union = new GraphQLUnionType({
        name: rel.unionTypeName,
        description: `Resource types reachable through \`${rel.raw}\`.`,
        types: rel.nodeTypes.map((raw) => objectTypes.get(raw)!),
        resolveType: (value: Resource) => typeNameOf.get(value.type),
      });
      nodeTypeCache.set(rel.unionTypeName, union);
    }
    return union;
  }

  function relationField(
    rel: RelationFieldModel,
    parentType: GraphQLObjectType,
    parentRaw: string,
  ): GraphQLFieldConfig<Resource, GraphQLContext> {
    const propertiesType = new GraphQLObjectType<Edge, GraphQLContext>({
      name: rel.propertiesTypeName,
      description: `Properties of the relations behind \`${rel.raw}\`.`,
      fields: () => {
        const fields: GraphQLFieldConfigMap<Edge, GraphQLContext> = {
          relation: { type: nonNull(GraphQLString), resolve: (e) => e.relation.type },
          controls: { type: GraphQLJSON, resolve: (e) => e.relation.properties.controls ?? null },
        };
        for (const p of rel.edgeProperties) {
          const key = p.key;
          fields[p.fieldName] = {
            type: SCALARS[p.scalar],
            resolve: (e) => e.relation.properties[key] ?? null,
          };
        }
        return fields;
      },
    });
    const edgeType = new GraphQLObjectType<Edge, GraphQLContext>({
      name: rel.edgeTypeName,
      description: `An edge of \`${parentType.name}.${rel.fieldName}\`.`,
      fields: () => ({
        node: { type: nonNull(nodeType(rel)), resolve: (e) => e.node },
        properties: { type: nonNull(propertiesType), resolve: (e) => e },
        parent: { type: nonNull(parentType), resolve: (e) => e.parent },
      }),
    });
    const raw = rel.raw;
    return {
      type: nonNullList(edgeType),
      description: relationDescription(rel),
      extensions: costExtension((_args, snapshot) => snapshot.relationAverage(parentRaw, raw)),
      resolve: (parent, _args, context) => {
        const edges = edgesOf(snapshotOf(context).graph, parent, raw);
        context?.edges?.take(edges.length);
        return edges;
      },
    };
  }

  const queryFields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  for (const t of model.types) {
    const raw = t.raw;
    queryFields[t.rootFieldName] = {
      type: nonNullList(objectTypes.get(raw)!),
      description: `Resources of type \`${raw}\` ordered by name, optionally filtered.`,
      args: {
        filter: {
          type: GraphQLJSON,
          description: "Object of conditions that must all hold: `{ key: value }` for an exact " +
            "match or `{ key: { eq | ne | contains | in | exists | gt | lt | regex: … } }`.",
        },
        ...PAGE_ARGS,
      },
      extensions: costExtension((args, snapshot) => pagedSize(args, snapshot.countOf(raw))),
      resolve: (_root, args: { filter?: unknown } & Page, context) =>
        selectResources(snapshotOf(context), raw, args.filter, args),
    };
  }
  Object.assign(queryFields, globalFields());

  const query = new GraphQLObjectType<unknown, GraphQLContext>({
    name: "Query",
    description: "Read access to the published graph.",
    fields: queryFields,
  });

  let mutation: GraphQLObjectType | undefined;
  const mutationFields = options.mutations?.({
    graph: state.graph,
    objectTypes,
    claimTypeName: (name) => typeNames.claim(name),
  });
  if (mutationFields && Object.keys(mutationFields).length > 0) {
    mutation = new GraphQLObjectType({ name: "Mutation", fields: mutationFields });
  }

  return new GraphQLSchema({ query, mutation, types: [...objectTypes.values()] });
}

function relationDescription(rel: RelationFieldModel): string {
  const parts: string[] = [];
  if (rel.outgoing) parts.push(`outgoing \`${rel.raw}\` relations`);
  if (rel.incoming) parts.push(`incoming relations from \`${rel.raw}\` resources`);
  return `Edges of ${parts.join(" and ")}, ordered by node type then name.`;
}

function propertyField(p: PropertyFieldModel): GraphQLFieldConfig<Resource, GraphQLContext> {
  const key = p.key;
  return { type: SCALARS[p.scalar], resolve: (r) => r.properties[key] ?? null };
}

/**
 * Edges of a relation field (G13/G14): outgoing relations of type `raw` plus incoming relations
 * from resources of type `raw`, ordered by node type, node name, relation type, direction.
 */
export function edgesOf(graph: Graph, parent: Resource, raw: string): Edge[] {
  const edges: Edge[] = [];
  for (const r of graph.outgoing(parent)) {
    if (r.type === raw) edges.push({ relation: r, node: r.target, parent, outgoing: true });
  }
  for (const r of graph.incoming(parent)) {
    if (r.source.type !== raw) continue;
    if (r.source === r.target && r.type === raw) continue; // self-loop already listed as outgoing
    edges.push({ relation: r, node: r.source, parent, outgoing: false });
  }
  if (edges.length > 1) edges.sort(compareEdges);
  return edges;
}

function compareEdges(a: Edge, b: Edge): number {
  return compareStrings(a.node.type, b.node.type) || compareStrings(a.node.name, b.node.name) ||
    compareStrings(a.relation.type, b.relation.type) || Number(b.outgoing) - Number(a.outgoing);
}

function globalFields(): GraphQLFieldConfigMap<unknown, GraphQLContext> {
  const int = (description: string, value: (snapshot: GraphState) => number) => ({
    type: nonNull(GraphQLInt),
    description,
    resolve: (_root: unknown, _args: unknown, context: GraphQLContext) =>
      value(snapshotOf(context)),
  });
  return {
    countNodes: int("Number of resources.", (s) => s.graph.resourceCount),
    countEdges: int("Number of relations.", (s) => s.graph.relationCount),
    countResourceTypes: int("Number of distinct resource types.", (s) => s.model.types.length),
    countRelationTypes: int(
      "Number of distinct relation types.",
      (s) => s.model.relationTypeCount,
    ),
    countNodeProperties: int(
      "Sum over resources of their property count (`name` included).",
      (s) => s.model.nodePropertyCount,
    ),
    countEdgeProperties: int(
      "Sum over relations of their property count.",
      (s) => s.model.edgePropertyCount,
    ),
    listNodes: {
      type: nonNull(GraphQLJSON),
      description: 'Array of `{ "type", "name" }`, by type then name; only type `label` if given.',
      args: { label: { type: GraphQLString }, ...PAGE_ARGS },
      extensions: costExtension((args, { graph }) =>
        pagedSize(
          args,
          typeof args.label === "string"
            ? graph.resourcesOf(args.label).length
            : graph.resourceCount,
        )
      ),
      resolve: (_root, args: { label?: string | null } & Page, context) =>
        listNodes(snapshotOf(context).graph, args.label, args) as unknown as Record<
          string,
          string
        >[],
    },
    findPaths: {
      type: nonNull(GraphQLJSON),
      description: "All simple paths (relations followed in both directions, at most " +
        "`maxDepth` edges) from the start resource to resources of type `endLabel`; each path " +
        'is an array of steps `{ "type", "name", "relation", "direction" }`.',
      args: {
        startLabel: { type: NON_NULL_STRING },
        startName: { type: NON_NULL_STRING },
        endLabel: { type: NON_NULL_STRING },
        maxDepth: { type: GraphQLInt, default: { value: DEFAULT_PATH_DEPTH } },
      },
      extensions: costExtension(() => FIND_PATHS_COST),
      resolve: (
        _root,
        args: { startLabel: string; startName: string; endLabel: string; maxDepth?: number | null },
        context,
      ) =>
        findPaths(
          snapshotOf(context).graph,
          args.startLabel,
          args.startName,
          args.endLabel,
          args.maxDepth ?? DEFAULT_PATH_DEPTH,
        ),
    },
    graphJson: {
      type: nonNull(GraphQLString),
      description: "The whole graph as JSON text: `{ nodes: [...], edges: [...] }`; with " +
        "`limit`/`offset`, one page of the nodes and the edges whose source is on that page.",
      args: { ...PAGE_ARGS },
      extensions: costExtension((args, { graph }) => {
        const nodes = graph.resourceCount;
        return nodes === 0 ? 1 : pagedSize(args, nodes) * (1 + graph.relationCount / nodes);
      }),
      resolve: (_root, args: Page, context) => {
        const snapshot = snapshotOf(context);
        if ((args.limit ?? args.offset ?? null) !== null) {
          return JSON.stringify(graphJsonPage(snapshot.graph, args));
        }
        return snapshot.graphJson();
      },
    },
  };
}
