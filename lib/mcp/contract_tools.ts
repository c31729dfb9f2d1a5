/**
 * Contracts as MCP tools `contract.<name>` (reference AC44): the input schema is built from the
 * contract's `[[input]]`s, and a call goes through the same contract service as
 * `POST /api/contracts/{name}` (same validation, same all-or-nothing transaction), answering
 * `{success, writes, generation}` plus whether that generation was published. Offered only when
 * MCP writes are enabled (`--mcp-write`), and authorised like `saveAsset`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ContractCallResult } from "../contracts/execute.ts";
import { type Contract, ContractCallError, type ContractInput } from "../contracts/types.ts";
import type { JsonValue } from "../graph/graph.ts";

/** The contract service as the MCP tools need it (`ContractService` fits). */
export interface McpContracts {
  /** Every usable contract (files that do not parse are left out, AC40). */
  list(): Promise<readonly Contract[]>;
  /** Calls the contract called `name` with a JSON object of inputs. */
  call(name: string, body: unknown): Promise<ContractCallResult>;
}

/** What a contract tool needs besides the contracts. */
export interface ContractToolDeps {
  /** Why the request (its headers) may not write, or `undefined` when it may. */
  authorize?(headers: Headers): Promise<string | undefined>;
  /** Waits until `generation` is published (read-your-writes). */
  awaitGeneration?(generation: number): Promise<boolean>;
}

/** A declared `[[input]]` of a contract or an action (AC2, AC41): what a tool schema needs. */
export interface DeclaredInput {
  /** Input name. */
  readonly name: string;
  /** `string` (also for an unknown type), `boolean`, `integer`, `number`, `array_of_string`. */
  readonly type: string;
  /** Whether the caller must give it. */
  readonly required: boolean;
  /** Value used when the caller leaves it out. */
  readonly default?: JsonValue;
  /** The only values accepted, when given. */
  readonly allowedValues?: readonly JsonValue[];
  /** Text for UIs. */
  readonly description?: string;
}

/** Longest tool name MCP clients accept. */
const MAX_TOOL_NAME = 128;

/**
 * The zod schema of one declared input: its type, `allowed_values` as an enum, optional when
 * not required or when it has a default (AC6). `null` counts as absent, as over REST.
 */
function inputField(input: DeclaredInput): z.ZodType {
  const allowed = input.allowedValues as (string | number | boolean)[] | undefined;
  let field: z.ZodType;
  switch (input.type) {
    case "boolean":
      field = allowed ? z.literal(allowed) : z.boolean();
      break;
    case "integer":
      field = allowed ? z.literal(allowed) : z.number().int();
      break;
    case "number":
      field = allowed ? z.literal(allowed) : z.number();
      break;
    case "array_of_string":
      field = z.array(allowed ? z.literal(allowed) : z.string());
      break;
    default:
      field = allowed ? z.literal(allowed) : z.string();
  }
  const notes = [
    input.description,
    input.default !== undefined ? `default ${JSON.stringify(input.default)}` : undefined,
  ].filter((n) => n !== undefined && n !== "");
  if (!input.required || input.default !== undefined) field = field.nullish();
  return notes.length > 0 ? field.describe(notes.join("; ")) : field;
}

/**
 * The input schema of a contract or action tool: one property per `[[input]]`; unknown inputs
 * are refused, as `POST /api/contracts/{name}` and `POST /api/actions/{module}/{action}`
 * refuse them (AC6).
 *
 * @example
 * ```ts
 * import { declaredInputSchema } from "./contract_tools.ts";
 * const schema = declaredInputSchema([{ name: "zone", type: "string", required: true }]);
 * console.log(schema.safeParse({ zone: "dmz", extra: 1 }).success); // false
 * ```
 */
export function declaredInputSchema(inputs: readonly DeclaredInput[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const input of inputs) shape[input.name] = inputField(input);
  return z.object(shape).strict();
}

/**
 * The input schema of a contract tool (see {@link declaredInputSchema}).
 *
 * @example
 * ```ts
 * import { contractInputSchema } from "./contract_tools.ts";
 * const schema = contractInputSchema([{ name: "host", type: "string", required: true }]);
 * console.log(schema.safeParse({ host: "web-1" }).success); // true
 * ```
 */
export function contractInputSchema(inputs: readonly ContractInput[]): z.ZodObject {
  return declaredInputSchema(inputs);
}

/**
 * A tool result holding `value` as JSON text; with `isError`, a tool error (e.g. a problem
 * document).
 *
 * @example
 * ```ts
 * import { jsonResult } from "./contract_tools.ts";
 * console.log(jsonResult({ status: 403 }, true).isError); // true
 * ```
 */
export function jsonResult(value: unknown, isError = false): CallToolResult {
  return {
    ...(isError ? { isError } : {}),
    content: [{ type: "text", text: JSON.stringify(value) }],
  };
}

/**
 * The headers of the HTTP request that carried a tool call (for write authorisation).
 *
 * @example
 * ```ts
 * import { requestHeaders } from "./contract_tools.ts";
 * const h = requestHeaders({ requestInfo: { headers: { "x-api-token": "t" } } });
 * console.log(h.get("x-api-token")); // "t"
 * ```
 */
export function requestHeaders(
  extra: { requestInfo?: { headers?: Record<string, string | string[] | undefined> } },
): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(extra.requestInfo?.headers ?? {})) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  return headers;
}

/**
 * Registers one tool `contract.<name>` per contract (AC44). A refused call is a tool error
 * whose text is the problem of the REST endpoint (`{status, type, detail, errors?}`); nothing
 * was written. Contract files that do not parse are left out (`GET /api/contracts/errors` lists
 * them, AC40); the other contracts are tools.
 *
 * @example
 * ```ts ignore
 * await registerContractTools(server, live.contracts, { authorize, awaitGeneration });
 * ```
 */
export async function registerContractTools(
  server: McpServer,
  contracts: McpContracts,
  deps: ContractToolDeps,
): Promise<void> {
  let list: readonly Contract[];
  try {
    list = await contracts.list();
  } catch {
    return; // contracts cannot be read at all: the session has no contract tools
  }
  for (const contract of list) {
    const name = `contract.${contract.name}`;
    if (name.length > MAX_TOOL_NAME) continue;
    server.registerTool(name, {
      description: contract.description ||
        `Calls the contract '${contract.name}' (module ${contract.module}).`,
      inputSchema: contractInputSchema(contract.inputs),
      annotations: {
        readOnlyHint: false,
        destructiveHint: contract.writes.some((w) => w.action === "delete"),
        openWorldHint: false,
      },
    }, async (args: Record<string, unknown>, extra) => {
      try {
        const refused = await deps.authorize?.(requestHeaders(extra));
        if (refused) {
          return jsonResult({ status: 403, type: "forbidden", detail: refused }, true);
        }
        const result = await contracts.call(contract.name, args);
        const published = deps.awaitGeneration
          ? await deps.awaitGeneration(result.generation)
          : undefined;
        return jsonResult({
          success: true,
          writes: result.writes,
          generation: result.generation,
          ...(published === undefined ? {} : { published }),
        });
      } catch (e) {
        if (!(e instanceof ContractCallError)) throw e;
        return jsonResult({
          status: e.status,
          type: e.slug,
          detail: e.message,
          ...(e.errors.length > 0 ? { errors: e.errors } : {}),
        }, true);
      }
    });
  }
}
