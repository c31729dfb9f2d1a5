/**
 * `/mcp` (reference R70): the MCP Streamable HTTP transport of the SDK (web-standard flavour)
 * mounted in the Hono app. Each `initialize` opens a session (its own server and transport,
 * answered with `Mcp-Session-Id`); later requests name the session; `DELETE` ends it. Responses
 * are JSON or SSE depending on the client's `Accept` header.
 *
 * @module
 */
import type { Hono } from "hono";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Graph } from "../graph/graph.ts";
import { createMcpServer, type McpActions, type McpWriter, registerActionTools } from "./server.ts";
import { type McpContracts, registerContractTools } from "./contract_tools.ts";

/** What `/mcp` needs from the engine (a `GraphEngine` fits). */
export interface McpHost {
  /** The published snapshot. */
  readonly current: { readonly generation: number; readonly graph: Graph };
  /** Newest requested generation. */
  readonly latestGeneration: number;
  /** Schedules a build. */
  requestRebuild(): number;
  /** Resolves when build `generation` (or a later one) finished. */
  waitFor(generation: number): Promise<unknown>;
  /** Waits for a published generation. */
  awaitGeneration(generation: number, timeoutMs: number): Promise<{ kind: string }>;
}

/** Options of {@link registerMcpRoutes}. */
export interface McpOptions {
  /** Expose `saveAsset` and the contract tools `contract.<name>` (`--mcp-write`). */
  write?: boolean;
  /** Actions as tools `action.<module>.<name>` (R74; offered only with `write: true`). */
  actions?: McpActions;
  /** Most concurrent sessions (default 64; the least recently used is closed beyond). */
  maxSessions?: number;
  /** Idle sessions are closed after this many ms (default 30 min). */
  sessionIdleMs?: number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
  lastUsed: number;
}

/**
 * Mounts `/mcp` and adds `mcp` (and `mcp_write`) to `info.features` (R60). `live` is the live
 * service: its write path, contracts and write authorisation (`--read-only`, `--protect-writes`)
 * are those of `saveAsset`, the tools `contract.<name>` (AC44) and the action tools
 * `action.<module>.<name>` (R74), which exist only with `write: true`.
 *
 * @example
 * ```ts ignore
 * registerMcpRoutes(app, engine, live, { write: false }, info);
 * ```
 */
export function registerMcpRoutes(
  app: Hono,
  host: McpHost,
  live: {
    writes: McpWriter;
    mutationMode(request: Request): Promise<{ key: string }>;
    contracts?: McpContracts;
  },
  options: McpOptions,
  info: { version: string; features: string[] },
): void {
  const added = (options.write ? ["mcp", "mcp_write"] : ["mcp"]).filter((f) =>
    !info.features.includes(f)
  );
  info.features = [...info.features, ...added];
  const version = info.version;
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? 64;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const snapshot = async () => {
    if (host.current.generation === 0) {
      await host.waitFor(host.latestGeneration > 0 ? 1 : host.requestRebuild());
    }
    return host.current;
  };
  const deps = {
    snapshot,
    writer: options.write ? live.writes : undefined,
    authorize: async (headers: Headers) => {
      const mode = await live.mutationMode(new Request("http://mcp/", { headers }));
      if (mode.key === "write") return undefined;
      return mode.key === "disabled"
        ? "asset writes are disabled on this server (--read-only)"
        : "MCP writes require a valid X-API-Token header (--protect-writes)";
    },
    awaitGeneration: async (g: number) => (await host.awaitGeneration(g, 10_000)).kind === "ready",
    actions: options.actions,
    version,
  };

  const evict = async (now: number) => {
    for (const [id, s] of sessions) {
      if (now - s.lastUsed > idleMs) {
        sessions.delete(id);
        await s.close();
      }
    }
    while (sessions.size >= maxSessions) {
      const [id, s] = [...sessions].sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
      sessions.delete(id);
      await s.close();
    }
  };

  const open = async (): Promise<Session> => {
    const server = createMcpServer(deps);
    // Actions are tools whatever the mode (R74); queueing a run is a write (R91), so without
    // `--mcp-write` a call is refused, and every call is authorised.
    if (options.actions) {
      await registerActionTools(server, options.actions, {
        ...deps,
        writes: options.write === true,
      });
    }
    if (options.write && live.contracts) await registerContractTools(server, live.contracts, deps);
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, session);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
    const session: Session = {
      transport,
      lastUsed: Date.now(),
      close: async () => {
        await server.close().catch(() => {});
      },
    };
    await server.connect(transport);
    return session;
  };

  app.on(["GET", "POST", "DELETE"], "/mcp", async (c) => {
    // R70: a POST that accepts JSON but not SSE is answered with plain JSON.
    const accept = c.req.header("accept") ?? "";
    if (
      c.req.method === "POST" && !accept.includes("text/event-stream") &&
      (accept.includes("application/json") || accept.includes("*/*"))
    ) {
      const headers = new Headers(c.req.raw.headers);
      headers.set("accept", "application/json, text/event-stream");
      const raw = c.req.raw;
      const body = await raw.arrayBuffer();
      const res = await handle(new Request(raw.url, { method: "POST", headers, body }));
      return await sseToJson(res);
    }
    return await handle(c.req.raw);
  });

  const handle = async (request: Request): Promise<Response> => {
    const id = request.headers.get("mcp-session-id") ?? undefined;
    const now = Date.now();
    if (id) {
      const session = sessions.get(id);
      if (!session) {
        return Response.json({
          jsonrpc: "2.0",
          error: { code: -32001, message: "Session not found (initialize again)" },
          id: null,
        }, { status: 404 });
      }
      session.lastUsed = now;
      return await session.transport.handleRequest(request);
    }
    await evict(now);
    const session = await open();
    const res = await session.transport.handleRequest(request);
    // Not an `initialize`: the transport answered an error and keeps no session.
    if (!session.transport.sessionId) await session.close();
    return res;
  };
}

/**
 * Turns the SSE answer of one POST into a JSON body: the JSON-RPC responses it carried (one
 * object, or an array when the POST was a batch); notifications sent meanwhile are dropped.
 */
async function sseToJson(res: Response): Promise<Response> {
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) return res;
  const text = await res.text();
  const messages: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event.split(/\r?\n/).filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart()).join("\n");
    if (data === "") continue;
    try {
      const message = JSON.parse(data);
      if (message && typeof message === "object" && "id" in message) messages.push(message);
    } catch { /* not JSON: skip */ }
  }
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json");
  headers.delete("cache-control");
  const body = messages.length === 1 ? messages[0] : messages;
  return new Response(JSON.stringify(body), { status: res.status, headers });
}
