/**
 * Command line of graphsvc: `graphsvc-ce` (community edition) and `graphsvc-ee` (service
 * edition). A thin adapter: argument parsing, files, exit codes; the work is done by `lib/`.
 *
 * ```sh
 * deno run -A cli.ts --data-dir ./data serve --port 7600
 * deno run -A cli.ts --data-dir ./data build --graph-json graph.json --output-dir out
 * ```
 *
 * @module
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { DenoFsWorkspace } from "./lib/workspace/deno_fs.ts";
import type { LayerSource } from "./lib/workspace/sources.ts";
import type { JsonValue } from "./lib/graph/graph.ts";
import { graphToRescileJson } from "./lib/graph/rescile_json.ts";
import { GraphEngine } from "./lib/engine.ts";
import { createTemplateRenderer } from "./lib/pipeline/templates.ts";
import { defaultPhases } from "./lib/pipeline/phases.ts";
import { formatIssue } from "./lib/pipeline/issues.ts";
import { ModuleParamsError, parseModuleParams } from "./lib/cli/module_params.ts";
import { artifactRelativePath } from "./lib/cli/artifact_paths.ts";
import { VERSION } from "./lib/version.ts";
import { DEFAULT_CONNECTION_LIMITS, serve } from "./server.ts";
import type { LiveOptions } from "./lib/api/live.ts";
import { gitSync } from "./lib/runtime/deno/git_sync.ts";
import {
  addFleetOptions,
  fleetConfig,
  prepareFleetDir,
  startFleet,
} from "./lib/cli/fleet_options.ts";
import { loadPersistedParams } from "./lib/writes/module_params.ts";
import { bootstrapDataDir } from "./lib/workspace/bootstrap.ts";
import { layersInOrder, loadSourceSet } from "./lib/workspace/sources.ts";
import { mergeManifests } from "./lib/workspace/manifest.ts";
import { ParseError } from "./lib/formats/errors.ts";
import { parameterErrors } from "./lib/pipeline/params.ts";
import { registerSchemaCommands } from "./lib/cli/schema_commands.ts";
import { denoSchemaIO } from "./lib/runtime/deno/schema_fetch.ts";
import {
  GeneratorAbortError,
  GeneratorConfigError,
  GeneratorScheduler,
  loadGenerators,
} from "./lib/generators/mod.ts";
import { denoGeneratorHost } from "./lib/runtime/deno/generators.ts";
import { denoQuickTurn } from "./lib/runtime/deno/event_loop_turn.ts";
import { chainSecretProviders, envSecretProvider } from "./lib/generators/secrets.ts";
import {
  VaultClient,
  vaultConfigFromEnv,
  vaultSecretProvider,
  vaultSecretSource,
} from "./lib/vault/client.ts";
import { VaultServer } from "./lib/vault/server.ts";
import { VaultStateError } from "./lib/vault/state.ts";
import { FileVaultStore } from "./lib/runtime/deno/vault_store.ts";
import { writeFileAtomic } from "./lib/runtime/deno/atomic_file.ts";
import { encodeSnapshot } from "./lib/snapshot/format.ts";
import { registerVaultCommands } from "./lib/cli/vault_commands.ts";
import {
  envOption,
  envVarName,
  falseLookingFlagVariable,
  optionOrigin,
  withoutEnv,
} from "./lib/cli/env_options.ts";
import { type LogSink, StartupLog } from "./lib/cli/startup_log.ts";
import {
  type ModContext,
  registerModCommands,
  resolveLayerSources,
} from "./lib/cli/mod_commands.ts";
import { ModuleResolutionError } from "./lib/workspace/dependencies.ts";
import { LogBuffer } from "./lib/runtime/deno/log_buffer.ts";
import { denoModuleFetcher, moduleCacheDir } from "./lib/runtime/deno/module_fetch.ts";

/** `ce` (community) or `ee` (service edition). */
export type Edition = "ce" | "ee";
const LEVELS = ["error", "warn", "info", "debug"] as const;
type Level = typeof LEVELS[number];

/** Exit codes (reference CL21). */
const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

const EDITIONS: readonly Edition[] = ["ce", "ee"];

/** `ce` or `ee`; anything else is a usage error naming where it came from (CL21). */
function parseEdition(value: string, from: string): Edition {
  if ((EDITIONS as readonly string[]).includes(value)) return value as Edition;
  throw new UsageError(`${from}: unknown edition '${value}' (expected ce or ee)`);
}

function editionFromEnv(): Edition | string {
  const value = Deno.env.get("GRAPHSVC_EDITION");
  return value === undefined || value === "" ? "ce" : value;
}

const LOG_FORMATS = ["text", "json"] as const;

let stderrLog: LogBuffer | undefined;

/**
 * Log lines on stderr. `json`: one `{"time","level","message"}` object per line (log shippers);
 * `text`: CE `TIMESTAMP LEVEL message`, EE RFC 5424-style syslog lines.
 */
function makeLogger(
  level: Level,
  edition: Edition,
  format = "text",
): (l: string, text: string) => void {
  const threshold = LEVELS.indexOf(level);
  // Gathered and written once per tick (a request log line costs no write of its own); warnings
  // and errors at once.
  const out = stderrLog ??= new LogBuffer(Deno.stderr);
  return (l, text) => {
    const now = l === "error" || l === "warn";
    const idx = LEVELS.indexOf(l as Level);
    if (idx > threshold) return;
    if (format === "json") {
      out.line(
        JSON.stringify({ time: new Date().toISOString(), level: l, message: text }),
        now,
      );
    } else if (edition === "ee") {
      // RFC 5424-style: <PRI>1 TIMESTAMP HOST APP - - - MSG (facility user = 1).
      const severity = { error: 3, warn: 4, info: 6, debug: 7 }[l as Level] ?? 6;
      out.line(`<${8 + severity}>1 ${new Date().toISOString()} - graphsvc-ee - - - ${text}`, now);
    } else {
      out.line(`${new Date().toISOString()} ${l.toUpperCase()} ${text}`, now);
    }
  };
}

/**
 * Where module resolution and the `mod` commands work (MP10–MP20). Every line — fetch progress
 * (clones and downloads at info, mirror updates at debug) and resolution warnings — goes to
 * `log`, the CLI's logger (CL20).
 */
function modContext(opts: GlobalOptions, log: LogSink): ModContext {
  const write = (fd: typeof Deno.stdout, text: string) => {
    const bytes = new TextEncoder().encode(text);
    for (let off = 0; off < bytes.length;) off += fd.writeSync(bytes.subarray(off));
  };
  return {
    dataDir: new DenoFsWorkspace(opts.dataDir),
    modules: opts.module,
    cwd: Deno.cwd(),
    openDir: async (path) => {
      try {
        return (await Deno.stat(path)).isDirectory ? new DenoFsWorkspace(path) : undefined;
      } catch {
        return undefined;
      }
    },
    fetcher: denoModuleFetcher({
      cacheDir: moduleCacheDir(Deno.env.toObject()),
      offline: opts.offline === true,
      log,
    }),
    stdout: (text) => write(Deno.stdout, text),
    log,
  };
}

/** `--module` sources and `[dependencies]`, resolved; failures are configuration errors (MP13). */
async function resolveModules(opts: GlobalOptions, log: LogSink): Promise<LayerSource[]> {
  try {
    return await resolveLayerSources(modContext(opts, log), (m) => log("warn", m));
  } catch (e) {
    if (e instanceof ModuleResolutionError || e instanceof ParseError) {
      throw new UsageError(e.message);
    }
    throw e;
  }
}

function readTextSync(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

interface GlobalOptions {
  protectWrites?: boolean;
  dataDir: string;
  module: string[];
  moduleParams: string[];
  offline?: boolean;
  removeOrphanedAssets?: boolean;
  logLevel: string;
  logFormat: string;
  maxLoop: number;
  generators: boolean;
  vault?: string;
}

/**
 * Names the origin of an option's value in messages: its `GRAPHSVC_*` variable when the value
 * came from the environment, else its flag (issue 18 item 5).
 */
type OriginOf = (key: string) => string;

/** A usage error unless `dir` is a directory, naming where the directory was given. */
async function requireDataDir(dir: string, origin: OriginOf): Promise<void> {
  try {
    if ((await Deno.stat(dir)).isDirectory) return;
  } catch { /* reported below */ }
  throw new UsageError(`${origin("dataDir")}: data directory '${dir}' does not exist`);
}

/** The generator scheduler of each engine made by {@link createEngine} (GN4–GN8). */
const schedulers = new WeakMap<GraphEngine, GeneratorScheduler>();

/**
 * The engine of a run. Lines logged while it is set up (module resolution and fetching, layout
 * and parameter warnings) go to `startup`, which prints them at once; builds replay them into
 * their log (the first all of them, later ones the warnings), so `/api/build/stream` has them
 * too (CL20).
 */
async function createEngine(
  opts: GlobalOptions,
  startup: StartupLog,
  origin: OriginOf,
): Promise<GraphEngine> {
  const log = startup.log;
  let params = commandLineParams(opts, origin);
  await requireDataDir(opts.dataDir, origin);
  warnDataDirLayout(opts.dataDir, opts.module.length > 0, origin("dataDir"), log);
  const workspace = new DenoFsWorkspace(opts.dataDir);
  const modules = await resolveModules(opts, log);
  // Values set through the API persist across restarts; command-line values win (R23).
  const persisted = await loadPersistedParams(workspace, (m) => log("warn", m));
  params = { ...persisted, ...params };
  await checkConfiguration(workspace, modules, params);
  // Generators run at the start of every build unless `--no-generators` (GN4).
  const scheduler = generatorScheduler(opts, workspace, modules, () => engine.params, log);
  const engine: GraphEngine = new GraphEngine({
    // Every build first bootstraps missing starter data (MP35), then runs generators (GN4). The
    // setup's lines come first (CL20).
    // It answers what it wrote, so a build after a write reads only the changed files again.
    prepare: async (log) => {
      startup.replay(log);
      const { lines, warnings } = await bootstrapDataDir(workspace, modules);
      const created: string[] = [];
      for (const l of lines) {
        if (l.action !== "created") continue;
        log("info", `bootstrap: created ${l.path}`);
        created.push(l.path);
      }
      for (const w of warnings) log("warn", `bootstrap: ${w}`);
      const generated = scheduler ? await scheduler.prepare(log) : [];
      return generated && [...created, ...generated];
    },
    workspace,
    modules,
    params,
    maxLoop: opts.maxLoop,
    removeOrphanedAssets: opts.removeOrphanedAssets ?? false,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    // Builds between requests do not wait ~2 ms for a timer after every 4 ms slice.
    quickTurn: denoQuickTurn,
  });
  if (scheduler) schedulers.set(engine, scheduler);
  return engine;
}

/** The `--module-params` values, later ones winning; a bad one is a usage error. */
function commandLineParams(opts: GlobalOptions, origin: OriginOf): Record<string, JsonValue> {
  let params: Record<string, JsonValue> = {};
  for (const value of opts.moduleParams) {
    try {
      params = {
        ...params,
        ...parseModuleParams(value, readTextSync, origin("moduleParams")),
      };
    } catch (e) {
      if (e instanceof ModuleParamsError) throw new UsageError(e.message);
      throw e;
    }
  }
  return params;
}

/**
 * The generators of builds and of `bootstrap` (GN4): none with `--no-generators`; with
 * `--offline` none fetches and the builds use the targets fetched last (a warning says so).
 */
function generatorScheduler(
  opts: GlobalOptions,
  workspace: DenoFsWorkspace,
  modules: LayerSource[],
  params: () => Readonly<Record<string, JsonValue>>,
  log: LogSink,
): GeneratorScheduler | undefined {
  if (opts.generators === false) return undefined;
  return new GeneratorScheduler({
    workspace,
    modules,
    host: denoGeneratorHost(opts.dataDir),
    env: Deno.env.toObject(),
    params,
    secrets: vaultSecrets(log),
    offline: opts.offline === true,
  });
}

/**
 * The generators' secrets (GN16): the vault first when `GRAPHSVC_VAULT_*` configure a client
 * (AC61), then `GRAPHSVC_SECRET_*` variables; `undefined` keeps the scheduler's default.
 */
function vaultSecrets(log: LogSink) {
  const env = Deno.env.toObject();
  const client = vaultClient();
  if (!client) return undefined;
  const vault = vaultSecretProvider(client, (m) => log("warn", m));
  return chainSecretProviders(vault, envSecretProvider(env));
}

let sharedVaultClient: VaultClient | undefined;

/** One vault client per process, configured by `GRAPHSVC_VAULT_*` (AC61); none without them. */
function vaultClient(): VaultClient | undefined {
  const config = vaultConfigFromEnv(Deno.env.toObject());
  if (!config) return undefined;
  return sharedVaultClient ??= new VaultClient(config);
}

function writeAll(fd: typeof Deno.stdout, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let off = 0; off < bytes.length;) off += fd.writeSync(bytes.subarray(off));
}

/**
 * The built-in vault server of `--vault <state.json>` (AC60); a bad state file is exit 2,
 * naming `--vault` or `GRAPHSVC_VAULT`, whichever set it.
 */
async function openVault(
  path: string | undefined,
  origin: OriginOf,
): Promise<VaultServer | undefined> {
  if (!path) return undefined;
  try {
    return await VaultServer.open(new FileVaultStore(path));
  } catch (e) {
    if (e instanceof VaultStateError) throw new UsageError(`${origin("vault")}: ${e.message}`);
    throw e;
  }
}

/**
 * A data directory keeps its CSVs under `assets/` (A1): warn when it has none (unless modules
 * bring the rules), or when it is itself an `assets/` folder or holds CSVs at its root.
 */
function warnDataDirLayout(
  dataDir: string,
  hasModules: boolean,
  origin: string,
  log: LogSink,
): void {
  const isDir = (p: string) => {
    try {
      return Deno.statSync(p).isDirectory;
    } catch {
      return false;
    }
  };
  if (isDir(`${dataDir}/assets`)) return;
  const base = dataDir.replace(/\/+$/, "").split("/").pop() ?? "";
  let csvAtRoot = false;
  try {
    for (const e of Deno.readDirSync(dataDir)) csvAtRoot ||= e.isFile && /\.csv$/i.test(e.name);
  } catch { /* unreadable: the build reports it */ }
  if (base === "assets" || csvAtRoot) {
    log(
      "warn",
      `data directory '${dataDir}' looks like an assets/ folder itself (CSV files at its ` +
        `root are not loaded); pass its parent directory as ${origin}`,
    );
  } else if (!hasModules) {
    log("warn", `data directory '${dataDir}' has no assets/ folder: no asset CSVs will be loaded`);
  }
}

/** Manifest and parameter errors are usage errors, reported before any phase runs (CL21). */
async function checkConfiguration(
  workspace: DenoFsWorkspace,
  modules: LayerSource[],
  params: Record<string, JsonValue>,
): Promise<void> {
  let manifest;
  try {
    manifest = mergeManifests(layersInOrder(await loadSourceSet(workspace, modules)));
  } catch (e) {
    if (e instanceof ParseError) throw new UsageError(e.message);
    throw e;
  }
  // Composition conflicts (param_conflict, module_conflict) are configuration errors too.
  const errors = [
    ...manifest.composition.filter((c) => c.severity === "error")
      .map((c) => `${c.file}: ${c.code}: ${c.message}`),
    ...parameterErrors(manifest, params),
  ];
  if (errors.length > 0) throw new UsageError(errors.join("\n"));
  try {
    await loadGenerators(workspace, modules, params);
  } catch (e) {
    if (e instanceof GeneratorConfigError) throw new UsageError(e.message);
    throw e;
  }
}

/** Write endpoints, token and Git sync of `serve`, from options and the environment (R40–R43). */
function liveOptions(opts: GlobalOptions, readOnly: boolean): LiveOptions {
  const apiToken = Deno.env.get("GRAPHSVC_API_TOKEN") || undefined;
  const syncUrl = Deno.env.get("GIT_SYNC_URL") || undefined;
  if (opts.protectWrites && !apiToken) {
    throw new UsageError("--protect-writes needs the GRAPHSVC_API_TOKEN environment variable");
  }
  return {
    writes: !readOnly,
    apiToken,
    protectWrites: opts.protectWrites ?? false,
    sync: syncUrl ? gitSync(opts.dataDir, syncUrl) : undefined,
  };
}

/** A reload webhook also reruns generators without `ttl`/`condition` (GN4). */
function withGeneratorReload(live: LiveOptions, engine: GraphEngine): LiveOptions {
  const scheduler = schedulers.get(engine);
  if (!scheduler) return live;
  const sync = live.sync;
  return {
    ...live,
    sync: async (log) => {
      scheduler.requestFullRun();
      await sync?.(log);
    },
  };
}

/** A port in use or an address that cannot be bound is a configuration error (CL21): exit 2. */
async function serveOrUsageError(
  port: number,
  host: string,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      throw new UsageError(
        `port ${port} is already in use on ${host} (choose another with --port)`,
      );
    }
    if (e instanceof Deno.errors.AddrNotAvailable) {
      throw new UsageError(`cannot bind ${host}:${port}: address not available (--host)`);
    }
    throw e;
  }
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

// Parsers throw InvalidArgumentError so that commander names the source of a bad value: the
// option and, for a value from the environment, its variable (CL21, exit 2).
function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(`Expected a positive integer.`);
  }
  return n;
}

// `serve` answers with the runtime's own HTTP server, which has no header or idle time-out; a flag
// that was accepted and ignored would promise a protection that is not there, so the two flags of
// the old TCP front are refused with where the setting lives now (its variable keeps configuring
// docs/deploy/haproxy.cfg, so the variable is not read here).
function removedProxyTimeout(flags: string, directive: string): Option {
  const flag = flags.split(" ")[0];
  const variable = envVarName(flag);
  return withoutEnv(
    new Option(flags).hideHelp().argParser((): never => {
      throw new InvalidArgumentError(
        `serve has no ${flag.slice(2)} of its own (the runtime's HTTP server has none); set ` +
          `\`${directive}\` in the reverse proxy in front of it (docs/deploy/haproxy.cfg reads ` +
          `${variable}).`,
      );
    }),
    "removed flag: its variable configures the reverse proxy (docs/deploy/haproxy.cfg)",
  );
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new InvalidArgumentError("Expected a port number from 0 to 65535.");
  }
  return n;
}

/**
 * The commander program of an edition, without running it: every command and option, each
 * option settable by its `GRAPHSVC_<FLAG>` variable (lib/cli/env_options.ts). The actions set
 * `exit.code`; {@link main} parses the arguments with it.
 *
 * @example
 * ```ts ignore
 * const program = buildProgram("ce", { code: 0 });
 * console.log(program.helpInformation());
 * ```
 */
export function buildProgram(edition: Edition, exit: { code: number }): Command {
  const program = new Command()
    .name(`graphsvc-${edition}`)
    .description("Build and serve a typed property graph from CSV assets and TOML rules.")
    .version(`graphsvc-${edition} ${VERSION}`, "-V, --version")
    // Read by main() before commander parses (the edition decides which commands exist); listed
    // here so that --help shows it and its variable.
    .addOption(
      envOption("--edition <edition>", "ce (community) or ee (service edition)")
        .default(edition as string),
    )
    .addOption(envOption("--data-dir <dir>", "authoritative data directory").default("./data"))
    .addOption(
      envOption("--module <source>", "add a module (directory, Git URL or archive); repeatable")
        .argParser(collect).default([] as string[]),
    )
    .addOption(
      envOption("--module-params <value>", "parameters: JSON object, @file or k=v,…; repeatable")
        .argParser(collect).default([] as string[]),
    )
    .addOption(
      envOption("--remove-orphaned-assets", "drop orphaned asset resources before outputs"),
    )
    .addOption(
      envOption(
        "--protect-writes",
        "require X-API-Token (GRAPHSVC_API_TOKEN) on every mutating endpoint",
      ),
    )
    .addOption(
      envOption("--log-level <level>", "log level").choices(LEVELS).default("info" as Level),
    )
    .addOption(
      envOption("--log-format <format>", "log lines: text, or json (one object per line)")
        .choices(LOG_FORMATS).default("text"),
    )
    .addOption(
      envOption("--max-loop <n>", "maximum model phase passes").argParser(positiveInt).default(8),
    )
    .addOption(envOption("--no-generators", "do not run [generator.*] tables before builds"))
    .addOption(envOption("--vault <state.json>", "serve the built-in vault at /vault (state file)"))
    .addOption(envOption("--offline", "use only local modules and the module cache (MP13)"))
    .exitOverride()
    .configureOutput({ writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)) })
    .showHelpAfterError();
  /** The logger of the global options: edition, `--log-level` and `--log-format` (CL20). */
  const logger = (opts: GlobalOptions) =>
    makeLogger(opts.logLevel as Level, edition, opts.logFormat);
  const origin: OriginOf = (key) => optionOrigin(program as unknown as Command, key);

  addFleetOptions(
    program
      .command("serve")
      .description("build the graph and serve GraphQL and REST (rebuilds on changes)"),
  )
    .addOption(envOption("--port <n>", "port").argParser(port).default(7600))
    .addOption(envOption("--host <addr>", "address to bind").default("127.0.0.1"))
    .addOption(
      envOption("--no-watch", "do not rebuild when files under the data directory change"),
    )
    .addOption(envOption("--read-only", "disable every write endpoint (no admin_assets feature)"))
    .addOption(
      envOption(
        "--mcp-write",
        "expose the MCP tool saveAsset (asset writes through the write path)",
      ),
    )
    .addOption(
      envOption(
        "--allowed-host <host>",
        "accepted Host header, name or name:port (repeatable; default: the loopback names with " +
          "the port when bound to loopback, any host when bound to 0.0.0.0)",
      ).argParser(collect).default([] as string[]),
    )
    .addOption(removedProxyTimeout("--header-timeout <ms>", "timeout http-request"))
    .addOption(
      envOption("--body-timeout <ms>", "ms a client may take to send a request body (then 408)")
        .argParser(positiveInt).default(DEFAULT_CONNECTION_LIMITS.bodyTimeoutMs),
    )
    .addOption(removedProxyTimeout("--idle-timeout <ms>", "timeout http-keep-alive"))
    .addOption(
      envOption(
        "--max-connections-per-client <n>",
        "requests in flight allowed per client address (more get 503)",
      ).argParser(positiveInt).default(DEFAULT_CONNECTION_LIMITS.maxConnectionsPerClient),
    )
    .addOption(
      envOption(
        "--shutdown-grace <ms>",
        "on SIGINT/SIGTERM, ms in-flight requests may take to finish (a second signal: at once)",
      ).argParser(positiveInt).default(DEFAULT_CONNECTION_LIMITS.shutdownGraceMs),
    )
    .action(async (cmd) => {
      const opts = program.opts() as GlobalOptions;
      const vault = await openVault(opts.vault, origin);
      const log = logger(opts);
      const startup = new StartupLog(log);
      const fleetConf = fleetConfig(cmd, (m) => new UsageError(m)); // issue 29
      await prepareFleetDir(fleetConf, opts.dataDir, log);
      const engine = await createEngine(opts, startup, origin);
      const fleet = await startFleet(fleetConf, engine, opts.dataDir, log);
      engine.subscribe((e) => {
        // Setup lines replayed into the first build were printed when they happened.
        if (e.kind === "line" && !startup.replaying) log(e.level, e.text);
      });
      await serveOrUsageError(cmd.port, cmd.host, () =>
        serve(engine, {
          port: cmd.port,
          hostname: cmd.host,
          edition,
          watchDir: cmd.watch ? opts.dataDir : undefined,
          log,
          live: withGeneratorReload(liveOptions(opts, cmd.readOnly === true), engine),
          allowedHosts: cmd.allowedHost,
          mcp: { write: cmd.mcpWrite === true },
          vault,
          wrapFetch: fleet?.wrapFetch,
          // Action bundles seal `[vault_secrets]` read from the vault (AC20).
          actionSecrets: (() => {
            const client = vaultClient();
            return client ? vaultSecretSource(client, (m) => log("warn", m)) : undefined;
          })(),
          limits: {
            bodyTimeoutMs: cmd.bodyTimeout,
            maxConnectionsPerClient: cmd.maxConnectionsPerClient,
            shutdownGraceMs: cmd.shutdownGrace,
          },
        }));
    });

  program
    .command("bootstrap")
    .description("copy missing starter data of modules into the data directory (never overwrites)")
    .action(async () => {
      const opts = program.opts() as GlobalOptions;
      const log = logger(opts);
      await requireDataDir(opts.dataDir, origin);
      const workspace = new DenoFsWorkspace(opts.dataDir);
      const modules = await resolveModules(opts, log);
      const result = await bootstrapDataDir(workspace, modules);
      for (const w of result.warnings) log("warn", `bootstrap: ${w}`);
      // Results go to stdout (CL20): one line per file, `created` or `kept` (MP35).
      for (const l of result.lines) console.log(`${l.action} ${l.path}`);
      // An explicit bootstrap runs the generators too (GN4); a failure with abort_on_failure
      // is exit 2 (GN7), others are warnings.
      const params = {
        ...await loadPersistedParams(workspace, (m) => log("warn", m)),
        ...commandLineParams(opts, origin),
      };
      const scheduler = generatorScheduler(opts, workspace, modules, () => params, log);
      if (!scheduler) return;
      scheduler.requestFullRun();
      try {
        await scheduler.run(log);
      } catch (e) {
        // Only the generators' configuration matters here (a missing parameter does not).
        if (
          e instanceof GeneratorAbortError || e instanceof GeneratorConfigError ||
          e instanceof ParseError
        ) {
          throw new UsageError(e.message);
        }
        throw e;
      }
    });

  program
    .command("build")
    .description("run the pipeline once and print a summary (exit 1 on build errors)")
    .addOption(
      envOption(
        "--graph-json <file>",
        "write the graph as JSON ('-': to stdout, summary to stderr)",
      ),
    )
    .addOption(
      envOption(
        "--graph-format <format>",
        "shape of --graph-json: graphsvc (nodes/edges) or rescile (the original's vertices/edges export)",
      ).choices(["graphsvc", "rescile"]).default("graphsvc"),
    )
    .addOption(
      envOption(
        "--output-dir <dir>",
        "write every downloadable artifact to <dir>/<type>/<name>/<filename>",
      ),
    )
    .addOption(
      envOption(
        "--snapshot <file>",
        "write the built graph, its artifacts and schema inputs as a snapshot file (docs/edge.md)",
      ),
    )
    .action(async (cmd) => {
      const opts = program.opts() as GlobalOptions;
      const log = logger(opts);
      const startup = new StartupLog(log);
      const engine = await createEngine(opts, startup, origin);
      engine.subscribe((e) => {
        // Setup lines replayed into the first build were printed when they happened.
        if (e.kind !== "line" || startup.replaying) return;
        // Generator and bootstrap warnings are no build issues: only lines (GN7, GN8, MP35).
        if (
          (e.level !== "error" && e.level !== "warn") || e.text.startsWith("generator") ||
          e.text.startsWith("bootstrap:")
        ) {
          log(e.level, e.text);
        }
      });
      const status = await engine.waitFor(engine.requestRebuild());
      // Info issues were already streamed as build lines above: log each line once.
      for (const issue of status.issues) {
        if (issue.severity !== "error" && issue.severity !== "warning") continue;
        log(issue.severity === "error" ? "error" : "warn", formatIssue(issue));
      }
      // `--graph-json -` keeps stdout valid JSON: the graph goes there, the summary to stderr.
      const toStdout = cmd.graphJson === "-";
      const print = toStdout ? console.error : console.log;
      const gen = schedulers.get(engine)?.lastSummary;
      const genLine = gen
        ? `\ngenerators: ${gen.run} run, ${gen.skipped} skipped, ${gen.failed} failed`
        : "";
      if (status.status === "failed") {
        print(`build failed: ${status.error}${genLine}`);
        // A generator with abort_on_failure stopped the build: exit 2 (GN7).
        exit.code = gen?.aborted ? EXIT_USAGE : EXIT_FAILED;
        return;
      }
      // A degraded build (rule errors only, O12) is written like a good one, and exits 1.
      if (status.status === "degraded") {
        print(`build degraded: ${status.error}`);
        exit.code = EXIT_FAILED;
      }
      const snap = engine.current;
      const graphJson = () =>
        JSON.stringify(
          cmd.graphFormat === "rescile"
            ? graphToRescileJson(snap.graph, {
              isGlobal: (r) => snap.provenance?.isGlobal(r.id) ?? false,
            })
            : snap.graph.toJSON(),
        );
      if (toStdout) {
        const bytes = new TextEncoder().encode(graphJson() + "\n");
        for (let off = 0; off < bytes.length;) off += Deno.stdout.writeSync(bytes.subarray(off));
      } else if (cmd.graphJson) {
        await writeFileAtomic(cmd.graphJson, graphJson());
      }
      if (cmd.snapshot) await writeFileAtomic(cmd.snapshot, await encodeSnapshot(snap));
      let written = 0;
      if (cmd.outputDir) {
        for (const a of snap.artifacts) {
          if (!a.filename || !a.mimetype) continue;
          const rel = artifactRelativePath(a.type, a.name, a.filename);
          if (!rel) {
            log(
              "warn",
              `artifact ${a.type}/${a.name}/${a.filename} has an unsafe path; not written`,
            );
            continue;
          }
          await writeFileAtomic(`${cmd.outputDir}/${rel}`, a.body);
          written++;
        }
      }
      const warnings = status.issues.filter((i) => i.severity === "warning").length;
      const s = snap.stats;
      print(
        `resources: ${s.resources}\nrelations: ${s.relations}\nfindings: ${s.findings}\nartifacts: ${s.artifacts}` +
          (cmd.outputDir ? ` (${written} written to ${cmd.outputDir})` : "") +
          `\nmodel passes: ${s.modelPasses}\nwarnings: ${warnings}` + genLine,
      );
    });
  registerModCommands(program, {
    exit,
    context: () => {
      const opts = program.opts() as GlobalOptions;
      return Promise.resolve(modContext(opts, logger(opts)));
    },
    usageError: (message) => new UsageError(message),
  });
  registerSchemaCommands(program, {
    edition,
    exit,
    engine: () => {
      const opts = program.opts() as GlobalOptions;
      return createEngine(opts, new StartupLog(logger(opts)), origin);
    },
    log: (level, text) => logger(program.opts() as GlobalOptions)(level, text),
    io: denoSchemaIO(),
  });
  registerVaultCommands(program, exit, {
    env: Deno.env.toObject(),
    readStdin: () => new Response(Deno.stdin.readable).text(),
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
  });
  const version = program.options.find((o) => o.long === "--version");
  if (version) withoutEnv(version, "an action (print the version and exit), not a setting");
  return program;
}

/** Runs the CLI with `args`; resolves to the process exit code. */
export async function main(
  args: string[],
  editionOrEnv: Edition | string = editionFromEnv(),
): Promise<number> {
  const exit = { code: EXIT_OK };
  // A leading `--` is what `deno task ce -- …` passes through: it separates the task from its
  // arguments, it does not end the options.
  let rest = args[0] === "--" ? args.slice(1) : args;
  let edition: Edition;
  try {
    // The flag wins over the environment; each is checked where it is used.
    const flag = rest.findIndex((a) => a === "--edition" || a.startsWith("--edition="));
    if (flag < 0) edition = parseEdition(editionOrEnv, "GRAPHSVC_EDITION");
    else {
      const inline = rest[flag].startsWith("--edition=");
      const value = inline ? rest[flag].slice("--edition=".length) : rest[flag + 1];
      if (value === undefined || value.startsWith("-")) {
        throw new UsageError("--edition needs a value (ce or ee)");
      }
      edition = parseEdition(value, "--edition");
      rest = [...rest.slice(0, flag), ...rest.slice(flag + (inline ? 1 : 2))];
    }
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    return EXIT_USAGE;
  }
  const program = buildProgram(edition, exit);
  try {
    const refused = falseLookingFlagVariable(program, Deno.env.toObject());
    if (refused) throw new UsageError(refused);
    await program.parseAsync(rest, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    // A fatal error is a log line too (CL20): JSON with --log-format json, RFC 5424 in EE.
    const format = (program.opts() as { logFormat?: string }).logFormat;
    const fatal = (message: string) =>
      format === "json" || edition === "ee"
        ? makeLogger("error", edition, format)("error", message)
        : console.error(`error: ${message}`);
    if (e instanceof UsageError) {
      fatal(e.message);
      return EXIT_USAGE;
    }
    fatal(e instanceof Error ? e.message : String(e));
    return EXIT_FAILED;
  }
  return exit.code;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
