/**
 * The HTTP application: GraphQL, GraphiQL and the REST API, as a Hono app whose `fetch` works in
 * any runtime (Deno.serve, edge functions, tests).
 *
 * @module
 */
import { graphState } from "./graphql/snapshot.ts";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { GraphEngine } from "../engine.ts";
import { problem } from "./problem.ts";
import { registerAssetReadRoutes } from "./rest/assets.ts";
import { addFeatures, registerInfoRoutes, type ServerInfo } from "./rest/info.ts";
import { registerHealthRoutes } from "./rest/health.ts";
import { registerBuildStreamRoute } from "./rest/build_stream.ts";
import { registerOutputRoutes } from "./rest/outputs.ts";
import { registerGraphQLRoutes, type StaticAssetReader } from "./graphql_routes.ts";
import { allowedMethods, registerSecurity, type SecurityOptions } from "./security.ts";
import { requestLog } from "./request_log.ts";
import { type LiveOptions, registerLiveService } from "./live.ts";
import { registerValidateRoutes } from "./rest/validate.ts";
import { registerOpenApiRoutes } from "./openapi/http.ts";
import type { SchemaFetcher } from "../schema/sources.ts";
import { type AppRouteOptions, registerAppRoutes } from "../apps/http.ts";
import { type McpOptions, registerMcpRoutes } from "../mcp/http.ts";
import { registerActionRoutes } from "./rest/actions.ts";
import type { ActionService } from "../actions/service.ts";
import { actionSockets, mcpActions } from "../actions/engine_link.ts";
import type { VaultServer } from "../vault/server.ts";
import { registerVaultRoutes } from "../vault/http.ts";
import { registerResourceRoutes } from "./rest/resource.ts";
import { explorerPage, registerExplorerRoutes } from "../explorer/http.ts";
import type { UiAssets } from "./ui_assets.ts";

/**
 * Runs the engine's background work where the host allows it: when a request leaves a build
 * running, either waits for it (`inRequest`) or hands it to the execution context's `waitUntil`
 * (edge runtimes, which stop work once the answer is sent). With neither (Deno, Node), the build
 * simply goes on in the background.
 */
function settleBuilds(engine: GraphEngine, inRequest: boolean): MiddlewareHandler {
  return async (c, next) => {
    // A reader is about: builds give the event loop full turns for a moment (reader_turns.ts).
    engine.noteRequest();
    await next();
    if (!engine.busy) return;
    if (inRequest) {
      await engine.settled();
      return;
    }
    let ctx: ExecutionContextLike | undefined;
    try {
      ctx = c.executionCtx;
    } catch { /* no execution context: a long-lived runtime */ }
    ctx?.waitUntil(engine.settled());
  };
}

/** Largest accepted request body for REST endpoints (reference R93). */
export const MAX_REST_BODY_BYTES = 32 * 1024 * 1024;
/** Largest accepted GraphQL request body. */
export const MAX_GRAPHQL_BODY_BYTES = 1024 * 1024;

/** Options of {@link createApp}. */
export interface AppOptions extends Partial<ServerInfo>, LiveOptions, SecurityOptions {
  /**
   * Reads GraphiQL's static files by `node_modules/`-relative path instead of serving the copies
   * embedded in the program (lib/api/assets/); rarely needed.
   */
  readStaticAsset?: StaticAssetReader;
  /** Hosted apps and their proxy routes (environment, upstream fetch, action sockets). */
  apps?: AppRouteOptions;
  /** The MCP endpoint (`write`: `saveAsset`, `--mcp-write`). */
  mcp?: McpOptions;
  /** Actions (`/api/actions`, MCP action tools, `action://` routes); none listed when absent. */
  actions?: ActionService;
  /** The built-in vault server, mounted at `/vault/v1` (`--vault`, AC60); absent: no routes. */
  vault?: VaultServer;
  /** Reads remote schema locations for `/api/validate-workspace` (Git, files outside modules). */
  schemaFetcher?: SchemaFetcher;
  /**
   * The browser UI's files (`uiAssets` from the `./ui` entry point): GraphiQL, API docs and the
   * explorer are served only with them, so a program without the UI stays small.
   */
  ui?: UiAssets;
  /**
   * Finish the build a request caused before answering it (default false: builds run in the
   * background). For hosts that neither keep work running after a response nor offer a
   * `waitUntil`; a write is then answered when its graph is published.
   */
  buildInRequest?: boolean;
  /** Receives one `info` line per request (method, path, status, duration); none when absent. */
  log?: (level: string, text: string) => void;
}

/**
 * The part of an edge runtime's execution context the app uses (Cloudflare Workers' and
 * Durable Objects' `ctx`, Vercel's and Netlify's `waitUntil`): work handed to `waitUntil` keeps
 * running after the response was sent.
 */
export interface ExecutionContextLike {
  /** Keeps the request's isolate alive until `promise` settles. */
  waitUntil(promise: Promise<unknown>): void;
}

/** The HTTP application: a fetch handler usable with `Deno.serve`, edge runtimes and tests. */
export interface GraphsvcApp {
  /**
   * Answers one request. In a request-scoped runtime pass its execution context (`ctx` of a
   * Workers `fetch(request, env, ctx)`): a build a request caused (a write) is handed to
   * `ctx.waitUntil`, so it completes after the answer and the next read sees it.
   */
  fetch(request: Request, env?: unknown, ctx?: ExecutionContextLike): Response | Promise<Response>;
}

/**
 * Creates the HTTP app for an engine.
 *
 * @example
 * ```ts ignore
 * const app = createApp(engine, { edition: "ce", version: "0.1.0" });
 * Deno.serve({ port: 7600 }, app.fetch);
 * ```
 */
export function createApp(engine: GraphEngine, options: AppOptions = {}): GraphsvcApp {
  const app = new Hono();
  // Each new snapshot gets its GraphQL schema model (a scan of the whole graph) in time slices
  // before it is published, instead of on its first query.
  // The published graph, until this hook returns, is the one the new snapshot replaces.
  engine.beforePublish((snapshot) =>
    graphState(snapshot.graph).warm({ turn: engine.turn, previous: engine.current.graph })
  );
  if (options.log) app.use("*", requestLog(options.log)); // first: refused requests are logged too
  app.use("*", settleBuilds(engine, options.buildInRequest ?? false));
  registerSecurity(app, options);
  const info: ServerInfo = {
    edition: options.edition ?? "ce",
    version: options.version ?? "0.0.0",
    features: options.features ?? (options.writes === false ? [] : ["admin_assets"]),
  };
  app.use(
    "/graphql",
    bodyLimit({
      maxSize: MAX_GRAPHQL_BODY_BYTES,
      onError: () =>
        problem(
          413,
          "payload-too-large",
          `GraphQL request body exceeds ${MAX_GRAPHQL_BODY_BYTES} bytes`,
        ),
    }),
  );
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_REST_BODY_BYTES,
      onError: () =>
        problem(413, "payload-too-large", `request body exceeds ${MAX_REST_BODY_BYTES} bytes`),
    }),
  );
  const live = registerLiveService(app, engine, options);
  const actions = options.actions;
  addFeatures(info, { actions: !!actions, contracts: live.writes.enabled, vault: !!options.vault });
  const mcp = actions ? { actions: mcpActions(actions), ...options.mcp } : options.mcp ?? {};
  registerMcpRoutes(app, engine, live, mcp, info); // `/mcp` (R70–R74)
  registerActionRoutes(app, { ...options, service: actions }); // `/api/actions` (AC10–AC13)
  registerGraphQLRoutes(
    app,
    engine,
    options.readStaticAsset,
    options.ui?.graphiql,
    live.mutationMode,
  );
  registerAssetReadRoutes(app, engine.workspace);
  registerInfoRoutes(app, engine, info);
  registerHealthRoutes(app, engine); // `/healthz`, `/readyz`
  registerBuildStreamRoute(app, engine);
  registerOutputRoutes(app, engine);
  registerValidateRoutes(app, engine, options.schemaFetcher);
  registerResourceRoutes(app, engine, options.generationWaitMs); // explorer reads, `/api/search`
  registerOpenApiRoutes(app, info, options.ui?.swaggerUi); // `/api/openapi.json`, `/api/docs`
  registerExplorerRoutes(app, options.ui?.explorer); // `/explorer`: also the page at `/` when no app is mounted there
  if (options.vault) registerVaultRoutes(app, options.vault); // `/vault/v1/*` (AC60)
  const sockets = actions ? { actions: actionSockets(actions) } : {};
  const explorer = options.ui?.explorer;
  const rootPage = explorer
    ? (apps: readonly { id: string; name: string }[]) => explorerPage(explorer, apps)
    : undefined; // the plain page of links
  registerAppRoutes(app, engine, { rootPage, ...sockets, ...options.apps }); // last

  app.notFound((c) => {
    const path = c.req.path;
    if (path.startsWith("/api/") || path === "/api") {
      const allow = allowedMethods(app, path);
      if (allow.length > 0 && !allow.includes(c.req.method)) {
        return problem(405, "method-not-allowed", `${c.req.method} is not allowed on ${path}`, {}, {
          allow: allow.join(", "),
        });
      }
    }
    return problem(404, "not-found", `no route for ${c.req.method} ${path}`);
  });
  app.onError((err) => {
    console.error(`internal error: ${err instanceof Error ? err.message : String(err)}`);
    return problem(500, "internal", "the server failed to handle the request; see the server log");
  });
  return app;
}
