/**
 * HTTP routes of hosted apps: `/apps/<id>/…` (static files and proxy routes), `GET /api/apps`
 * (R62), and `/` (the data directory's app, else a page linking every app, AP2).
 *
 * @module
 */
import type { Context, Hono } from "hono";
import { problem } from "../api/problem.ts";
import { type AppSource, serveAppFile } from "./files.ts";
import { type ActionSockets, forward, matchRoute, type UnixFetch } from "./proxy.ts";
import { type AppHost, type AppMount, AppRegistry, type AppSet } from "./registry.ts";
import type { EnvReader } from "./substitute.ts";
import { rootPage } from "./root_page.ts";

/** Content-Security-Policy of app pages: their own scripts, styles, images; API on the origin. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

/** Options of {@link registerAppRoutes}. */
export interface AppRouteOptions {
  /** Reads the process environment for `proxy.toml` (default: nothing is set). */
  env?: EnvReader;
  /** Upstream fetch of proxy routes (default: the global `fetch`). */
  proxyFetch?: (request: Request) => Promise<Response>;
  /** Upstream response time-out in ms (default 30 000). */
  proxyTimeoutMs?: number;
  /** Running service actions, for `action://` routes. */
  actions?: ActionSockets;
  /** HTTP over Unix sockets (runtime adapter), for `action://` routes. */
  unixFetch?: UnixFetch;
  /** Warning sink (default: console). */
  warn?: (text: string) => void;
  /** The page at `/` when no app is mounted there (default: a page linking every app). */
  rootPage?: (apps: readonly { id: string; name: string }[]) => Response;
}

/**
 * Registers the app routes on `app` and returns the registry (register after the API routes).
 *
 * @example
 * ```ts ignore
 * registerAppRoutes(app, engine, { env: (n) => Deno.env.get(n) });
 * ```
 */
export function registerAppRoutes(
  app: Hono,
  host: AppHost,
  options: AppRouteOptions = {},
): AppRegistry {
  const env = options.env ?? (() => undefined);
  const registry = new AppRegistry(host, { env, warn: options.warn });
  // Request-time warnings (unset variables) are logged once each, not on every request.
  const warned = new Set<string>();
  const baseWarn = options.warn ?? ((t: string) => console.warn(`WARN ${t}`));
  const warnOnce = (text: string) => {
    if (warned.has(text)) return;
    if (warned.size < 1000) warned.add(text);
    baseWarn(text);
  };
  const proxy = {
    env,
    fetch: options.proxyFetch,
    timeoutMs: options.proxyTimeoutMs,
    actions: options.actions,
    unixFetch: options.unixFetch,
    warn: warnOnce,
  };
  const appHeaders = { "content-security-policy": APP_CSP, "x-frame-options": "SAMEORIGIN" };

  const serve = async (c: Context, set: AppSet, mount: AppMount, below: string) => {
    const m = matchRoute(mount.routes, below);
    if (m) return await forward(m.route, m.rest, c.req.raw, set, mount.source.id, proxy);
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD") {
      return problem(405, "method-not-allowed", `${method} is not allowed on ${c.req.path}`, {}, {
        allow: "GET, HEAD, OPTIONS",
      });
    }
    return (await serveAppFile(mount.source, below, c.req.raw, appHeaders)) ??
      problem(404, "not-found", `no file '${below}' in app '${mount.source.id}'`);
  };

  app.get("/api/apps", async () => {
    const set = await registry.current();
    return Response.json(set.apps.map((a) => ({
      id: a.source.id,
      name: a.source.name,
      path: `/apps/${a.source.id}/`,
      proxies: a.routes.map((r) => ({ path: r.path })),
    })));
  });
  app.get("/apps", async () => {
    const set = await registry.current();
    return html(rootPage(set.apps.map((a) => a.source)), appHeaders);
  });
  app.all("/apps/:id{[^/]+}", async (c) => {
    const id = c.req.param("id");
    if (!(await registry.current()).apps.some((a) => a.source.id === id)) {
      return problem(404, "not-found", `no app '${id}'`);
    }
    const url = new URL(c.req.url);
    return new Response(null, {
      status: 308,
      headers: { location: `${url.pathname}/${url.search}` },
    });
  });
  app.all("/apps/:id{[^/]+}/*", async (c) => {
    const set = await registry.current();
    const id = c.req.param("id");
    const mount = set.apps.find((a) => a.source.id === id);
    if (!mount) return problem(404, "not-found", `no app '${id}'`);
    const raw = new URL(c.req.url).pathname;
    const below = raw.slice(raw.indexOf("/", "/apps/".length));
    return await serve(c, set, mount, below);
  });
  app.get("/", async (c) => {
    const set = await registry.current();
    const root = set.apps.find((a) => a.source.isDataDir);
    if (root) {
      const res = await serve(c, set, root, "/");
      if (res.status !== 404) return res;
    }
    const apps = set.apps.map((a) => a.source);
    return options.rootPage ? options.rootPage(apps) : html(rootPage(apps), appHeaders);
  });
  // The data directory's app is also mounted at `/` (AP2): paths no other route answers.
  app.all("*", async (c) => {
    const set = await registry.current();
    const root = set.apps.find((a) => a.source.isDataDir);
    if (!root) return c.notFound();
    return await serve(c, set, root, new URL(c.req.url).pathname);
  });
  return registry;
}

function html(body: string, headers: Record<string, string>): Response {
  return new Response(body, {
    headers: {
      ...headers,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
    },
  });
}

export type { AppSource };
