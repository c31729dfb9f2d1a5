/**
 * Runs one GraphQL request against a schema/graph snapshot with the query limits applied.
 *
 * @module
 */

import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type ValidationRule,
} from "graphql";
import type { Graph } from "../../graph/graph.ts";
import { LimitExceededError } from "./errors.ts";
import { EdgeBudget, MAX_QUERY_LENGTH, maxAliasesRule, maxDepthRule } from "./limits.ts";
import { graphOfSchema, type GraphQLContext } from "./schema.ts";
import type { GraphQLSchema } from "graphql";

/** A GraphQL request as sent by clients (GraphQL-over-HTTP). */
export interface GraphQLRequest {
  /** The GraphQL document. */
  query: string;
  /** Variable values keyed by name. */
  variables?: Record<string, unknown> | null;
  /** Operation to run when the document holds several. */
  operationName?: string | null;
}

/** Most tokens a query document may have (parser limit against pathological input). */
export const MAX_QUERY_TOKENS = 20_000;

/** Validation rules applied to every request: the GraphQL spec rules plus the G16 limits. */
export const VALIDATION_RULES: readonly ValidationRule[] = [
  ...specifiedRules,
  maxDepthRule(),
  maxAliasesRule(),
];

/** Parses a query; syntax errors come back as an execution result with `errors`. */
export function parseQuery(query: string): DocumentNode | ExecutionResult {
  if (query.length > MAX_QUERY_LENGTH) {
    return {
      errors: [
        new GraphQLError(`Query text exceeds the maximum of ${MAX_QUERY_LENGTH} characters.`, {
          extensions: { code: "QUERY_TOO_LONG" },
        }),
      ],
    };
  }
  try {
    return parse(query, { maxTokens: MAX_QUERY_TOKENS });
  } catch (e) {
    if (e instanceof GraphQLError) return { errors: [e] };
    throw e;
  }
}

/**
 * Validates and executes a parsed document; `signal` aborts execution (client went away). A request that exceeds the returned-edges limit is
 * rejected as a whole: the result holds only the limit error, no partial data.
 */
export async function executeDocument(
  schema: GraphQLSchema,
  graph: Graph,
  document: DocumentNode,
  variables?: Record<string, unknown> | null,
  operationName?: string | null,
  signal?: AbortSignal,
): Promise<ExecutionResult> {
  const built = graphOfSchema(schema);
  if (built !== undefined && built !== graph) {
    throw new Error("executeGraphQL: the schema was built for a different graph snapshot");
  }
  const errors = validate(schema, document, VALIDATION_RULES);
  if (errors.length > 0) return { errors };
  const budget = new EdgeBudget();
  const context: GraphQLContext = { edges: budget };
  const result = await execute({
    schema,
    document,
    contextValue: context,
    variableValues: variables ?? undefined,
    operationName: operationName ?? undefined,
    abortSignal: signal,
  });
  if (budget.exceeded) {
    const limitError = result.errors?.find((e) => e.originalError instanceof LimitExceededError);
    if (limitError) return { errors: [limitError] };
  }
  return result;
}

/**
 * Parses, validates (spec rules + depth/alias limits) and executes one request.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { buildGraphQLSchema } from "./schema.ts";
 * const graph = new Graph();
 * graph.upsertResource("zone", "example.org");
 * const result = await executeGraphQL(buildGraphQLSchema(graph), graph, {
 *   query: "{ countNodes zone { name } }",
 * });
 * console.log(result.data); // { countNodes: 1, zone: [{ name: "example.org" }] }
 * ```
 */
export function executeGraphQL(
  schema: GraphQLSchema,
  graph: Graph,
  request: GraphQLRequest,
): Promise<ExecutionResult> {
  const parsed = parseQuery(request.query);
  if (!("kind" in parsed)) return Promise.resolve(parsed);
  return executeDocument(schema, graph, parsed, request.variables, request.operationName);
}
