/**
 * The MCP server over the engine (reference R70–R74), built with the official TypeScript SDK:
 * graph tools, the graph-RAG prompts, and — when MCP writes are enabled (`--mcp-write`) —
 * `saveAsset` and the action tools ({@link registerActionTools}, given an action runtime,
 * {@link McpActions}), both authorised per call; contracts as tools are in contract_tools.ts.
 *
 * @module
 */
// The SDK's export map has no types for `*.js` subpaths: take them from the extensionless ones.
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult, GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Graph, JsonValue } from "../graph/graph.ts";
import {
  findPath,
  getNeighbors,
  getResource,
  listResources,
  listResourceTypes,
  MAX_PAGE,
  ToolInputError,
} from "./graph_tools.ts";
import { globalSearch, localSearch, semanticSearch } from "./search.ts";
import { declaredInputSchema, jsonResult, requestHeaders } from "./contract_tools.ts";
import { ActionBundleError, ActionInputError, ActionNotFoundError } from "../actions/errors.ts";

/** A row write of `saveAsset` (the live service's auto-CRUD path). */
export interface McpWriter {
  /** Inserts a row; fails on a duplicate key. */
  addRow(
    type: string,
    fields: Readonly<Record<string, JsonValue>>,
  ): Promise<{ message: string; name: string; generation: number }>;
  /** Changes the given fields of an existing row. */
  changeRow(
    type: string,
    name: string,
    fields: Readonly<Record<string, JsonValue>>,
  ): Promise<{ message: string; name: string; generation: number }>;
}

/** One action exposed as the tool `action.<module>.<name>` (R74). */
export interface McpActionTool {
  /** Module id. */
  module: string;
  /** Action name. */
  name: string;
  /** What it does. */
  description: string;
  /** Declared `[[input]]`s (AC2): the tool's input schema. */
  inputs: readonly {
    name: string;
    type: string;
    required: boolean;
    default?: JsonValue;
    allowedValues?: readonly JsonValue[];
    description?: string;
  }[];
}

/**
 * The seam for actions (R74): the actions runtime implements it; until then no action tools are
 * listed.
 */
export interface McpActions {
  /** The actions to expose. */
  list(): Promise<readonly McpActionTool[]>;
  /** Runs one action with its JSON input; the result becomes the tool's text. */
  invoke(module: string, name: string, input: Record<string, unknown>): Promise<JsonValue>;
}

/** What the MCP server needs. */
export interface McpDeps {
  /** The published graph (waits for the first build when there is none yet). */
  snapshot(): Promise<{ generation: number; graph: Graph }>;
  /** `saveAsset` exists only with a writer (`--mcp-write`). */
  writer?: McpWriter;
  /**
   * Whether the request (its headers) may write: `undefined` when it may, else why not
   * (`--read-only`, or `--protect-writes` without a valid `X-API-Token`).
   */
  authorize?(headers: Headers): Promise<string | undefined>;
  /** Waits until `generation` is published (read-your-writes after `saveAsset`). */
  awaitGeneration?(generation: number): Promise<boolean>;
  /** Actions as tools (R74). */
  actions?: McpActions;
  /** Server version reported at `initialize`. */
  version: string;
}

function fail(error: unknown): CallToolResult {
  const known = error instanceof ToolInputError || (error instanceof Error &&
    (error.name === "WriteError" || error.name === "ParseError"));
  const message = known
    ? (error as Error).message
    : `internal error: ${error instanceof Error ? error.message : String(error)}`;
  return { isError: true, content: [{ type: "text", text: message }] };
}

async function run(work: () => unknown | Promise<unknown>): Promise<CallToolResult> {
  try {
    return jsonResult(await work());
  } catch (e) {
    return fail(e);
  }
}

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const ref = {
  type: z.string().describe("resource type"),
  name: z.string().describe("primary key"),
};

/**
 * Creates one MCP server (one per session) with every tool and prompt registered.
 *
 * @example
 * ```ts ignore
 * const server = createMcpServer({ snapshot: async () => engine.current, version: "1.0.0" });
 * await server.connect(transport);
 * ```
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: "graphsvc", version: deps.version }, {
    instructions: "A typed property graph of resources (type + name, properties) and directed " +
      "relations. Start with listResourceTypes, then listResources/getResource/getNeighbors; " +
      "use semanticSearch to find resources by text, localSearch/globalSearch for context.",
  });
  const graph = async () => (await deps.snapshot()).graph;
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool("getResource", {
    description: "Properties and relations (outgoing and incoming, up to 200 each) of one " +
      "resource, given its type and name.",
    inputSchema: ref,
    annotations: readOnly,
  }, ({ type, name }) => run(async () => getResource(await graph(), type, name)));

  server.registerTool("listResources", {
    description: "Resources of one type, sorted by name, optionally filtered by exact property " +
      `values; paged with offset/limit (limit 1–${MAX_PAGE}, default 50). Answers total and ` +
      "next_offset when there are more.",
    inputSchema: {
      type: z.string().describe("resource type"),
      filter: z.record(z.string(), scalar).optional()
        .describe('exact property values, e.g. {"env": "prod"}'),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(MAX_PAGE).optional(),
    },
    annotations: readOnly,
  }, (args) => run(async () => listResources(await graph(), args as never)));

  server.registerTool("getNeighbors", {
    description: "The resources one relation away from a resource, with relation types; " +
      "direction out, in or both (default), optionally one relation type only.",
    inputSchema: {
      ...ref,
      direction: z.enum(["in", "out", "both"]).optional(),
      relation: z.string().optional().describe("only this relation type"),
      limit: z.number().int().min(1).max(200).optional(),
    },
    annotations: readOnly,
  }, (args) => run(async () => getNeighbors(await graph(), args)));

  server.registerTool("findPath", {
    description: "A shortest path between two resources (relations followed both ways unless " +
      "directed), as steps {from, relation, direction, to}; at most maxDepth steps (default 6).",
    inputSchema: {
      from_type: z.string(),
      from_name: z.string(),
      to_type: z.string(),
      to_name: z.string(),
      maxDepth: z.number().int().min(1).max(12).optional(),
      directed: z.boolean().optional(),
    },
    annotations: readOnly,
  }, (a) =>
    run(async () =>
      findPath(
        await graph(),
        { type: a.from_type, name: a.from_name },
        { type: a.to_type, name: a.to_name },
        { maxDepth: a.maxDepth, directed: a.directed },
      )
    ));

  server.registerTool("localSearch", {
    description: "Graph-RAG local context: the neighbourhood (depth 2 by default) of a resource " +
      "(type and name) or of the best matches of a text query, summarised per type and " +
      "relation type, with nodes and edges.",
    inputSchema: {
      query: z.string().optional(),
      type: z.string().optional(),
      name: z.string().optional(),
      depth: z.number().int().min(1).max(3).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    },
    annotations: readOnly,
  }, (args) => run(async () => localSearch(await graph(), args)));

  server.registerTool("globalSearch", {
    description: "Graph-RAG global context: per-type aggregates of the whole graph (counts, " +
      "property fill and common values, relation types); with a query, the most relevant " +
      "types first and the best matching resources.",
    inputSchema: {
      query: z.string().optional(),
      limit: z.number().int().min(1).max(200).optional(),
    },
    annotations: readOnly,
  }, (args) => run(async () => globalSearch(await graph(), args)));

  server.registerTool("semanticSearch", {
    description: "Find resources by text: substring and fuzzy match over names, descriptions " +
      "and property values, best first (optionally one type only).",
    inputSchema: {
      query: z.string().min(1),
      type: z.string().optional(),
      limit: z.number().int().min(1).max(200).optional(),
    },
    annotations: readOnly,
  }, (args) => run(async () => semanticSearch(await graph(), args)));

  server.registerTool("listResourceTypes", {
    description: "Every resource type with its count, property keys and relation types " +
      "(outgoing and incoming, with the types at the other end).",
    inputSchema: {},
    annotations: readOnly,
  }, () => run(async () => listResourceTypes(await graph())));

  if (deps.writer) registerSaveAsset(server, deps, deps.writer);
  registerPrompts(server, graph);
  return server;
}

function registerSaveAsset(server: McpServer, deps: McpDeps, writer: McpWriter): void {
  server.registerTool("saveAsset", {
    description: "Insert a row into an asset (mode insert; fields must include the key column) " +
      "or change fields of an existing row (mode update, with name). Written to the asset CSV " +
      "and rebuilt; answers the generation that contains the write (waited for unless " +
      "wait=false).",
    inputSchema: {
      type: z.string().describe("asset resource type"),
      mode: z.enum(["insert", "update"]),
      name: z.string().optional().describe("primary key of the row to update"),
      fields: z.record(z.string(), scalar).describe("column values"),
      wait: z.boolean().optional(),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  }, (a, extra) =>
    run(async () => {
      const refused = await deps.authorize?.(requestHeaders(extra));
      if (refused) throw new ToolInputError(refused);
      if (a.mode === "update" && a.name === undefined) {
        throw new ToolInputError("mode update needs the name of the row");
      }
      const result = a.mode === "insert"
        ? await writer.addRow(a.type, a.fields)
        : await writer.changeRow(a.type, a.name!, a.fields);
      const published = a.wait === false || !deps.awaitGeneration
        ? undefined
        : await deps.awaitGeneration(result.generation);
      return { ...result, ...(published === undefined ? {} : { published }) };
    }));
}

function registerPrompts(server: McpServer, graph: () => Promise<Graph>): void {
  const message = (text: string): GetPromptResult => ({
    messages: [{ role: "user", content: { type: "text", text } }],
  });
  server.registerPrompt("get_resource_details", {
    description: "Explain one resource: its properties and relations, from the graph.",
    argsSchema: { type: z.string(), name: z.string() },
  }, async ({ type, name }) => {
    const g = await graph();
    const data = getResource(g, type, name);
    return message(
      `Describe the ${type} '${name}' of the graph: what it is, its important properties, ` +
        `and how it relates to other resources. Use getNeighbors or findPath for more.\n\n` +
        `Resource (JSON):\n${JSON.stringify(data)}`,
    );
  });
  server.registerPrompt("graphrag_local_search", {
    description: "Answer a question from the local graph context of the best matching resources.",
    argsSchema: { query: z.string() },
  }, async ({ query }) => {
    const context = localSearch(await graph(), { query });
    return message(
      `Answer using only the graph context below (a depth-2 neighbourhood of the resources ` +
        `best matching the question).\n\nQuestion: ${query}\n\nContext (JSON):\n` +
        JSON.stringify(context),
    );
  });
  server.registerPrompt("graphrag_global_search", {
    description: "Answer a question about the whole graph from per-type aggregates.",
    argsSchema: { query: z.string() },
  }, async ({ query }) => {
    const context = globalSearch(await graph(), { query });
    return message(
      `Answer using only the graph summary below (per-type counts, properties and relation ` +
        `types, ranked by relevance to the question).\n\nQuestion: ${query}\n\nSummary (JSON):\n` +
        JSON.stringify(context),
    );
  });
}

/** Longest tool name MCP clients accept. */
const MAX_TOOL_NAME = 128;

/** A refused action call as the problem `POST /api/actions/{module}/{action}` answers. */
function actionProblem(e: unknown): Record<string, unknown> | undefined {
  if (e instanceof ActionInputError) {
    return { status: 400, type: "validation-failed", detail: e.message, errors: e.fields };
  }
  if (e instanceof ActionNotFoundError) {
    return { status: 404, type: "not-found", detail: e.message };
  }
  if (e instanceof ActionBundleError) {
    return { status: 422, type: "validation-failed", detail: e.message };
  }
  return undefined;
}

/**
 * Registers actions as tools `action.<module>.<name>` (R74, AC14): one per concrete action
 * listed when the session opens, its input schema built from the action's `[[input]]`s.
 * Queueing a run is a write: with `deps.writes === false` (no `--mcp-write`) the tools are listed
 * and every call is refused; otherwise every call is authorised by `deps.authorize` (`--read-only`, `--protect-writes`, R91) before
 * anything runs. A refused call is a tool error whose text is the problem of the REST endpoint
 * (`{status, type, detail, errors?}`).
 *
 * @example
 * ```ts ignore
 * await registerActionTools(server, mcpActions(service), { authorize });
 * ```
 */
export async function registerActionTools(
  server: McpServer,
  actions: McpActions,
  deps: Pick<McpDeps, "authorize"> & { writes?: boolean },
): Promise<void> {
  for (const a of await actions.list()) {
    const name = `action.${a.module}.${a.name}`;
    if (name.length > MAX_TOOL_NAME) continue;
    server.registerTool(name, {
      description: a.description,
      inputSchema: declaredInputSchema(a.inputs),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    }, async (args: Record<string, unknown>, extra) => {
      if (deps.writes === false) {
        const detail = "queueing an action run is a write: start the server with --mcp-write";
        return jsonResult({ status: 403, type: "forbidden", detail }, true);
      }
      const refused = await deps.authorize?.(requestHeaders(extra));
      if (refused) return jsonResult({ status: 403, type: "forbidden", detail: refused }, true);
      try {
        return jsonResult(await actions.invoke(a.module, a.name, args));
      } catch (e) {
        const problem = actionProblem(e);
        return problem ? jsonResult(problem, true) : fail(e);
      }
    });
  }
}
