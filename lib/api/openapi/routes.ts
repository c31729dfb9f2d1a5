/**
 * The route description table: every operation of the HTTP API with what it takes and answers.
 * The OpenAPI document (`GET /api/openapi.json`) is built from it, and a test
 * (tests/api/openapi_test.ts) fails when a route registered with the app is neither here nor in
 * {@link UNDESCRIBED_ROUTES}, or when an entry here has no registered route. Whoever adds a route
 * adds its entry.
 *
 * @module
 */
import Type, { type TSchema } from "typebox";
import type { ResponseDoc, RouteDoc, UndescribedRoute } from "./types.ts";
import {
  AnyObject,
  AssetForm,
  EngineInfo,
  ModuleParams,
  ModuleParamsUpdate,
  ObjectList,
  OutputEntry,
  ProbeStatus,
  Problem,
  RowFields,
  StringList,
  ValidationReport,
  WriteResult,
} from "./schemas.ts";
import { VAULT_ROUTES } from "./routes_vault.ts";

const json = (description: string, schema: TSchema = AnyObject): ResponseDoc => ({
  description,
  schema,
});
const fail = (description: string): ResponseDoc => ({
  description,
  contentType: "application/problem+json",
  schema: Problem,
});
const written = (description: string): ResponseDoc => ({
  description,
  schema: WriteResult,
  headers: { "Graphsvc-Generation": "the generation that will contain the write" },
});
const minGeneration = {
  name: "Graphsvc-Min-Generation",
  in: "header",
  description: "answer from this build generation or a newer one (read-your-writes); waits " +
    "for it up to a bound, then 409/504. The query parameter `min_generation` is the same",
  schema: Type.Integer({ minimum: 0 }),
} as const;
const intQuery = (name: string, description: string) =>
  ({ name, in: "query", description, schema: Type.Integer({ minimum: 0 }) }) as const;
const FORM = "multipart/form-data";
const JSON_TYPE = "application/json";

/** Every documented operation. */
export const ROUTES: readonly RouteDoc[] = [
  // --- Assets (R1–R13)
  {
    method: "GET",
    route: "/api/assets",
    summary: "List the asset CSV files",
    description: "R1. File names relative to `assets/`, sorted.",
    tag: "Assets",
    parameters: [minGeneration],
    responses: { 200: json("asset file names", StringList) },
  },
  {
    method: "GET",
    route: "/api/assets/",
    summary: "List the asset CSV files (trailing slash)",
    description: "R1. Same as `/api/assets`.",
    tag: "Assets",
    parameters: [minGeneration],
    responses: { 200: json("asset file names", StringList) },
  },
  {
    method: "GET",
    route: "/api/assets/*",
    path: "/api/assets/{file}",
    pathParams: { file: "file name below `assets/`, with `.csv`" },
    summary: "Read one asset CSV file",
    description: "R2. The raw file text.",
    tag: "Assets",
    parameters: [minGeneration],
    responses: {
      200: { description: "the CSV text", contentType: "text/csv" },
      400: fail("unsafe file name"),
      404: fail("no such file"),
    },
  },
  ...(["POST", "PUT"] as const).map((method): RouteDoc => ({
    method,
    route: "/api/assets/*",
    path: "/api/assets/{file}",
    pathParams: { file: "file name below `assets/`, with `.csv`" },
    summary: "Write an asset CSV file (replace, upsert or remove rows)",
    description: "R3–R9. `data` replaces the file and must be alone; `remove` and `update` may " +
      "be combined (remove first, one atomic write). A rebuild is scheduled.",
    tag: "Assets",
    token: "protect-writes",
    requestBody: { contentType: FORM, schema: AssetForm },
    responses: {
      200: written("written: `{ok, file, rows, generation}`"),
      400: fail("bad form, CSV or file name"),
      403: fail("writes are disabled"),
      404: fail("`remove` on a missing file"),
    },
  })),
  {
    method: "POST",
    route: "/api/mutations/:asset",
    pathParams: { asset: "asset type" },
    summary: "Add a row to an asset",
    description: "R10, R13. The key is `name` or the first column.",
    tag: "Assets",
    token: "protect-writes",
    requestBody: { contentType: JSON_TYPE, schema: RowFields },
    responses: {
      201: written("added"),
      400: fail("missing field, type or enum violation, undeclared field"),
      404: fail("no such asset type"),
      409: fail("the key exists"),
    },
  },
  {
    method: "PUT",
    route: "/api/mutations/:asset/:name{.+}",
    pathParams: { asset: "asset type", name: "the row's primary key" },
    summary: "Merge fields into a row",
    description: "R11, R13. Omitted fields keep their values.",
    tag: "Assets",
    token: "protect-writes",
    requestBody: { contentType: JSON_TYPE, schema: RowFields },
    responses: {
      200: written("updated"),
      400: fail("type or enum violation, undeclared field"),
      404: fail("no such asset type or row"),
    },
  },
  {
    method: "DELETE",
    route: "/api/mutations/:asset/:name{.+}",
    pathParams: { asset: "asset type", name: "the row's primary key" },
    summary: "Remove a row",
    description: "R12.",
    tag: "Assets",
    token: "protect-writes",
    responses: { 200: written("removed"), 404: fail("no such asset type or row") },
  },
  // --- Module parameters (R20–R23)
  {
    method: "GET",
    route: "/api/module-params",
    summary: "Module parameters with their declarations and values",
    description: "R20.",
    tag: "Modules",
    responses: { 200: json("parameters by name", ModuleParams) },
  },
  ...(["POST", "PUT"] as const).map((method): RouteDoc => ({
    method,
    route: "/api/module-params",
    summary: "Set module parameters (all or nothing), persisted, then rebuild",
    description: "R21–R23.",
    tag: "Modules",
    token: "protect-writes",
    requestBody: { contentType: JSON_TYPE, schema: ModuleParamsUpdate },
    responses: {
      202: written("the parameters after the update, with `generation`"),
      400: fail("unknown parameter, value not allowed, required parameter reset, not an object"),
    },
  })),
  // --- Actions (AC10–AC13)
  {
    method: "GET",
    route: "/api/actions",
    summary: "List the concrete actions",
    description: "AC10, AC5. One entry per expanded action (`origin` is null for global " +
      "actions). Action files that do not parse or expand are left out (the other files still " +
      "expand); the answer then carries `X-Config-Errors: <n>` and `/api/actions/errors` " +
      "lists them.",
    tag: "Actions",
    responses: {
      200: {
        ...json("actions", ObjectList),
        headers: { "X-Config-Errors": "number of action files left out, when any" },
      },
    },
  },
  {
    method: "GET",
    route: "/api/actions/errors",
    summary: "Errors of the last expansion of the action files",
    description: "AC5. One `{file, line?, column?, code, message}` per action file that does " +
      "not parse, fails to expand (a template error in `match_on`, …) or repeats a concrete " +
      "name; empty when every file expanded.",
    tag: "Actions",
    responses: { 200: json("located errors", ObjectList) },
  },
  {
    method: "POST",
    route: "/api/actions/:module/:action",
    pathParams: {
      module: "module id (MP7; the data directory's is the slug of its declared name, else " +
        "`data`)",
      action: "action name",
    },
    summary: "Queue an action run, or download its bundle",
    description: "AC11, AC12. The body is a JSON object of inputs (empty = `{}`); " +
      "`?download=true` returns the `tar.gz` bundle, sealed to `X-Runner-Key` when given.",
    tag: "Actions",
    token: "protect-writes",
    parameters: [
      {
        name: "download",
        in: "query",
        description: "`true`: return the bundle instead of queueing",
        schema: Type.Boolean(),
      },
      {
        name: "X-Runner-Key",
        in: "header",
        description: "base64 X25519 public key the bundle's secrets are sealed to (AC23)",
      },
    ],
    requestBody: { contentType: JSON_TYPE, schema: AnyObject },
    responses: {
      200: { description: "the bundle (`?download=true`)", contentType: "application/gzip" },
      202: json("queued: `{id, status}`"),
      400: fail(
        "invalid inputs (AC6): `validation-failed` with `errors: [{field, message}]`, one per " +
          "refused input (as contracts); body not JSON or bad X-Runner-Key: `bad-request`",
      ),
      403: fail("writes are disabled"),
      404: fail("no such module or action"),
      422: fail("the bundle cannot be built (template error, missing file or mounted artifact)"),
    },
  },
  {
    method: "GET",
    route: "/api/actions/runs",
    summary: "Run records, newest first",
    description: "AC13.",
    tag: "Actions",
    responses: { 200: json("run records", ObjectList) },
  },
  {
    method: "GET",
    route: "/api/actions/runs/:id",
    pathParams: { id: "run id" },
    summary: "One run record",
    description: "AC13. Status, exit code, error and the last lines of output.",
    tag: "Actions",
    responses: { 200: json("the run"), 404: fail("no such run") },
  },
  {
    method: "GET",
    route: "/api/actions/runs/:id/log",
    pathParams: { id: "run id" },
    summary: "A run's output as Server-Sent Events",
    description: "AC30. The lines so far, live lines while it runs, then " +
      "`RUN_SUCCEEDED`, `RUN_FAILED: <error>` or `RUN_CANCELLED`; the stream then ends.",
    tag: "Actions",
    responses: {
      200: { description: "event stream", contentType: "text/event-stream" },
      404: fail("no such run"),
    },
  },
  {
    method: "DELETE",
    route: "/api/actions/runs/:id",
    pathParams: { id: "run id" },
    summary: "Cancel a queued run",
    description: "AC13.",
    tag: "Actions",
    token: "protect-writes",
    responses: {
      200: json("the cancelled run"),
      403: fail("writes are disabled"),
      404: fail("no such run"),
      409: fail("the run is not queued (`invalid-transition`)"),
    },
  },
  // --- Contracts (AC44)
  {
    method: "GET",
    route: "/api/contracts",
    summary: "List the contracts with their inputs",
    description: "AC44, AC40. Contract files that do not parse (or repeat a name) are left " +
      "out and the others listed; the answer then carries `X-Config-Errors: <n>` and " +
      "`/api/contracts/errors` lists them.",
    tag: "Contracts",
    responses: {
      200: {
        ...json("contracts", ObjectList),
        headers: { "X-Config-Errors": "number of contract files left out, when any" },
      },
    },
  },
  {
    method: "GET",
    route: "/api/contracts/errors",
    summary: "Contract files that cannot be used",
    description: "AC40, AC41. One `{file, line?, column?, code, message}` per contract file " +
      "that does not parse or repeats a contract name; empty when every file is usable.",
    tag: "Contracts",
    responses: { 200: json("located errors", ObjectList) },
  },
  {
    method: "POST",
    route: "/api/contracts/:name",
    pathParams: { name: "contract name" },
    summary: "Call a contract with a JSON object of inputs",
    description: "AC44. Answers the outcome of each write and the generation that has them.",
    tag: "Contracts",
    token: "protect-writes",
    requestBody: { contentType: JSON_TYPE, schema: AnyObject },
    responses: {
      200: written("called"),
      400: fail(
        "invalid inputs (AC6): `validation-failed` with `errors: [{field, message}]`, one per " +
          "refused input (as actions); body not JSON: `bad-request`",
      ),
      403: fail("writes are disabled"),
      404: fail("no such contract, or a row a write or `[[require]]` needs"),
      409: fail("duplicate key (`add`, intake) or `invalid-transition` (AC45, spec §3)"),
    },
  },
  // --- Builds and discovery (R30–R61)
  {
    method: "GET",
    route: "/api/validate-workspace",
    summary: "Validation report of the built graph (always 200)",
    description: "R30, SV30, SV40.",
    tag: "Builds",
    parameters: [
      {
        name: "strict",
        in: "query",
        description: "`true`: also cell and edge-property type checks",
        schema: Type.Boolean(),
      },
      minGeneration,
    ],
    responses: { 200: json("the report", ValidationReport) },
  },
  {
    method: "POST",
    route: "/api/webhook/reload",
    summary: "Sync the data directory (Git, when configured) and rebuild",
    description: "R40–R44. Disabled (403) when GRAPHSVC_API_TOKEN is unset.",
    tag: "Builds",
    token: "always",
    responses: {
      202: written('`{status: "reload-scheduled", generation}`'),
      401: fail("missing or wrong X-API-Token"),
      403: fail("no API token configured"),
    },
  },
  {
    method: "GET",
    route: "/api/build/stream",
    summary: "Build log as Server-Sent Events",
    description: "R50–R54. One `data:` event per line; a build ends with `BUILD_COMPLETE` or " +
      "`BUILD_FAILED: <message>`; `: keep-alive` every 15 s.",
    tag: "Builds",
    responses: { 200: { description: "the event stream", contentType: "text/event-stream" } },
  },
  {
    method: "GET",
    route: "/api/features",
    summary: "Enabled features",
    description: "R60.",
    tag: "Builds",
    responses: { 200: json("feature names", StringList) },
  },
  {
    method: "GET",
    route: "/api/engine-info",
    summary: "Edition, version, build state and modules",
    description: "R61, R43.",
    tag: "Builds",
    parameters: [minGeneration],
    responses: { 200: json("engine information", EngineInfo) },
  },
  {
    method: "GET",
    route: "/healthz",
    summary: "Liveness probe",
    tag: "Operations",
    responses: { 200: json("the process answers", ProbeStatus) },
  },
  {
    method: "GET",
    route: "/readyz",
    summary: "Readiness probe: a first build is published",
    tag: "Operations",
    responses: {
      200: json("ready, with the served generation", ProbeStatus),
      503: fail("no build published yet"),
    },
  },
  // --- Outputs (OU20–OU34)
  {
    method: "GET",
    route: "/api/outputs/index",
    summary: "Downloadable output artifacts",
    description: "OU20.",
    tag: "Outputs",
    parameters: [
      { name: "type", in: "query", description: "only this output type" },
      { name: "origin_type", in: "query", description: "only outputs of this resource type" },
      { name: "origin_name", in: "query", description: "only outputs of this resource" },
      minGeneration,
    ],
    responses: { 200: json("artifacts", Type.Array(OutputEntry)) },
  },
  ...["", "/download"].map((suffix): RouteDoc => ({
    method: "GET",
    route: "/api/outputs/*",
    path: `/api/outputs/{type}/{name}/{filename}${suffix}`,
    pathParams: { type: "output type", name: "output name", filename: "file name" },
    summary: suffix ? "Download an output file (attachment)" : "Read an output file",
    description: "OU30–OU34.",
    tag: "Outputs",
    parameters: [minGeneration],
    responses: {
      200: { description: "the file, with its media type", contentType: "*/*" },
      404: fail("no such output or file"),
    },
  })),
  // --- Resources (the explorer's API)
  {
    method: "GET",
    route: "/api/resources",
    summary: "Resource types and relation labels with counts",
    tag: "Resources",
    parameters: [minGeneration],
    responses: { 200: json("the graph summary") },
  },
  {
    method: "GET",
    route: "/api/resources/*",
    path: "/api/resources/{type}",
    pathParams: { type: "resource type" },
    summary: "A sorted, filtered page of one type's resources",
    tag: "Resources",
    parameters: [
      { name: "sort", in: "query", description: "column to sort by" },
      { name: "desc", in: "query", description: "`1` or `true`: descending" },
      intQuery("offset", "rows to skip"),
      intQuery("limit", "rows to return (at most 500)"),
      { name: "f.<column>", in: "query", description: "filter: the column contains the text" },
      minGeneration,
    ],
    responses: { 200: json("the page"), 400: fail("bad number"), 404: fail("no such type") },
  },
  {
    method: "GET",
    route: "/api/resources/*",
    path: "/api/resources/{type}/{name}",
    pathParams: { type: "resource type", name: "resource name" },
    summary: "One resource: properties, relations, outputs, compliance, issues, sources",
    description: "`provenance` lists the files that created or changed the resource: its asset " +
      "file (`created`), model rule files that created it, set its properties (`changed`) or " +
      "related it (`linked`), compliance files that wrote onto it (`compliance`).",
    tag: "Resources",
    parameters: [minGeneration],
    responses: {
      200: json(
        "the resource",
        Type.Object({
          provenance: Type.Array(Type.Object({
            rule: Type.String({ description: "file, e.g. models/net.toml or assets/host.csv" }),
            kind: Type.Union(
              ["created", "changed", "linked", "compliance"].map((k) => Type.Literal(k)),
            ),
          })),
        }, { additionalProperties: true }),
      ),
      404: fail("no such resource"),
    },
  },
  {
    method: "GET",
    route: "/api/neighbourhood",
    summary: "Nodes and edges around a resource",
    tag: "Resources",
    parameters: [
      { name: "type", in: "query", description: "resource type", required: true },
      { name: "name", in: "query", description: "resource name", required: true },
      intQuery("depth", "1 to 3 (default 1)"),
      { name: "label", in: "query", description: "only relations with this label" },
      minGeneration,
    ],
    responses: {
      200: json("nodes and edges"),
      400: fail("type or name missing, or a bad depth"),
      404: fail("no such resource"),
    },
  },
  {
    method: "GET",
    route: "/api/search",
    summary: "Search resource names and property values",
    tag: "Resources",
    parameters: [
      { name: "q", in: "query", description: "the text" },
      { name: "type", in: "query", description: "only this resource type" },
      intQuery("limit", "hits to return (at least 1)"),
      intQuery("offset", "hits to skip"),
      minGeneration,
    ],
    responses: { 200: json("a page of hits"), 400: fail("bad number") },
  },
  // --- Apps (R62)
  {
    method: "GET",
    route: "/api/apps",
    summary: "Hosted apps and their proxy paths",
    description: "R62. Proxy targets and injected headers are never returned.",
    tag: "Apps",
    responses: { 200: json("apps", ObjectList) },
  },
  // --- GraphQL and MCP
  ...(["GET", "POST"] as const).map((method): RouteDoc => ({
    method,
    route: "/graphql",
    summary: "GraphQL over HTTP",
    description: "graphql.md. " +
      (method === "GET"
        ? "Queries only, from the query string."
        : "`{query, variables, operationName}`; mutations when writes are enabled."),
    tag: "GraphQL",
    ...(method === "GET"
      ? {
        parameters: [
          { name: "query", in: "query", description: "the GraphQL document", required: true },
          { name: "variables", in: "query", description: "JSON object of variables" },
          { name: "operationName", in: "query", description: "operation to run" },
          minGeneration,
        ],
      }
      : {
        parameters: [minGeneration],
        requestBody: {
          contentType: JSON_TYPE,
          schema: Type.Object({
            query: Type.String(),
            variables: Type.Optional(AnyObject),
            operationName: Type.Optional(Type.String()),
          }),
        },
      }),
    responses: { 200: json("`{data, errors, extensions}`"), 400: json("a request error") },
  })),
  ...(["GET", "POST", "DELETE"] as const).map((method): RouteDoc => ({
    method,
    route: "/mcp",
    summary: method === "POST"
      ? "Model Context Protocol: JSON-RPC requests"
      : method === "GET"
      ? "Model Context Protocol: server-to-client stream"
      : "Model Context Protocol: end a session",
    description: "R70–R74 (streamable HTTP transport).",
    tag: "MCP",
    ...(method === "POST" ? { requestBody: { contentType: JSON_TYPE, schema: AnyObject } } : {}),
    responses: { 200: { description: "JSON-RPC answer or event stream", contentType: "*/*" } },
  })),
  // --- This document
  {
    method: "GET",
    route: "/api/openapi.json",
    summary: "This API's OpenAPI 3.1 document",
    tag: "Operations",
    responses: { 200: json("the document") },
  },
  {
    method: "GET",
    route: "/api/docs",
    summary: "This API's documentation page (Swagger UI, served offline)",
    tag: "Operations",
    responses: { 200: { description: "HTML page", contentType: "text/html" } },
  },
  ...VAULT_ROUTES,
];

/** Registered routes that are not part of the API: pages, their static files, catch-alls. */
export const UNDESCRIBED_ROUTES: readonly UndescribedRoute[] = [
  { method: "GET", route: "/graphiql", reason: "HTML page (GraphiQL)" },
  { method: "GET", route: "/graphiql/assets/:file", reason: "static files of the GraphiQL page" },
  { method: "GET", route: "/api/docs/assets/:file", reason: "static files of /api/docs" },
  { method: "GET", route: "/explorer", reason: "HTML page (explorer)" },
  { method: "GET", route: "/explorer/", reason: "HTML page (explorer)" },
  { method: "GET", route: "/explorer/assets/:file", reason: "static files of the explorer" },
  {
    method: "GET",
    route: "/",
    reason: "HTML root page: the data directory's app when it has one, else the explorer",
  },
  { method: "GET", route: "/apps", reason: "HTML page listing the apps" },
  { method: "ALL", route: "/apps/:id{[^/]+}", reason: "hosted app files and proxies" },
  { method: "ALL", route: "/apps/:id{[^/]+}/*", reason: "hosted app files and proxies" },
  { method: "ALL", route: "/*", reason: "fallback of the hosted apps (404 otherwise)" },
];
