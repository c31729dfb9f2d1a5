/**
 * `proxy.toml` (reference AP10): parsing and validation of `[[route]]` tables into
 * {@link RouteSpec}s. Errors are {@link ParseError}s located in the file.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";
import { compileConditions, type Condition } from "../pipeline/rules/conditions.ts";

/** How a route reshapes JSON responses (AP17). */
export type ResponseFilter = { kind: "jp"; query: string } | { kind: "tera"; template: string };

/** One `[[route]]` as declared. */
export interface RouteSpec {
  /** Path prefix under the mount, normalised: leading `/`, no trailing `/` or `/*`. */
  readonly path: string;
  /** Upstream base URL or `action://…`. */
  readonly target: string;
  /** Browser request headers copied upstream (lower case). */
  readonly forwardHeaders: readonly string[];
  /** Headers added server-side, in declaration order (`${env.X}` and Tera allowed). */
  readonly injectHeaders: readonly (readonly [string, string])[];
  /** Resource type making the route dynamic (AP13). */
  readonly originResource?: string;
  /** Conditions on the origin resource. */
  readonly matchOn?: Condition;
  /** Response reshaping. */
  readonly responseFilter?: ResponseFilter;
  /** Declaration index (ties between equally long paths go to the first, AP11). */
  readonly index: number;
}

const KEYS = new Set([
  "path",
  "target",
  "forward_headers",
  "inject_headers",
  "origin_resource",
  "match_on",
  "response_filter",
]);

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Normalises a route path: leading `/`, no trailing `/` or `/*` (`"/"` stays the root). */
export function normalizeRoutePath(path: string): string {
  let p = path.trim();
  if (p.endsWith("/*")) p = p.slice(0, -2);
  p = p.replace(/\/+$/, "");
  if (!p.startsWith("/")) p = "/" + p;
  return p;
}

/**
 * Parses `proxy.toml` text. Throws {@link ParseError} (located at `file`) for invalid TOML, a
 * route without `path`/`target`, or a key of the wrong type; unknown keys are errors too, so a
 * typo never silently drops a credential header.
 *
 * @example
 * ```ts
 * import { parseProxyToml } from "./proxy_config.ts";
 * const [r] = parseProxyToml('[[route]]\npath = "/api/x/*"\ntarget = "http://127.0.0.1:9"\n', "app/proxy.toml");
 * console.log(r.path); // "/api/x"
 * ```
 */
export function parseProxyToml(text: string, file: string): RouteSpec[] {
  const doc = parseTomlDocument(text, file);
  const extra = Object.keys(doc).filter((k) => k !== "route");
  if (extra.length > 0) {
    throw new ParseError(`unknown top-level key '${extra[0]}' (expected [[route]])`, file);
  }
  const routes = doc.route ?? [];
  if (!Array.isArray(routes)) throw new ParseError("'route' must be an array of tables", file);
  return routes.map((raw, index) => parseRoute(raw, index, file));
}

function parseRoute(raw: JsonValue, index: number, file: string): RouteSpec {
  const where = `route[${index}]`;
  const fail = (reason: string): never => {
    throw new ParseError(`${where}: ${reason}`, file);
  };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) fail("must be a table");
  const t = raw as Record<string, JsonValue>;
  for (const key of Object.keys(t)) if (!KEYS.has(key)) fail(`unknown key '${key}'`);
  if (typeof t.path !== "string" || t.path.trim() === "") fail("'path' must be a string");
  if (typeof t.target !== "string" || t.target.trim() === "") fail("'target' must be a string");
  const forward = t.forward_headers ?? [];
  if (!Array.isArray(forward) || forward.some((h) => typeof h !== "string")) {
    fail("'forward_headers' must be an array of header names");
  }
  const inject = t.inject_headers ?? {};
  if (inject === null || typeof inject !== "object" || Array.isArray(inject)) {
    fail("'inject_headers' must be a table of header = value");
  }
  const injectHeaders: [string, string][] = [];
  for (const [name, value] of Object.entries(inject as Record<string, JsonValue>)) {
    if (!HEADER_NAME.test(name)) fail(`inject_headers: invalid header name '${name}'`);
    if (typeof value !== "string") fail(`inject_headers.${name} must be a string`);
    injectHeaders.push([name, value as string]);
  }
  for (const h of forward as string[]) {
    if (!HEADER_NAME.test(h)) fail(`forward_headers: invalid header name '${h}'`);
  }
  const origin = t.origin_resource;
  if (origin !== undefined && (typeof origin !== "string" || origin === "")) {
    fail("'origin_resource' must be a resource type");
  }
  let matchOn: Condition | undefined;
  if (t.match_on !== undefined) {
    if (origin === undefined) fail("'match_on' needs 'origin_resource'");
    try {
      matchOn = compileConditions(t.match_on, `${where}.match_on`);
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    }
  }
  return {
    path: normalizeRoutePath(t.path as string),
    target: (t.target as string).trim(),
    forwardHeaders: (forward as string[]).map((h) => h.toLowerCase()),
    injectHeaders,
    originResource: origin as string | undefined,
    matchOn,
    responseFilter: t.response_filter === undefined
      ? undefined
      : parseFilter(t.response_filter, fail),
    index,
  };
}

function parseFilter(raw: JsonValue, fail: (reason: string) => never): ResponseFilter {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return fail('\'response_filter\' must be { "jp!" = … } or { "tera!" = … }');
  }
  const keys = Object.keys(raw);
  const value = (raw as Record<string, JsonValue>)[keys[0]];
  if (keys.length !== 1 || typeof value !== "string") {
    return fail("'response_filter' must have exactly one string key, 'jp!' or 'tera!'");
  }
  if (keys[0] === "jp!") return { kind: "jp", query: value };
  if (keys[0] === "tera!") return { kind: "tera", template: value };
  return fail(`'response_filter' key '${keys[0]}' is not 'jp!' or 'tera!'`);
}
