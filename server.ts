/**
 * The HTTP server: `Deno.serve(createApp(engine).fetch)` plus the runtime concerns that do not
 * belong in the core — static GraphiQL files from node_modules, a file watcher that triggers
 * rebuilds, and graceful shutdown on SIGINT/SIGTERM.
 *
 * @module
 */
import { createApp } from "./lib/api/app.ts";
import type { LiveOptions } from "./lib/api/live.ts";
import type { GraphEngine } from "./lib/engine.ts";
import { VERSION } from "./lib/version.ts";

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
}

const NODE_MODULES = new URL("./node_modules/", import.meta.url);

/** Reads a file below node_modules (GraphiQL's UMD bundles); `undefined` when missing. */
export async function readNodeModulesFile(
  path: string,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (path.split("/").some((s) => s === ".." || s === "")) return undefined;
  try {
    return await Deno.readFile(new URL(path, NODE_MODULES));
  } catch {
    return undefined;
  }
}

/** Enabled features (reference R60): exactly what this server does. */
function features(edition: "ce" | "ee", live: LiveOptions): string[] {
  const out: string[] = [];
  if (live.writes !== false) out.push("admin_assets");
  if (edition === "ee") out.push("syslog");
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
  const app = createApp(engine, {
    edition: options.edition,
    version: VERSION,
    features: features(options.edition, options.live ?? {}),
    readStaticAsset: readNodeModulesFile,
    ...options.live,
  });
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort());
  const stop = () => controller.abort();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  const server = Deno.serve({
    port: options.port,
    hostname: options.hostname,
    signal: controller.signal,
    onListen: (addr) => {
      options.log(
        "info",
        `listening on http://${addr.hostname}:${addr.port}/ (GraphiQL at /graphiql)`,
      );
      options.onListen?.(addr);
    },
  }, app.fetch);
  engine.requestRebuild();
  const watcher = options.watchDir
    ? watchForChanges(engine, options.watchDir, options.log)
    : undefined;
  await server.finished;
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
  (async () => {
    try {
      for await (const event of watcher) {
        // Our own atomic writes create `.name.uuid.tmp` files first; the rename is what counts.
        if (
          event.paths.every((p) =>
            p.endsWith(".tmp") || p.includes("/.graphsvc/") || p.includes("/.git/")
          )
        ) continue;
        clearTimeout(timer);
        timer = setTimeout(() => engine.requestRebuild(), 200);
      }
    } catch { /* watcher closed */ }
  })();
  return watcher;
}

if (import.meta.main) {
  const { main } = await import("./cli.ts");
  Deno.exit(await main(["--data-dir", Deno.args[0] ?? "./data", "serve"]));
}
