/**
 * The live-service part of the HTTP app: write endpoints (asset forms, auto-CRUD REST and
 * GraphQL, module parameters), the reload webhook, opt-in token protection of writes (R91) and
 * read-your-writes on every read endpoint.
 *
 * @module
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { GraphEngine } from "../engine.ts";
import { WriteService } from "../writes/service.ts";
import { checkApiToken } from "./auth.ts";
import { BUILD_STATUS_HEADER, readConsistency, setResponseHeader } from "./consistency.ts";
import type { MutationMode } from "./graphql_routes.ts";
import { type MutationWriter, refusingWriter } from "./graphql/mutations.ts";
import { registerAssetWriteRoutes } from "./rest/asset_writes.ts";
import { registerMutationRoutes } from "./rest/mutations.ts";
import { registerModuleParamRoutes } from "./rest/module_params.ts";
import { registerWebhookRoutes, type WorkspaceSync } from "./rest/webhook.ts";
import { registerContractRoutes } from "./rest/contracts.ts";
import { ContractService } from "../contracts/service.ts";

/** Options of the live service. */
export interface LiveOptions {
  /** Whether asset writes are enabled (`admin_assets`, R60); default true. */
  writes?: boolean;
  /** The API token (`GRAPHSVC_API_TOKEN`); the reload webhook is disabled without it (R41). */
  apiToken?: string;
  /** Require the token on every mutating endpoint (`--protect-writes`, R91). */
  protectWrites?: boolean;
  /** Synchronises the data directory before a reload's rebuild (Git, R42). */
  sync?: WorkspaceSync;
  /** Bound of a `Graphsvc-Min-Generation` wait in milliseconds (default 10 s). */
  generationWaitMs?: number;
}

/** What the rest of the app needs from the live service. */
export interface LiveService {
  /** The write service of the app. */
  writes: WriteService;
  /** How the GraphQL mutations of a request are carried out. */
  mutationMode(request: Request): Promise<MutationMode>;
  /** Contracts (AC44): `/api/contracts` and the MCP tools `contract.<name>` call them alike. */
  contracts: ContractService;
}

/**
 * Waits for the first build when none has been published yet, so that writes and parameter
 * updates see the declarations of the manifest (column types, `name_template`, parameters).
 */
function settledOnce(engine: GraphEngine): () => Promise<void> {
  return async () => {
    if (engine.current.generation > 0) return;
    const generation = engine.latestGeneration > 0 ? 1 : engine.requestRebuild();
    await engine.waitFor(generation);
  };
}

/** Registers the read-consistency middleware and every write route; returns the service. */
export function registerLiveService(
  app: Hono,
  engine: GraphEngine,
  options: LiveOptions = {},
): LiveService {
  const settled = settledOnce(engine);
  const writes = new WriteService({
    workspace: engine.workspace,
    context: async () => {
      await settled();
      return engine.current;
    },
    createTemplates: (params) => engine.createTemplates(params),
    scheduleRebuild: (changed, written) => engine.requestRebuild({ changed, written }),
    currentGeneration: () => engine.latestGeneration,
    enabled: options.writes ?? true,
  });

  // Every response says how the newest build attempt went (ok, degraded or failed).
  app.use("*", async (c, next) => {
    await next();
    const status = engine.status?.status;
    if (status) setResponseHeader(c, BUILD_STATUS_HEADER, status);
  });
  const consistent = readConsistency(engine, options.generationWaitMs);
  const onReads: MiddlewareHandler = (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" ? consistent(c, next) : next();
  app.use("/graphql", consistent);
  for (const path of ["/api/assets", "/api/assets/*", "/api/outputs/*", "/api/engine-info"]) {
    app.use(path, onReads);
  }
  app.use("/api/validate-workspace", onReads);

  if (options.protectWrites) {
    const guard: MiddlewareHandler = async (c, next) => {
      if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") {
        return next();
      }
      const refused = await checkApiToken(c.req.raw, options.apiToken, "writes");
      if (refused) return refused;
      return next();
    };
    for (
      const path of ["/api/assets/*", "/api/mutations/*", "/api/module-params", "/api/contracts/*"]
    ) {
      app.use(path, guard);
    }
  }

  registerAssetWriteRoutes(app, writes);
  registerMutationRoutes(app, writes);
  registerModuleParamRoutes(app, engine, settled);
  const contracts = new ContractService(engine, writes, settled);
  registerContractRoutes(app, contracts);
  registerWebhookRoutes(app, engine, options.apiToken, options.sync);

  const serviceWriter: MutationWriter = {
    add: (type, fields) => writes.addRow(type, fields),
    change: (type, name, fields) => writes.changeRow(type, name, fields),
    delete: (type, name) => writes.deleteRow(type, name),
  };
  const write: MutationMode = { key: "write", writer: serviceWriter };
  const disabled: MutationMode = {
    key: "disabled",
    writer: refusingWriter("asset writes are disabled"),
  };
  const unauthorized: MutationMode = {
    key: "unauthorized",
    writer: refusingWriter("mutations require a valid X-API-Token header (--protect-writes)"),
  };
  return {
    writes,
    contracts,
    mutationMode: async (request) => {
      if (!writes.enabled) return disabled;
      if (options.protectWrites) {
        const refused = await checkApiToken(request, options.apiToken, "writes");
        if (refused) return unauthorized;
      }
      return write;
    },
  };
}
