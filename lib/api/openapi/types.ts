/**
 * The shape of one entry of the route description table (routes.ts), from which the OpenAPI
 * document is built.
 *
 * @module
 */
import type { TSchema } from "typebox";

/** An HTTP method as registered with the app (`ALL`: any method). */
export type RouteMethod = "GET" | "POST" | "PUT" | "DELETE" | "ALL";

/** A query or header parameter (path parameters come from {@link RouteDoc.path}). */
export interface ParameterDoc {
  /** Parameter name. */
  readonly name: string;
  /** Where it is given. */
  readonly in: "query" | "header";
  /** What it does. */
  readonly description: string;
  /** Whether the request must give it (default false). */
  readonly required?: boolean;
  /** Its JSON Schema (default: a string). */
  readonly schema?: TSchema;
}

/** A response of a route. */
export interface ResponseDoc {
  /** When it is given. */
  readonly description: string;
  /** Media type of the body (default `application/json`; `application/problem+json` for ≥ 400). */
  readonly contentType?: string;
  /** JSON Schema of the body; none for bodies that are not JSON or not described. */
  readonly schema?: TSchema;
  /** Response headers worth naming (name → description). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One documented operation: a method and path with what it takes and answers. */
export interface RouteDoc {
  /** The method as registered. */
  readonly method: Exclude<RouteMethod, "ALL">;
  /**
   * The path as registered with the app (Hono syntax: `:name`, `:name{regex}`, `*`); several
   * entries may document one registration (e.g. `/api/outputs/*`).
   */
  readonly route: string;
  /** The OpenAPI path (`{name}` parameters); default: derived from `route`. */
  readonly path?: string;
  /** Descriptions of the path parameters (name → description). */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** One line: what it does. */
  readonly summary: string;
  /** More, with the reference rule ids. */
  readonly description?: string;
  /** Group in the rendered docs. */
  readonly tag: string;
  /** Query and header parameters. */
  readonly parameters?: readonly ParameterDoc[];
  /** The request body: media type and schema. */
  readonly requestBody?: {
    readonly contentType: string;
    readonly schema: TSchema;
    readonly description?: string;
  };
  /** Responses by status code. */
  readonly responses: Readonly<Record<string, ResponseDoc>>;
  /** Needs `X-API-Token`: `always`, or `protect-writes` (only with `--protect-writes`). */
  readonly token?: "always" | "protect-writes";
}

/** A registered route that is deliberately not in the API document, and why. */
export interface UndescribedRoute {
  /** The method as registered. */
  readonly method: RouteMethod;
  /** The path as registered. */
  readonly route: string;
  /** Why it is not described (HTML page, static file, catch-all, …). */
  readonly reason: string;
}
