/**
 * Framework-free GraphQL-over-HTTP handler (reference graphql.md G1, G21, G22): `POST` with a
 * JSON body and `GET ?query=` (queries only). Syntax, validation and execution errors answer
 * `200` with `errors`; a malformed request answers a problem document (rest-api.md R90).
 *
 * @module
 */

import { type ExecutionResult, getOperationAST, type GraphQLSchema } from "graphql";
import type { Graph } from "../../graph/graph.ts";
import { executeDocument, parseQuery } from "./execute.ts";
import { loadQueryCompiler } from "./compiled_queries.ts";
import { MAX_BODY_BYTES } from "./limits.ts";
import { problem, type ProblemSlug } from "../problem.ts";
import { prereadBody } from "../preread_body.ts";
import { parseOnce, ResponseCache } from "./document_cache.ts";

/** The snapshot a request is answered from. */
export interface GraphQLState {
  /** Schema built for `graph`. */
  readonly schema: GraphQLSchema;
  /** The published graph. */
  readonly graph: Graph;
  /** Root value of the request's operation (mutations record what they wrote in it). */
  readonly rootValue?: unknown;
  /** Entries added to the result's `extensions` (e.g. the status of a degraded build). */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /**
   * Whether the answers of read-only queries may be remembered for identical requests to the
   * same graph and schema (default false): only when nothing but the graph, the schema and the
   * request shapes the answer (no per-request `extensions`).
   */
  readonly cacheResponses?: boolean;
}

/** Options of {@link createGraphQLHandler}. */
export interface GraphQLHandlerOptions {
  /** Largest accepted POST body in bytes (default {@link MAX_BODY_BYTES}). */
  readonly maxBodyBytes?: number;
}

/** `application/problem+json` body of a refused request (rest-api.md R90). */
export type { ProblemDocument } from "../problem.ts";

/** The problem type of each status the handler answers with a problem document. */
const SLUGS: Readonly<Record<number, ProblemSlug>> = {
  400: "bad-request",
  405: "method-not-allowed",
  413: "payload-too-large",
  415: "unsupported-media-type",
  500: "internal",
};

/** A problem document with the slug of `status` (the REST endpoints' builder, one format). */
function problemResponse(
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  return problem(status, SLUGS[status] ?? "bad-request", detail, {}, headers);
}

class BadRequest extends Error {
  constructor(readonly status: number, message: string, readonly headers?: Record<string, string>) {
    super(message);
    this.name = "BadRequest";
  }
}

interface ParsedRequest {
  /** The request's text as far as it shapes the answer: method and query string or body. */
  key: string;
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
  method: "GET" | "POST";
}

/**
 * Creates a fetch-style handler for `/graphql`. `getState` is called once at the start of each
 * request and the whole request is answered from that snapshot, so a concurrent rebuild never
 * mixes two graphs in one response (G4).
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { buildGraphQLSchema } from "./schema.ts";
 * const graph = new Graph();
 * const state = { graph, schema: buildGraphQLSchema(graph) };
 * const handle = createGraphQLHandler(() => state);
 * const res = await handle(new Request("http://localhost/graphql?query=%7BcountNodes%7D"));
 * console.log(await res.json()); // { data: { countNodes: 0 } }
 * ```
 */
export function createGraphQLHandler(
  getState: () => GraphQLState,
  options: GraphQLHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  // In the background: hot documents compile once it has loaded (`compiled_queries.ts`).
  void loadQueryCompiler();
  return async (request: Request): Promise<Response> => {
    const { schema, graph, rootValue, extensions, cacheResponses } = getState();
    let parsed: ParsedRequest;
    try {
      parsed = await readRequest(request, maxBodyBytes);
    } catch (e) {
      if (e instanceof BadRequest) return problemResponse(e.status, e.message, e.headers);
      throw e;
    }
    const contentType = responseType(request.headers.get("accept"));
    const key = `${contentType}\n${parsed.key}`;
    if (cacheResponses) {
      const hit = responses.get(graph, schema, key);
      if (hit) {
        return new Response(hit.body, {
          status: hit.status,
          headers: { "content-type": hit.contentType },
        });
      }
    }
    const document = parseOnce(parsed.query, parseQuery);
    let result: ExecutionResult;
    let readOnly = false;
    if (!("kind" in document)) {
      result = document;
    } else {
      const operation = getOperationAST(document, parsed.operationName);
      readOnly = operation?.operation === "query";
      if (parsed.method === "GET") {
        if (operation && operation.operation !== "query") {
          return problemResponse(
            405,
            `${operation.operation} operations are not allowed over GET; use POST`,
            { allow: "POST" },
          );
        }
      }
      try {
        result = await executeDocument(
          schema,
          graph,
          document,
          parsed.variables,
          parsed.operationName,
          request.signal,
          { rootValue },
        );
      } catch (e) {
        return problemResponse(500, `GraphQL execution failed: ${(e as Error).message}`);
      }
    }
    if (extensions) result = { ...result, extensions: { ...result.extensions, ...extensions } };
    // GraphQL over HTTP: with application/graphql-response+json, a result without `data` (parse,
    // validation, variable or limit errors: the request was not executed) is a 400; with
    // application/json every GraphQL result is a 200.
    const status = contentType.startsWith("application/graphql-response+json") &&
        !("data" in result)
      ? 400
      : 200;
    const body = JSON.stringify(result);
    if (cacheResponses && readOnly && !result.errors?.length && !request.signal.aborted) {
      responses.set(graph, schema, key, { status, contentType, body });
    }
    return new Response(body, { status, headers: { "content-type": contentType } });
  };
}

/** Answers of read-only queries, per graph snapshot and schema. */
const responses = new ResponseCache();

/** `application/json` unless the client asks only for the newer GraphQL-over-HTTP type. */
function responseType(accept: string | null): string {
  if (
    accept !== null && accept.includes("application/graphql-response+json") &&
    !accept.includes("application/json")
  ) {
    return "application/graphql-response+json; charset=utf-8";
  }
  return "application/json; charset=utf-8";
}

const JSON_TYPES = new Set(["application/json", "application/graphql-response+json"]);

async function readRequest(request: Request, maxBodyBytes: number): Promise<ParsedRequest> {
  if (request.method === "GET") {
    const url = new URL(request.url);
    const params = url.searchParams;
    const query = params.get("query");
    if (query === null || query === "") throw new BadRequest(400, "missing 'query' parameter");
    const extensionsText = params.get("extensions");
    if (extensionsText !== null && extensionsText !== "") {
      let extensions: unknown;
      try {
        extensions = JSON.parse(extensionsText);
      } catch {
        throw new BadRequest(400, "'extensions' parameter is not valid JSON");
      }
      if (typeof extensions !== "object" || extensions === null || Array.isArray(extensions)) {
        throw new BadRequest(400, "'extensions' must be a JSON object");
      }
    }
    const variablesText = params.get("variables");
    let variables: unknown = null;
    if (variablesText !== null && variablesText !== "") {
      try {
        variables = JSON.parse(variablesText);
      } catch {
        throw new BadRequest(400, "'variables' parameter is not valid JSON");
      }
    }
    return {
      key: `GET ${url.search}`,
      query,
      variables: checkVariables(variables),
      operationName: params.get("operationName") || null,
      method: "GET",
    };
  }
  if (request.method !== "POST") {
    throw new BadRequest(405, `method ${request.method} is not allowed; use GET or POST`, {
      allow: "GET, POST",
    });
  }
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  const mediaType = contentType.split(";")[0].trim();
  // Only JSON: forms, multipart and text/plain are "simple" requests a foreign page can send
  // cross-origin without a preflight (CSRF), so they are refused, as is a missing type.
  if (!JSON_TYPES.has(mediaType)) {
    throw new BadRequest(
      415,
      mediaType === ""
        ? "missing content type; send application/json"
        : `content type '${mediaType}' is not supported; send application/json`,
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBodyBytes) {
    throw new BadRequest(413, `request body exceeds ${maxBodyBytes} bytes`);
  }
  const bytes = new Uint8Array(prereadBody(request) ?? await request.arrayBuffer());
  if (bytes.byteLength > maxBodyBytes) {
    throw new BadRequest(413, `request body exceeds ${maxBodyBytes} bytes`);
  }
  let body: unknown;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    body = JSON.parse(text);
  } catch (e) {
    throw new BadRequest(400, `request body is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new BadRequest(400, "request body must be a JSON object with a 'query' string");
  }
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (
    extensions !== undefined && extensions !== null &&
    (typeof extensions !== "object" || Array.isArray(extensions))
  ) {
    throw new BadRequest(400, "'extensions' must be a JSON object");
  }
  if (typeof query !== "string" || query === "") {
    throw new BadRequest(400, "request body must have a non-empty 'query' string");
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw new BadRequest(400, "'operationName' must be a string");
  }
  return {
    key: `POST ${text}`,
    query,
    variables: checkVariables(variables ?? null),
    operationName: (operationName as string | null | undefined) ?? null,
    method: "POST",
  };
}

function checkVariables(variables: unknown): Record<string, unknown> | null {
  if (variables === null || variables === undefined) return null;
  if (typeof variables !== "object" || Array.isArray(variables)) {
    throw new BadRequest(400, "'variables' must be a JSON object");
  }
  return variables as Record<string, unknown>;
}
