/**
 * The HTTP server: `Deno.serve(createApp(engine).fetch)` plus the runtime concerns that do not
 * belong in the core — a file watcher that triggers rebuilds, connection limits and graceful
 * shutdown on SIGINT/SIGTERM. GraphiQL's and Swagger UI's files are embedded in lib/api/assets/.
 *
 * @module
 */
import { createApp } from "./lib/api/app.ts";
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
 * Connection-level protections of {@link serve}. Deno.serve (2.9) has no header, idle or
 * per-client limits, so the public socket is a small TCP front (`Deno.listen`) that forwards
 * every connection to the HTTP server on a private Unix socket and enforces them there.
 */
export interface ConnectionLimits {
  /** A connection must complete a request's header block within this many ms (slowloris). */
  headerTimeoutMs: number;
  /** A connection with no bytes in either direction for this many ms is closed. */
  idleTimeoutMs: number;
  /** A request body must arrive within this many ms (enforced by the app: 408). */
  bodyTimeoutMs: number;
  /** Most open connections per client IP address; more are answered 503 and closed. */
  maxConnectionsPerClient: number;
  /**
   * On SIGINT/SIGTERM (or `signal`), in-flight requests get this many ms to finish before their
   * connections are closed (a second signal closes them at once).
   */
  shutdownGraceMs: number;
}

/** Defaults of {@link ConnectionLimits}. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
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
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const bound = listener.addr as Deno.NetAddr;
  // Actions re-expand after every build; the local runner's key lives in the data directory
  // (AC23), also when `--data-dir` is relative (the default).
  const actions = attachActionService(engine, {
    runner: denoActionRunner({ dataDir: runnerKeyDir(engine.workspace.location, Deno.cwd()) }),
    secrets: options.actionSecrets,
    log: options.log,
  }).service;
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
    allowedHosts: options.allowedHosts?.length
      ? options.allowedHosts
      : defaultAllowedHosts(options.hostname, bound.port),
    bodyTimeoutMs: limits.bodyTimeoutMs,
    log: options.log,
  });
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort());
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  // The HTTP server listens on a private Unix socket; the public TCP socket is the front of
  // serveConnections, which adds the time-outs and the per-client cap Deno.serve lacks.
  const socketDir = await Deno.makeTempDir({ prefix: "graphsvc-http-" });
  const server = Deno.serve({
    path: `${socketDir}/http.sock`,
    onListen: () => {},
  }, options.wrapFetch ? options.wrapFetch(async (r) => await app.fetch(r)) : app.fetch);
  const front = serveConnections(listener, `${socketDir}/http.sock`, limits, options.log);
  // Graceful shutdown: no new connections, in-flight requests finish (Deno's `shutdown`; its
  // abort signal would drop their answers), bounded by the grace period; a second signal and the
  // end of the grace period close what is left, and serve returns without waiting further.
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let forced = () => {};
  const cut = new Promise<void>((resolve) => forced = resolve);
  let shuttingDown = false;
  const shutdownServer = () => {
    if (shuttingDown) return;
    shuttingDown = true;
    server.shutdown().catch(() => {});
  };
  const closeNow = () => {
    clearTimeout(graceTimer);
    front.closeAll();
    shutdownServer();
    forced();
  };
  const stop = () => controller.signal.aborted ? closeNow() : controller.abort();
  for (const s of signals) Deno.addSignalListener(s, stop);
  controller.signal.addEventListener("abort", () => {
    const busy = front.stopAccepting();
    options.log(
      "info",
      `shutting down: no new connections; waiting up to ${limits.shutdownGraceMs} ms for ` +
        `${busy} open connection(s)`,
    );
    // A request the front accepted may not have reached the HTTP server yet, whose shutdown
    // would drop it: the server shuts down once every accepted request has its answer started.
    front.answered().then(shutdownServer);
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
  await Promise.race([Promise.all([server.finished, front.finished]), cut]);
  clearTimeout(graceTimer);
  await actions.stopAll(); // running actions and services end with the server (AC30, AC31)
  await Deno.remove(socketDir, { recursive: true }).catch(() => {});
  watcher?.close();
  for (const s of signals) Deno.removeSignalListener(s, stop);
  options.log("info", "server stopped");
}

const BUSY_BODY = JSON.stringify({
  type: "urn:graphsvc:problem:internal",
  title: "Service Unavailable",
  status: 503,
  detail: "too many connections from your address",
});
const BUSY_RESPONSE = new TextEncoder().encode(
  "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/problem+json\r\n" +
    `retry-after: 1\r\nconnection: close\r\ncontent-length: ${BUSY_BODY.length}\r\n\r\n` +
    BUSY_BODY,
);

/**
 * The TCP front of {@link serve}: accepts public connections, refuses those over the per-client
 * cap, and pipes the others to the HTTP server's Unix socket while enforcing the header and idle
 * time-outs. Header time-out: a request head (up to the blank line) must be complete within
 * `headerTimeoutMs` of the accept (first request) or of its first byte (later requests: a new
 * head is assumed to start when the client sends again after the server has answered).
 */
function serveConnections(
  listener: Deno.Listener,
  socketPath: string,
  limits: ConnectionLimits,
  log: (level: string, text: string) => void,
): {
  stopAccepting(): number;
  closeAll(): void;
  answered(): Promise<void>;
  finished: Promise<void>;
} {
  const perClient = new Map<string, number>();
  const open = new Set<() => void>();
  const handling = new Set<Promise<void>>();
  let closed = false;
  // Connections whose request (or first bytes) came and whose answer has not started yet.
  let unanswered = 0;
  let onAnswered: (() => void)[] = [];
  const answeredOne = () => {
    if (--unanswered > 0) return;
    for (const f of onAnswered) f();
    onAnswered = [];
  };
  const handle = async (conn: Deno.Conn) => {
    const client = (conn.remoteAddr as Deno.NetAddr).hostname;
    const count = perClient.get(client) ?? 0;
    if (count >= limits.maxConnectionsPerClient) {
      await refuse(conn);
      return;
    }
    perClient.set(client, count + 1);
    let upstream: Deno.UnixConn | undefined;
    let lastActivity = Date.now();
    let headStart: number | undefined = Date.now();
    let tail = ""; // last bytes of the current head, to find the blank line across chunks
    let answered = false;
    unanswered++;
    const shut = () => {
      for (const c of [conn, upstream]) {
        try {
          c?.close();
        } catch { /* closed */ }
      }
    };
    open.add(shut);
    const timer = setInterval(() => {
      const now = Date.now();
      if (headStart !== undefined && now - headStart > limits.headerTimeoutMs) shut();
      else if (now - lastActivity > limits.idleTimeoutMs) shut();
    }, Math.max(20, Math.min(1_000, limits.headerTimeoutMs / 4)));
    try {
      upstream = await Deno.connect({ transport: "unix", path: socketPath });
      const up = upstream;
      const toServer = (async () => {
        const buf = new Uint8Array(16 * 1024);
        for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
          lastActivity = Date.now();
          if (answered) { // the client speaks again after an answer: a new request head
            answered = false;
            unanswered++;
            headStart = lastActivity;
            tail = "";
          }
          if (headStart !== undefined) {
            const text = tail + latin1(buf.subarray(0, n));
            if (text.includes("\r\n\r\n")) headStart = undefined;
            else tail = text.slice(-3);
          }
          await writeAll(up, buf.subarray(0, n));
        }
        await up.closeWrite().catch(() => {});
      })();
      const toClient = (async () => {
        const buf = new Uint8Array(64 * 1024);
        let closeAfter: number | undefined; // bytes left of a `connection: close` response
        for (let n = await up.read(buf); n !== null; n = await up.read(buf)) {
          lastActivity = Date.now();
          if (headStart === undefined && !answered) {
            answered = true;
            answeredOne();
            closeAfter = closingLength(buf.subarray(0, n));
          }
          await writeAll(conn, buf.subarray(0, n));
          if (closeAfter !== undefined && (closeAfter -= n) <= 0) break;
        }
      })();
      toServer.catch(() => shut());
      await toClient;
    } catch (e) {
      if (!closed) log("debug", `connection from ${client}: ${(e as Error).message}`);
    } finally {
      clearInterval(timer);
      shut();
      open.delete(shut);
      if (!answered) answeredOne();
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    }
  };
  const finished = (async () => {
    try {
      for await (const conn of listener) {
        if (closed) { // accepted while the listener was being closed: not served
          conn.close();
          continue;
        }
        const done = handle(conn);
        handling.add(done);
        const forget = () => handling.delete(done);
        done.then(forget, forget);
      }
    } catch { /* listener closed */ }
    // Open connections end when the HTTP server has answered them, or by closeAll.
    while (handling.size > 0) await Promise.allSettled([...handling]);
  })();
  return {
    stopAccepting() {
      closed = true;
      try {
        listener.close();
      } catch { /* closed */ }
      return open.size;
    },
    closeAll() {
      for (const shut of open) shut();
    },
    answered() {
      return unanswered === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => onAnswered.push(resolve));
    },
    finished,
  };
}

/**
 * Answers 503 and closes: after the request head (HTTP clients drop an answer that comes before
 * their request), then drains briefly so that closing does not reset the answer away. Bounded:
 * 2 s and 64 KiB in all.
 */
async function refuse(conn: Deno.Conn): Promise<void> {
  const timer = setTimeout(() => {
    try {
      conn.close();
    } catch { /* closed */ }
  }, 2_000);
  try {
    const buf = new Uint8Array(16 * 1024);
    let head = "";
    let read = 0;
    let answered = false;
    while (read < 65_536) {
      const n = await conn.read(buf);
      if (n === null) break;
      read += n;
      if (!answered) {
        head = (head + latin1(buf.subarray(0, n))).slice(-8192);
        if (head.includes("\r\n\r\n")) {
          answered = true;
          await conn.write(BUSY_RESPONSE);
          await conn.closeWrite();
        }
      }
    }
  } catch { /* reset or closed by the timer */ }
  clearTimeout(timer);
  try {
    conn.close();
  } catch { /* closed */ }
}

/**
 * Total length of a response that starts in `chunk` and asks to close the connection
 * (`connection: close` with a `content-length`), else `undefined`. Deno.serve keeps such a
 * connection open when the request body was not read (a 408), so the front closes it.
 */
function closingLength(chunk: Uint8Array): number | undefined {
  const head = latin1(chunk.subarray(0, Math.min(chunk.length, 8192)));
  const end = head.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const fields = head.slice(0, end + 2).toLowerCase();
  if (!/\r\nconnection: *close\r\n/.test(fields)) return undefined;
  const length = /\r\ncontent-length: *(\d+)\r\n/.exec(fields);
  return length ? end + 4 + Number(length[1]) : undefined;
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
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
