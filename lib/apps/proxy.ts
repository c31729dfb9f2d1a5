/**
 * Forwarding of proxy routes (reference AP11–AP18): request mapping, header rules, request-time
 * substitution, streaming both ways, time-outs, response filters and `action://` targets.
 *
 * @module
 */
import { search } from "@jmespath-community/jmespath";
import { problem } from "../api/problem.ts";
import type { AppSet, ConcreteRoute } from "./registry.ts";
import { type EnvReader, expandEnv, hasTemplate, scrubSecrets, templateEnv } from "./substitute.ts";

/** Finds the socket of a running service action (AC32); `undefined` when it is not running. */
export interface ActionSockets {
  /**
   * The Unix socket path of a running action, or `undefined`.
   * @param appId the app whose route names the action (its module, when none is given)
   * @param module the module of `action://<module>/<action>`, if given
   * @param action the action name
   */
  socketFor(appId: string, module: string | undefined, action: string): string | undefined;
}

/** Sends an HTTP request over a Unix socket (runtime adapter: lib/runtime/deno/unix_fetch.ts). */
export type UnixFetch = (socketPath: string, request: Request) => Promise<Response>;

/** Options of {@link forward}. */
export interface ProxyOptions {
  /** Reads the process environment (`${env.X}`, `env` in templates). */
  env: EnvReader;
  /** Upstream fetch (default: the global `fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** Milliseconds to wait for the upstream's response head (default 30 000, AP18). */
  timeoutMs?: number;
  /** Running service actions (absent: every `action://` target answers 503). */
  actions?: ActionSockets;
  /** HTTP over Unix sockets, for `action://` targets. */
  unixFetch?: UnixFetch;
  /** Warning sink (unset variables). */
  warn?: (text: string) => void;
}

/** Default upstream response time-out (AP18). */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/**
 * Removes hop-by-hop headers, including those named by `Connection` (AP15): the `Connection`
 * header of `from` (default: `headers` itself), so a copy that left out `Connection` still drops
 * the headers the original named.
 */
export function stripHopByHop(headers: Headers, from: Headers = headers): Headers {
  const named = (from.get("connection") ?? "").split(",").map((s) => s.trim().toLowerCase());
  for (const h of [...HOP_BY_HOP, ...named]) if (h) headers.delete(h);
  return headers;
}

/**
 * The best route for `path` (below the mount, percent-encoded): routes match on a segment
 * boundary; `routes` is sorted best first (longest path, then declaration order).
 *
 * @example
 * ```ts ignore
 * matchRoute(app.routes, "/api/inv/42"); // { route, rest: "/42" }
 * ```
 */
export function matchRoute(
  routes: readonly ConcreteRoute[],
  path: string,
): { route: ConcreteRoute; rest: string } | undefined {
  for (const route of routes) {
    const p = route.path === "/" ? "" : route.path;
    if (path === p || path.startsWith(p + "/")) return { route, rest: path.slice(p.length) };
  }
  return undefined;
}

function upstreamUrl(target: string, rest: string, query: string): URL {
  const url = new URL(target);
  url.pathname = url.pathname.replace(/\/+$/, "") + rest;
  if (query) url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  return url;
}

class TemplateFailure extends Error {}

/**
 * Forwards `request` along `route` (AP11–AP18). `rest` is the part of the path below the route.
 *
 * @example
 * ```ts ignore
 * const m = matchRoute(app.routes, "/api/x/1");
 * if (m) return forward(m.route, m.rest, request, set, app.source.id, { env: () => undefined });
 * ```
 */
export async function forward(
  route: ConcreteRoute,
  rest: string,
  request: Request,
  set: AppSet,
  appId: string,
  options: ProxyOptions,
): Promise<Response> {
  const incoming = new URL(request.url);
  const query = incoming.search.replace(/^\?/, "");
  const secrets = new Set<string>();
  const warn = options.warn ?? ((t: string) => console.warn(`WARN ${t}`));
  const label = `route '${route.path}' of app '${appId}'`;
  const env: EnvReader = (name) => {
    const v = options.env(name);
    if (v !== undefined) secrets.add(v);
    return v;
  };
  const unset = (name: string) =>
    warn(`${label}: environment variable ${name} is not set (expands to "")`);
  const spec = route.spec;
  const templates = [route.target, ...spec.injectHeaders.map(([, v]) => v)].filter(hasTemplate);
  const needsBody = templates.some((t) => /\bbody\b/.test(t));
  const method = request.method.toUpperCase();
  const hasBody = method !== "GET" && method !== "HEAD" && request.body !== null;
  let body: BodyInit | null = hasBody ? request.body : null;
  let bodyText = "";
  if (needsBody && hasBody) {
    bodyText = await request.text();
    body = bodyText;
  }

  // Target: `${env.X}`, then Tera; action:// goes to a Unix socket.
  let target = expandEnv(route.target, env, unset);
  let socket: string | undefined;
  if (target.startsWith("action://")) {
    const [first, second] = target.slice("action://".length).split(/[/?]/);
    const action = second ?? first;
    socket = options.actions?.socketFor(appId, second ? first : undefined, action);
    if (!socket || !options.unixFetch) {
      return problem(503, "service-unavailable", `action '${action}' is not running`);
    }
    target = "http://localhost";
  }
  const requestContext = (path: string) => {
    const params = new URLSearchParams(query);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => headers[k] = v);
    return {
      method,
      path,
      query,
      query_values: [...params.values()].join(""),
      signed_query_args: [...params.keys()].join(";"),
      body: bodyText,
      headers,
      timestamp: Math.floor(Date.now() / 1000),
    };
  };
  const render = (source: string, key: string, ctx: Record<string, unknown>) => {
    try {
      const envMap = templateEnv(source, env, unset);
      return set.templates.render(source, { env: envMap, params: set.params, ...ctx }, key);
    } catch (e) {
      throw new TemplateFailure(
        `${label}: ${key}: ${scrubSecrets((e as Error).message, secrets)}`,
      );
    }
  };
  let url: URL;
  try {
    if (hasTemplate(target)) {
      const draft = safeUrl(target.split(/\{[{%]/)[0]);
      const path = draft ? draft.pathname.replace(/\/+$/, "") + rest : rest;
      target = render(target, "target", { request: requestContext(path) });
    }
    url = upstreamUrl(target, rest, query);
  } catch (e) {
    const detail = e instanceof TemplateFailure ? e.message : `${label}: invalid target URL`;
    return problem(500, "internal", scrubSecrets(detail, secrets));
  }

  const headers = new Headers();
  for (const name of spec.forwardHeaders) {
    const v = request.headers.get(name);
    if (v !== null && name !== "host" && name !== "content-length") headers.set(name, v);
  }
  // The client's Connection header names its hop-by-hop headers, forwarded or not.
  stripHopByHop(headers, request.headers);
  try {
    const ctx = { request: requestContext(url.pathname) };
    for (const [name, raw] of spec.injectHeaders) {
      const v = expandEnv(raw, env, unset);
      headers.set(name, hasTemplate(v) ? render(v, `inject_headers.${name}`, ctx) : v);
    }
  } catch (e) {
    const detail = e instanceof TemplateFailure ? e.message : `${label}: invalid header value`;
    return problem(500, "internal", scrubSecrets(detail, secrets));
  }

  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  const timer = new AbortController();
  let timedOut = false;
  const handle = setTimeout(() => {
    timedOut = true;
    timer.abort();
  }, timeoutMs);
  const signal = AbortSignal.any([timer.signal, request.signal]);
  const where = socket ? `action socket of ${label}` : `${url.protocol}//${url.host}`;
  let upstream: Response;
  try {
    const outgoing = new Request(url, {
      method,
      headers,
      body,
      signal,
      redirect: "manual",
      // @ts-ignore: required by the fetch spec for stream bodies, absent from older typings
      duplex: "half",
    });
    upstream = socket
      ? await options.unixFetch!(socket, outgoing)
      : await (options.fetch ?? fetch)(outgoing);
  } catch (e) {
    if (timedOut) {
      return problem(504, "timeout", `${label}: no response from ${where} within ${timeoutMs} ms`);
    }
    const reason = e instanceof Error ? e.message : String(e);
    return problem(
      502,
      "bad-gateway",
      scrubSecrets(`${label}: upstream ${where} failed: ${reason}`, secrets),
    );
  } finally {
    clearTimeout(handle);
  }
  return await respond(upstream, route, set, env, unset, label, secrets);
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

async function respond(
  upstream: Response,
  route: ConcreteRoute,
  set: AppSet,
  env: EnvReader,
  unset: (name: string) => void,
  label: string,
  secrets: Set<string>,
): Promise<Response> {
  const headers = stripHopByHop(new Headers(upstream.headers));
  if (headers.has("content-encoding")) {
    // fetch has already decoded the body: its encoding and length no longer apply.
    headers.delete("content-encoding");
    headers.delete("content-length");
  }
  const filter = route.spec.responseFilter;
  const type = headers.get("content-type") ?? "";
  if (!filter || !/[/+]json\b/i.test(type) || upstream.body === null) {
    return new Response(upstream.body, { status: upstream.status, headers });
  }
  const text = await upstream.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return new Response(text, { status: upstream.status, headers }); // not JSON: unfiltered
  }
  let out: string;
  try {
    if (filter.kind === "jp") {
      out = JSON.stringify(search(data as never, filter.query) ?? null);
    } else {
      const rendered = set.templates.render(
        filter.template,
        { response: data, env: templateEnv(filter.template, env, unset), params: set.params },
        `${label}: response_filter`,
      );
      out = JSON.stringify(JSON.parse(rendered));
    }
  } catch (e) {
    const why = e instanceof SyntaxError ? "the tera! filter did not produce JSON" : String(
      (e as Error).message,
    );
    return problem(500, "internal", scrubSecrets(`${label}: response_filter: ${why}`, secrets));
  }
  headers.set("content-type", "application/json");
  headers.set("content-length", String(new TextEncoder().encode(out).length));
  return new Response(out, { status: upstream.status, headers });
}
