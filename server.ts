/**
 * The HTTP server: `Deno.serve(createApp(engine).fetch)` plus the runtime concerns that do not
 * belong in the core — a file watcher that triggers rebuilds, connection limits and graceful
 * shutdown on SIGINT/SIGTERM. GraphiQL's and Swagger UI's files are embedded in lib/api/assets/.
 *
 * @module
 */
import { createApp } from "./lib/api/app.ts";
import { clientGuard } from "./lib/api/client_guard.ts";
import type { LiveOptions } from "./lib/api/live.ts";
import type { GraphEngine } from "./lib/engine.ts";
import { VERSION } from "./lib/version.ts";
import { uiAssets } from "./ui.ts";
import { createUnixFetch } from "./lib/runtime/deno/unix_fetch.ts";
import { denoSchemaFetcher } from "./lib/runtime/deno/schema_fetch.ts";
import type { McpOptions } from "./lib/mcp/http.ts";
import { attachActionService } from "./lib/actions/engine_link.ts";
import type { SecretSource } from "./lib/actions/ports.ts";
import { denoActionRunner } from "./lib/runtime/deno/action_runner.ts";
import { resolveFsPath } from "./lib/runtime/deno/fs_path.ts";
import type { VaultServer } from "./lib/vault/server.ts";

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Port to listen on (0 = any free port). */
  port: number;
  /** Address to bind. */
  hostname: string;
  /** `ce` or `ee`. */
  edition: "ce" | "ee";
  /** Data directory to watch for changes; no watching when absent. */
  watchDir?: string;
  /** Log sink. */
  log: (level: string, text: string) => void;
  /** Resolves once the server listens (with the bound port). */
  onListen?: (addr: { hostname: string; port: number }) => void;
  /** Aborting stops the server. */
  signal?: AbortSignal;
  /** Write endpoints, API token, reload sync (see {@link LiveOptions}). */
  live?: LiveOptions;
  /**
   * Accepted `Host` header values (see `SecurityOptions.allowedHosts`). Default: derived from
   * `hostname` by {@link defaultAllowedHosts}.
   */
  allowedHosts?: readonly string[];
  /** Connection time-outs and per-client cap (see {@link ConnectionLimits}). */
  limits?: Partial<ConnectionLimits>;
  /** The MCP endpoint's options (`write`: `--mcp-write`). */
  mcp?: McpOptions;
  /** The vault's secret lookup for action bundles (AC20); without it, runs needing secrets fail. */
  actionSecrets?: SecretSource;
  /** The built-in vault server mounted at `/vault` (`--vault`, AC60). */
  vault?: VaultServer;
  /** Wraps the app's fetch handler (a fleet member's commits and forwarding, issue 29). */
  wrapFetch?: (
    inner: (request: Request) => Promise<Response>,
  ) => (request: Request) => Promise<Response>;
}

/**
 * Protections of {@link serve}. Every byte is handled by the runtime's own server
 * (`Deno.serve`); the app enforces the body deadline and the per-client cap of requests in
 * flight. Deno.serve (2.9) has no header or idle time-outs and no cap on open connections, so
 * those belong to the reverse proxy in front of it: docs/deploy/haproxy.cfg (tested by
 * tests/http/haproxy_test.ts).
 */
export interface ConnectionLimits {
  /** A request body must arrive within this many ms (enforced by the app: 408). */
  bodyTimeoutMs: number;
  /**
   * Most requests in flight per client IP address; more are answered 503 (`Retry-After: 1`).
   * Caps on open connections are the reverse proxy's (`maxconn`, `sc_conn_cur`).
   */
  maxConnectionsPerClient: number;
  /**
   * On SIGINT/SIGTERM (or `signal`), in-flight requests get this many ms to finish before their
   * connections are closed (a second signal closes them at once).
   */
  shutdownGraceMs: number;
}

/** Defaults of {@link ConnectionLimits}. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  bodyTimeoutMs: 30_000,
  maxConnectionsPerClient: 64,
  shutdownGraceMs: 10_000,
};

/**
 * Host allow-list for a bind address: a loopback bind accepts `127.0.0.1`, `localhost` and
 * `[::1]` with the bound port; a wildcard bind (`0.0.0.0`, `::`) accepts any host (`undefined`);
 * another address accepts itself with the port.
 *
 * @example
 * ```ts
 * console.log(defaultAllowedHosts("127.0.0.1", 7600)); // ["127.0.0.1:7600", "localhost:7600", "[::1]:7600"]
 * ```
 */
export function defaultAllowedHosts(hostname: string, port: number): string[] | undefined {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "0.0.0.0" || h === "::" || h === "") return undefined;
  if (h === "127.0.0.1" || h === "localhost" || h === "::1") {
    return ["127.0.0.1", "localhost", "[::1]"].map((n) => `${n}:${port}`);
  }
  return [`${h.includes(":") ? `[${h}]` : h}:${port}`];
}

/**
 * The directory that holds the local runner's key (AC23: `<data-dir>/.graphsvc/runner.key`):
 * the data directory's `location` made absolute against `cwd` (a relative `--data-dir` is the
 * default), with `.` and `..` segments resolved; `undefined` when the workspace is not a local
 * directory (`memory:` or another `scheme:` location), where the key stays in memory.
 *
 * @example
 * ```ts
 * console.log(runnerKeyDir("./data", "/srv/app")); // "/srv/app/data"
 * console.log(runnerKeyDir("memory:", "/srv/app")); // undefined
 * ```
 */
export function runnerKeyDir(location: string, cwd: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]+:/i.test(location)) return undefined;
  return resolveFsPath(cwd, location);
}

/** One environment variable for `proxy.toml` (undefined when unset or not permitted). */
function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Enabled features (reference R60): exactly what this server does. */
function features(edition: "ce" | "ee", live: LiveOptions): string[] {
  const out: string[] = [];
  if (live.writes !== false) out.push("admin_assets");
  if (edition === "ee") out.push("syslog");
  if (edition === "ce") out.push("generate_schema");
  return out;
}

/**
 * Serves the engine until SIGINT/SIGTERM (or `signal`), building in the background.
 *
 * @example
 * ```ts ignore
 * await serve(engine, { port: 7600, hostname: "127.0.0.1", edition: "ce", log: console.log });
 * ```
 */
export async function serve(engine: GraphEngine, options: ServeOptions): Promise<void> {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  // Actions re-expand after every build; the local runner's key lives in the data directory
  // (AC23), also when `--data-dir` is relative (the default).
  const actions = attachActionService(engine, {
    runner: denoActionRunner({ dataDir: runnerKeyDir(engine.workspace.location, Deno.cwd()) }),
    secrets: options.actionSecrets,
    log: options.log,
  }).service;
  // The port is known once the server listens (port 0 picks one); the allow-list follows it.
  let hosts: readonly string[] | undefined = options.allowedHosts?.length
    ? options.allowedHosts
    : undefined;
  const app = createApp(engine, {
    ui: uiAssets,
    actions,
    edition: options.edition,
    version: VERSION,
    features: features(options.edition, options.live ?? {}),
    apps: { env: readEnv, unixFetch: createUnixFetch().fetch },
    schemaFetcher: denoSchemaFetcher({ cacheMs: 60_000 }),
    mcp: options.mcp,
    vault: options.vault,
    ...options.live,
    allowedHosts: () => hosts,
    bodyTimeoutMs: limits.bodyTimeoutMs,
    log: options.log,
  });
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort());
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  // Every byte goes through the runtime's own HTTP server; what it lacks (header and idle
  // time-outs, connection caps) is the reverse proxy's job (docs/deploy/haproxy.cfg).
  const handler = options.wrapFetch
    ? options.wrapFetch(async (r) => await app.fetch(r))
    : (r: Request) => app.fetch(r);
  const guard = clientGuard(limits.maxConnectionsPerClient);
  const server = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    onListen: () => {},
  }, (request, info) => guard(request, info, handler));
  const bound = server.addr;
  if (!options.allowedHosts?.length) hosts = defaultAllowedHosts(options.hostname, bound.port);
  // Graceful shutdown: no new connections, in-flight requests finish (Deno's `shutdown`; its
  // abort signal would drop their answers), bounded by the grace period; a second signal and the
  // end of the grace period make serve return without waiting further (the CLI then exits, which
  // closes what is left; Deno.serve cannot be aborted once it is shutting down).
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let forced = () => {};
  const cut = new Promise<void>((resolve) => forced = resolve);
  const closeNow = () => {
    clearTimeout(graceTimer);
    forced();
  };
  const stop = () => controller.signal.aborted ? closeNow() : controller.abort();
  for (const s of signals) Deno.addSignalListener(s, stop);
  controller.signal.addEventListener("abort", () => {
    options.log(
      "info",
      `shutting down: no new connections; waiting up to ${limits.shutdownGraceMs} ms for ` +
        `${guard.inFlight()} request(s) in flight`,
    );
    server.shutdown().catch(() => {});
    graceTimer = setTimeout(closeNow, limits.shutdownGraceMs);
  });
  options.log(
    "info",
    `listening on http://${bound.hostname}:${bound.port}/ (GraphiQL at /graphiql)`,
  );
  options.onListen?.({ hostname: bound.hostname, port: bound.port });
  engine.requestRebuild();
  const watcher = options.watchDir
    ? watchForChanges(engine, options.watchDir, options.log)
    : undefined;
  await Promise.race([server.finished, cut]);
  clearTimeout(graceTimer);
  await actions.stopAll(); // running actions and services end with the server (AC30, AC31)
  watcher?.close();
  for (const s of signals) Deno.removeSignalListener(s, stop);
  options.log("info", "server stopped");
}

function watchForChanges(
  engine: GraphEngine,
  dir: string,
  log: (level: string, text: string) => void,
): Deno.FsWatcher | undefined {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(dir, { recursive: true });
  } catch (e) {
    log("warn", `cannot watch ${dir}: ${e instanceof Error ? e.message : e}`);
    return undefined;
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  // The paths changed since the last request, relative to the data directory, so the engine can
  // rebuild incrementally; `undefined` once a path could not be related (a full build then).
  let changed: Set<string> | undefined = new Set();
  let root: string;
  try {
    root = Deno.realPathSync(dir).replace(/\/+$/, "") + "/";
  } catch {
    root = "";
  }
  (async () => {
    try {
      for await (const event of watcher) {
        // Our own atomic writes create `.name.uuid.tmp` files first; the rename is what counts.
        const paths = event.paths.filter((p) =>
          !(p.endsWith(".tmp") || p.includes("/.graphsvc/") || p.includes("/.git/"))
        );
        if (paths.length === 0) continue;
        for (const p of paths) {
          if (changed && root !== "" && p.startsWith(root)) changed.add(p.slice(root.length));
          else changed = undefined;
        }
        clearTimeout(timer);
        timer = setTimeout(async () => {
          const paths = changed ? [...changed].sort() : undefined;
          changed = new Set();
          // The echo of a change already built (the server's own writes request their build
          // themselves) is left out: one write, one generation.
          if (paths && await engine.accountsFor(paths)) {
            log("debug", `file watcher: ${paths.join(", ")} already built; no rebuild`);
            return;
          }
          engine.requestRebuild(paths ? { changed: paths } : {});
        }, 200);
      }
    } catch { /* watcher closed */ }
  })();
  return watcher;
}
