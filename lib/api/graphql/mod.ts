/**
 * The generated GraphQL read API of graphsvc (reference graphql.md G1–G16, G21–G22).
 *
 * Build a schema once per published graph snapshot with {@link buildGraphQLSchema}, then answer
 * requests with {@link executeGraphQL} or the fetch-style {@link createGraphQLHandler}; serve
 * {@link graphiqlHtml} at `/graphiql` and the files in {@link GRAPHIQL_ASSETS}.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { buildGraphQLSchema, createGraphQLHandler } from "./mod.ts";
 * const graph = new Graph();
 * graph.upsertResource("zone", "example.org", { dnssec: "True" });
 * graph.seal();
 * const state = { graph, schema: buildGraphQLSchema(graph) };
 * const handle = createGraphQLHandler(() => state);
 * const res = await handle(new Request("http://localhost/graphql", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ query: '{ zone(filter: { dnssec: true }) { name } }' }),
 * }));
 * console.log(await res.json()); // { data: { zone: [{ name: "example.org" }] } }
 * ```
 *
 * @module
 */

export {
  buildGraphQLSchema,
  type BuildSchemaOptions,
  type GraphQLContext,
  type MutationBuildContext,
} from "./schema.ts";
export { executeGraphQL, type GraphQLRequest } from "./execute.ts";
export {
  createGraphQLHandler,
  type GraphQLHandlerOptions,
  type GraphQLState,
  type ProblemDocument,
} from "./http.ts";
export {
  GRAPHIQL_ASSET_PREFIX,
  GRAPHIQL_ASSETS,
  type GraphiqlAsset,
  graphiqlHtml,
} from "./graphiql.ts";
export {
  MAX_ALIASES,
  MAX_BODY_BYTES,
  MAX_QUERY_DEPTH,
  MAX_QUERY_LENGTH,
  MAX_RETURNED_EDGES,
} from "./limits.ts";
export { ArgumentError, FilterError, GraphQLApiError, LimitExceededError } from "./errors.ts";
export type { NodeRef, PathStep } from "./paths.ts";
