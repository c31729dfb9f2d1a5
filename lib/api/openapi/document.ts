/**
 * Builds the OpenAPI 3.1 document of the HTTP API from the route description table
 * (routes.ts), so the document and the routes cannot drift apart (a test compares the table with
 * the routes registered with the app).
 *
 * @module
 */
import type { ParameterDoc, ResponseDoc, RouteDoc } from "./types.ts";
import { ROUTES } from "./routes.ts";

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & {
  /** `3.1.0`. */
  openapi: string;
  /** Path → method → operation. */
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/**
 * The OpenAPI path of a route registered in Hono syntax: `:name` and `:name{regex}` become
 * `{name}`, a `*` segment becomes `{path}`.
 *
 * @example
 * ```ts
 * console.log(openApiPath("/api/mutations/:asset/:name{.+}")); // "/api/mutations/{asset}/{name}"
 * ```
 */
export function openApiPath(route: string): string {
  return route.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}").replace(/\/\*$/, "/{path}");
}

function parameter(p: ParameterDoc): Record<string, unknown> {
  return {
    name: p.name,
    in: p.in,
    description: p.description,
    required: p.required ?? false,
    schema: p.schema ?? { type: "string" },
  };
}

function response(status: string, r: ResponseDoc): Record<string, unknown> {
  const type = r.contentType ??
    (Number(status) >= 400 ? "application/problem+json" : "application/json");
  const out: Record<string, unknown> = {
    description: r.description,
    content: { [type]: r.schema ? { schema: r.schema } : {} },
  };
  if (r.headers) {
    out.headers = Object.fromEntries(
      Object.entries(r.headers).map(([name, description]) => [
        name,
        { description, schema: { type: "string" } },
      ]),
    );
  }
  return out;
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  return method.toLowerCase() +
    words.map((w) => w[0].toUpperCase() + w.slice(1)).join("") +
    (path.length > 1 && path.endsWith("/") ? "Slash" : "");
}

function operation(route: RouteDoc, path: string): Record<string, unknown> {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    description: route.pathParams?.[m[1]] ?? m[1],
    schema: { type: "string" },
  }));
  const op: Record<string, unknown> = {
    operationId: operationId(route.method, path),
    summary: route.summary,
    tags: [route.tag],
    parameters: [...pathParams, ...(route.parameters ?? []).map(parameter)],
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, r]) => [status, response(status, r)]),
    ),
  };
  const notes = [route.description ?? ""];
  if (route.token === "protect-writes") {
    notes.push("Needs `X-API-Token` when the server runs with `--protect-writes` (R91).");
    op.security = [{}, { apiToken: [] }];
  } else if (route.token === "always") {
    op.security = [{ apiToken: [] }];
  }
  const description = notes.filter((n) => n !== "").join(" ");
  if (description) op.description = description;
  if (route.requestBody) {
    op.requestBody = {
      required: true,
      ...(route.requestBody.description ? { description: route.requestBody.description } : {}),
      content: { [route.requestBody.contentType]: { schema: route.requestBody.schema } },
    };
  }
  return op;
}

/**
 * The OpenAPI 3.1 document of the routes in `routes` (default: the whole table).
 *
 * @example
 * ```ts
 * const doc = openApiDocument({ version: "0.1.0", edition: "ce" });
 * console.log(doc.openapi, "/api/features" in doc.paths); // "3.1.0" true
 * ```
 */
export function openApiDocument(
  info: { version: string; edition: "ce" | "ee" },
  routes: readonly RouteDoc[] = ROUTES,
): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    const path = route.path ?? openApiPath(route.route);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, path);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `graphsvc (${info.edition})`,
      version: info.version,
      description: "Typed property graph service: GraphQL, REST and MCP over a graph built " +
        "from CSV assets and TOML rules. Errors are problem documents (RFC 9457). Reads honour " +
        "`Graphsvc-Min-Generation`; writes answer with `Graphsvc-Generation`.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    paths,
    components: {
      securitySchemes: {
        apiToken: { type: "apiKey", in: "header", name: "X-API-Token" },
      },
    },
  };
}
