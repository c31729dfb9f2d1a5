/**
 * Runs one GraphQL request against a schema/graph snapshot with the query limits applied.
 *
 * @module
 */

import {
  defaultFieldResolver,
  type DocumentNode,
  execute,
  type ExecutionResult,
  getNamedType,
  GraphQLError,
  type GraphQLFieldResolver,
  isLeafType,
  isObjectType,
  parse,
  specifiedRules,
  validate,
  type ValidationRule,
} from "graphql";
import type { Graph } from "../../graph/graph.ts";
import { LimitExceededError, ResponseTooLargeError } from "./errors.ts";
import { costErrors, MAX_QUERY_COST } from "./cost.ts";
import {
  checkQueryNesting,
  EdgeBudget,
  MAX_NESTING,
  MAX_QUERY_LENGTH,
  MAX_RESPONSE_BYTES,
  maxAliasesRule,
  maxDepthRule,
  ResponseBudget,
  valueDepth,
} from "./limits.ts";
import { graphOfSchema, type GraphQLContext, shapeOfSchema } from "./schema.ts";
import { type GraphState, graphState } from "./snapshot.ts";
import { validateOnce } from "./document_cache.ts";
import { compiledQueryFor } from "./compiled_queries.ts";
import type { GraphQLSchema } from "graphql";

/** Per-request limits of {@link executeDocument}; each defaults to the module constant. */
export interface ExecutionLimits {
  /** Largest estimated query cost (default {@link MAX_QUERY_COST}). */
  readonly maxCost?: number;
  /** Largest response in bytes (default {@link MAX_RESPONSE_BYTES}). */
  readonly maxResponseBytes?: number;
  /** Root value handed to the root fields' resolvers (per request, e.g. to collect results). */
  readonly rootValue?: unknown;
  /**
   * Run hot read-only queries compiled (`compiled_queries.ts`; default true). False always runs
   * graphql-js's `execute`.
   */
  readonly compileHotQueries?: boolean;
}

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

const RULES = [...VALIDATION_RULES];

/** True when an operation of `document` declares variables (its cost may depend on them). */
function declaresVariables(document: DocumentNode): boolean {
  return document.definitions.some((d) =>
    d.kind === "OperationDefinition" && (d.variableDefinitions?.length ?? 0) > 0
  );
}

/**
 * Parses a query; syntax errors come back as an execution result with `errors`, as do texts over
 * {@link MAX_QUERY_LENGTH} characters, {@link MAX_QUERY_TOKENS} tokens or {@link MAX_NESTING}
 * levels of bracket nesting (the parser is recursive; deep literals would overflow its stack).
 */
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
  const tooNested = checkQueryNesting(query);
  if (tooNested) return { errors: [tooNested] };
  try {
    return parse(query, { maxTokens: MAX_QUERY_TOKENS });
  } catch (e) {
    if (e instanceof GraphQLError) return { errors: [e] };
    throw e;
  }
}

/**
 * Validates and executes a parsed document; `signal` aborts execution (client went away).
 * Validation adds the cost limit (with the request's variables) to {@link VALIDATION_RULES}. A
 * request that exceeds the returned-edges or response-size limit is rejected as a whole: the
 * result holds only the limit error, no partial data.
 */
export async function executeDocument(
  schema: GraphQLSchema,
  graph: Graph,
  document: DocumentNode,
  variables?: Record<string, unknown> | null,
  operationName?: string | null,
  signal?: AbortSignal,
  limits: ExecutionLimits = {},
): Promise<ExecutionResult> {
  const built = graphOfSchema(schema);
  if (built !== undefined && built !== graph) {
    throw new Error("executeGraphQL: the schema was built for a different graph snapshot");
  }
  const snapshot = graphState(graph);
  const shape = shapeOfSchema(schema);
  if (shape !== undefined && shape !== snapshot.signature) {
    throw new Error("executeGraphQL: the schema was built for a graph of a different shape");
  }
  if (variables && valueDepth(variables) > MAX_NESTING) {
    return {
      errors: [
        new GraphQLError(
          `Variables nest deeper than ${MAX_NESTING} levels, which is the maximum.`,
          {
            extensions: { code: "VARIABLES_TOO_NESTED" },
          },
        ),
      ],
    };
  }
  // The spec rules and the depth and alias limits depend only on the document and the schema;
  // the cost also on the snapshot, and on the variables when the document declares any.
  const specErrors = validateOnce(document, schema, () => validate(schema, document, RULES));
  if (specErrors.length > 0) return { errors: specErrors };
  const maxCost = limits.maxCost ?? MAX_QUERY_COST;
  const estimate = () => costErrors(schema, document, snapshot, maxCost, variables);
  const errors = maxCost === MAX_QUERY_COST && !declaresVariables(document)
    ? validateOnce(document, snapshot, estimate)
    : estimate();
  if (errors.length > 0) return { errors };
  meterResponses(schema);
  const maxResponseBytes = limits.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const compiled = limits.compileHotQueries === false
    ? undefined
    : compiledQueryFor(schema, document, operationName);
  if (compiled && !signal?.aborted) {
    const context = requestContext(snapshot, maxResponseBytes);
    const result = await compiled.query(limits.rootValue, context, variables ?? {});
    // Only error-free results come from the compiled function; graphql-js answers the others
    // (its messages, paths and partial data are the reference).
    if (result && !result.errors?.length) return result;
  }
  const context = requestContext(snapshot, maxResponseBytes);
  const { edges: budget, response } = context;
  const result = await execute({
    schema,
    document,
    contextValue: context,
    rootValue: limits.rootValue,
    variableValues: variables ?? undefined,
    operationName: operationName ?? undefined,
    abortSignal: signal,
  });
  if (budget.exceeded || response.exceeded) {
    const limitError = result.errors?.find((e) =>
      e.originalError instanceof LimitExceededError ||
      e.originalError instanceof ResponseTooLargeError
    );
    if (limitError) return { errors: [limitError] };
  }
  return result;
}

/** The context of one execution: fresh edge and response budgets, the request's snapshot. */
function requestContext(
  snapshot: GraphState,
  maxResponseBytes: number,
): GraphQLContext & { edges: EdgeBudget; response: ResponseBudget } {
  return { edges: new EdgeBudget(), response: new ResponseBudget(maxResponseBytes), snapshot };
}

const metered = new WeakSet<GraphQLSchema>();

/**
 * Wraps every field resolver of `schema` (once) so that each resolved value is charged to the
 * request's {@link ResponseBudget} (in `context.response`) by its approximate serialised size:
 * leaf values (strings, JSON scalars) by their full size, objects and lists by their punctuation.
 * Applies to every field of every object type, including those added later (mutations).
 */
function meterResponses(schema: GraphQLSchema): void {
  if (metered.has(schema)) return;
  metered.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ??
        defaultFieldResolver;
      const leaf = isLeafType(getNamedType(field.type));
      const keyBytes = field.name.length + 4;
      field.resolve = (source, args, context, info) => {
        const value = resolve(source, args, context, info);
        const budget = (context as { response?: ResponseBudget } | undefined)?.response;
        if (!budget) return value;
        if (value instanceof Promise) {
          return value.then((v) => {
            budget.charge(keyBytes + sizeOf(v, leaf, budget.remaining));
            return v;
          });
        }
        budget.charge(keyBytes + sizeOf(value, leaf, budget.remaining));
        return value;
      };
    }
  }
}

/**
 * Approximate JSON size of a resolved value: deep for leaf (scalar) values, shallow (brackets and
 * commas) for objects and lists, whose fields are charged when they resolve. Stops once past
 * `limit`.
 */
function sizeOf(value: unknown, leaf: boolean, limit: number): number {
  if (!leaf) return Array.isArray(value) ? value.length + 2 : 2;
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (typeof v === "number" || typeof v === "boolean") size += 6;
    else if (v === null || v === undefined) size += 4;
    else if (Array.isArray(v)) {
      size += v.length + 2;
      for (const item of v) stack.push(item);
    } else if (typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        size += key.length + 4;
        stack.push(item);
      }
    }
  }
  return size;
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
