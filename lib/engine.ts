/**
 * GraphEngine: owns the current snapshot, runs builds one at a time, coalesces rebuild requests
 * and publishes a new snapshot atomically only when a build succeeds. A failed build leaves the
 * last good snapshot in service and is reported through {@link GraphEngine.status} and the build
 * log.
 *
 * @module
 */
import { Graph, type JsonValue } from "./graph/graph.ts";
import type { Workspace } from "./workspace/workspace.ts";
import {
  type LayerSource,
  loadSourceSet,
  refreshSourceSet,
  type SourceSet,
} from "./workspace/sources.ts";
import { emptyManifest, type ModuleManifest } from "./workspace/manifest.ts";
import type { Artifact, TemplateRenderer } from "./pipeline/context.ts";
import type { AssetTableInfo, BuildOutcome, BuildStats, RulePhases } from "./pipeline/build.ts";
import type { Provenance } from "./pipeline/provenance.ts";
import { IncrementalBuilder } from "./pipeline/incremental/builder.ts";
import { ReaderAwareTurns } from "./pipeline/reader_turns.ts";
import { type BuildIssue, formatIssue } from "./pipeline/issues.ts";
import { describeError } from "./pipeline/errors.ts";

/** An immutable, published build result. */
export interface Snapshot {
  /** Build number that produced this snapshot (0 = the empty initial snapshot). */
  readonly generation: number;
  /** The sealed graph. */
  readonly graph: Graph;
  /** Issues of the build (errors only when it was published as degraded: rule errors). */
  readonly issues: readonly BuildIssue[];
  /** Output artifacts. */
  readonly artifacts: readonly Artifact[];
  /** Merged module manifest. */
  readonly manifest: ModuleManifest;
  /** Parameter values used. */
  readonly params: Readonly<Record<string, JsonValue>>;
  /** Counts and timings. */
  readonly stats: BuildStats;
  /** Asset files of the build (types, headers, declarations). */
  readonly assets: readonly AssetTableInfo[];
  /** Which files created or changed each resource (absent in the empty initial snapshot). */
  readonly provenance?: Provenance;
  /** When the build finished (ISO 8601). */
  readonly builtAt: string;
}

/** State of the most recent build attempt. */
export interface BuildStatus {
  /** Build number of the attempt. */
  generation: number;
  /** Outcome: `degraded` builds (rule errors only, O12) are published like `ok` ones. */
  status: BuildOutcome;
  /** ISO 8601 start time. */
  startedAt: string;
  /** ISO 8601 end time. */
  finishedAt: string;
  /** Summary of the errors, when degraded or failed. */
  error: string | null;
  /** Number of errors of the attempt. */
  errorCount: number;
  /** Every issue of the attempt (errors included). */
  issues: readonly BuildIssue[];
}

/** Events of the build log, in order. */
export type BuildEvent =
  | { kind: "start"; generation: number }
  | { kind: "line"; generation: number; level: string; text: string }
  | { kind: "end"; generation: number; ok: boolean; message: string };

/** Writes a line to the log of the running build. */
export type BuildLog = (level: "debug" | "info" | "warn" | "error", text: string) => void;

/** Options of {@link GraphEngine.requestRebuild}. */
export interface RebuildRequest {
  /**
   * Runs at the start of the build, before the workspace is read (e.g. a Git sync of the data
   * directory). If it throws, that build fails with its message and the last graph stays live.
   */
  before?: (log: BuildLog) => Promise<void>;
  /**
   * Data-directory paths the requester changed — written, created or removed (e.g.
   * `assets/host.csv` after a write). When every request a build serves names its paths, the
   * build reads only those paths again (every other file is taken as the last build read it, so
   * a change left unnamed is not seen until a request names it or cannot say what changed) and
   * may be incremental (`pipeline/incremental/`: the files' contents still decide what is
   * rebuilt); a request without them means an unknown change: everything is read, and the build
   * is a full one.
   */
  changed?: readonly string[];
  /**
   * The texts some `changed` paths now hold, exactly as the requester wrote them (atomically,
   * under its own serialization of writes to the file): the build takes them instead of reading
   * the files again. Give a text only when no later write to the path can have requested its
   * build before this request.
   */
  written?: ReadonlyMap<string, string>;
}

/** Options of {@link GraphEngine}. */
export interface GraphEngineOptions {
  /** The authoritative data directory. */
  workspace: Workspace;
  /** Modules, in load order. */
  modules?: LayerSource[];
  /** Parameter values (CLI `--module-params`). */
  params?: Record<string, JsonValue>;
  /** Model phase pass cap (default 8). */
  maxLoop?: number;
  /** Drop orphaned asset resources before outputs. */
  removeOrphanedAssets?: boolean;
  /** Creates the template renderer of a build. */
  createTemplates: (params: Readonly<Record<string, JsonValue>>) => TemplateRenderer;
  /** Rule phases (models, compliance, outputs). */
  phases?: RulePhases;
  /**
   * Runs at the start of EVERY build, after the `before` hooks and before the workspace is read
   * (generators, GN4). If it throws, that build fails and the last graph stays live. It answers
   * the data-directory paths it wrote (read again by this build), or nothing when it cannot say
   * (the build then reads every file again).
   */
  prepare?: (log: BuildLog) => Promise<readonly string[] | void>;
  /**
   * Build incrementally where that provably gives the full build's result (default true;
   * `pipeline/incremental/`). False makes every build a full one.
   */
  incremental?: boolean;
  /**
   * A snapshot built elsewhere (`decodeSnapshot` of a `build --snapshot` file) to serve from the
   * start, without building: its generation is the current one and the next build is the one
   * after it. The workspace is only read when a rebuild is requested.
   */
  snapshot?: Snapshot;
  /**
   * The runtime's quick turn of the event loop (`ReaderAwareTurns`): while no request has
   * arrived for a moment, builds give it between their slices instead of most `setTimeout(0)`
   * turns, which wait ~2 ms each; a timer turn still comes every few slices to take in network
   * I/O. It must run due timers before it resolves; the Deno adapter's is `denoQuickTurn`
   * (`lib/runtime/deno/event_loop_turn.ts`). Without it every turn is a timer turn (any
   * runtime).
   */
  quickTurn?: () => Promise<void>;
}

/**
 * Outcome of waiting for a generation ({@link GraphEngine.awaitGeneration}):
 * - `ready`: a published snapshot at or past the generation;
 * - `failed`: the build that was to contain the generation failed (its status);
 * - `timeout`: the build did not finish in time;
 * - `unscheduled`: no build with that generation was ever requested (`latest` is the newest).
 */
export type GenerationWait =
  | { kind: "ready"; snapshot: Snapshot }
  | { kind: "failed"; status: BuildStatus }
  | { kind: "timeout" }
  | { kind: "unscheduled"; latest: number };

/** Lines of one build kept for clients that join the build stream late. */
const MAX_LOG_LINES = 10_000;

/** The `error` of a build status: how many errors, and the first. */
function errorSummary(errors: readonly BuildIssue[]): string {
  return `${errors.length} error(s); first: ${formatIssue(errors[0])}`;
}

function emptySnapshot(): Snapshot {
  const graph = new Graph();
  graph.seal();
  return {
    generation: 0,
    graph,
    issues: [],
    artifacts: [],
    manifest: emptyManifest(),
    params: {},
    assets: [],
    stats: { resources: 0, relations: 0, artifacts: 0, findings: 0, modelPasses: 0, timings: {} },
    builtAt: new Date(0).toISOString(),
  };
}

/**
 * The engine behind the server, the CLI and embedders.
 *
 * @example
 * ```ts ignore
 * import { GraphEngine, MemoryWorkspace, createTemplateRenderer } from "../mod.ts";
 * const engine = new GraphEngine({
 *   workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
 *   createTemplates: createTemplateRenderer,
 * });
 * const snapshot = await engine.rebuild();
 * console.log(snapshot.graph.resourceCount); // 1
 * ```
 */
export class GraphEngine {
  readonly #options: GraphEngineOptions;
  #current: Snapshot = emptySnapshot();
  #lastStatus: BuildStatus | undefined;
  #lastScheduled = 0;
  #running: Promise<void> | undefined;
  #queued = false;
  #listeners = new Set<(event: BuildEvent) => void>();
  #waiters: { generation: number; resolve: (s: BuildStatus) => void }[] = [];
  #beforeNextBuild: ((log: BuildLog) => Promise<void>)[] = [];
  #beforePublish = new Set<(snapshot: Snapshot) => Promise<void>>();
  #params: Record<string, JsonValue>;
  #currentLog: string[] = [];
  #lastFinal: string | undefined;
  readonly #builder = new IncrementalBuilder();
  readonly #turns: ReaderAwareTurns;
  /** Whether a request served by the next build did not say what it changed. */
  #unknownChange = false;
  /** Whether a requested build has not read the workspace yet (it will see today's files). */
  #readPending = false;
  /**
   * The sources the newest build that has read its sources read (the base the next one reads
   * only the changes into; its data-directory files are what {@link GraphEngine.accountsFor}
   * compares with).
   */
  #lastSources: SourceSet | undefined;
  /** Data-directory paths requests named since the newest build read its sources. */
  #pendingPaths = new Set<string>();
  /** Texts requests gave for some of {@link GraphEngine.#pendingPaths}. */
  #pendingWritten = new Map<string, string>();
  /** Whether a request since then could not say what it changed: read every file again. */
  #readAll = true;

  /** Creates an engine; nothing is built until a rebuild is requested. @param options workspace, modules, parameters and pipeline hooks */
  constructor(options: GraphEngineOptions) {
    this.#options = options;
    this.#turns = new ReaderAwareTurns(options.quickTurn);
    this.#params = { ...(options.params ?? {}) };
    const loaded = options.snapshot;
    if (loaded) {
      this.#current = loaded;
      this.#lastScheduled = loaded.generation;
      const errors = loaded.issues.filter((i) => i.severity === "error");
      this.#lastStatus = {
        generation: loaded.generation,
        status: errors.length > 0 ? "degraded" : "ok",
        startedAt: loaded.builtAt,
        finishedAt: loaded.builtAt,
        error: errors.length > 0 ? errorSummary(errors) : null,
        errorCount: errors.length,
        issues: loaded.issues,
      };
    }
  }

  /** The last successfully built snapshot (generation 0 before the first success). */
  get current(): Snapshot {
    return this.#current;
  }

  /** The most recent build attempt, if any. */
  get status(): BuildStatus | undefined {
    return this.#lastStatus;
  }

  /** True while a build runs or is queued. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /**
   * Resolves once no build runs or is queued: the engine's background work is done. Hosts that
   * run work only while a request is open (edge runtimes) hand this to their `waitUntil`, so a
   * write's rebuild completes after its answer was sent; `createApp` does this itself when
   * `fetch` is given an execution context.
   *
   * @example
   * ```ts
   * import { GraphEngine } from "./engine.ts";
   * import { MemoryWorkspace } from "./workspace/memory.ts";
   * import { createTemplateRenderer } from "./pipeline/templates.ts";
   * const engine = new GraphEngine({
   *   workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
   *   createTemplates: createTemplateRenderer,
   * });
   * engine.requestRebuild();
   * await engine.settled();
   * console.log(engine.busy, engine.current.generation); // false 1
   * ```
   */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /**
   * Records that a request arrived: for a moment, builds give the event loop full turns between
   * their slices, so readers are answered at once (see `GraphEngineOptions.quickTurn`). The app
   * calls it for every request.
   */
  noteRequest(): void {
    this.#turns.noteRequest();
  }

  /**
   * The turn builds give the event loop between two slices; work done before a publish
   * (`beforePublish`) runs its own slices with it too.
   *
   * @example
   * ```ts
   * import { GraphEngine } from "./engine.ts";
   * import { MemoryWorkspace } from "./workspace/memory.ts";
   * import { createTemplateRenderer } from "./pipeline/templates.ts";
   * import { runStepsSliced } from "./pipeline/slicing.ts";
   * const engine = new GraphEngine({
   *   workspace: new MemoryWorkspace({}),
   *   createTemplates: createTemplateRenderer,
   * });
   * function* work() {
   *   yield;
   *   return 2;
   * }
   * console.log(await runStepsSliced(work(), { turn: engine.turn, sliceMs: 0 })); // 2
   * ```
   */
  get turn(): () => Promise<void> {
    return this.#turns.turn;
  }

  /** The workspace the engine builds from. */
  get workspace(): Workspace {
    return this.#options.workspace;
  }

  /** The module layers the engine builds from, in load order (apps are served from them). */
  get modules(): readonly LayerSource[] {
    return this.#options.modules ?? [];
  }

  /** Parameter values given by the caller (not the resolved values; see Snapshot.params). */
  get params(): Readonly<Record<string, JsonValue>> {
    return this.#params;
  }

  /** Replaces caller parameter values; call {@link GraphEngine.requestRebuild} afterwards. */
  setParams(params: Record<string, JsonValue>): void {
    this.#params = { ...params };
  }

  /** A template renderer as builds create it (writes render `name_template` keys with it). */
  createTemplates(params: Readonly<Record<string, JsonValue>>): TemplateRenderer {
    return this.#options.createTemplates(params);
  }

  /**
   * Runs `prepare` on the snapshot of every successful build before it is published, while
   * readers are still answered from the previous one (e.g. the GraphQL API making its schema
   * model in time slices, so the first query after a publish does not pay for it). A failing
   * `prepare` is logged as a warning; the snapshot is published anyway. Returns the unsubscribe
   * function.
   *
   * @example
   * ```ts
   * import { GraphEngine } from "./engine.ts";
   * import { MemoryWorkspace } from "./workspace/memory.ts";
   * import { createTemplateRenderer } from "./pipeline/templates.ts";
   * const engine = new GraphEngine({
   *   workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
   *   createTemplates: createTemplateRenderer,
   * });
   * engine.beforePublish(async (snapshot) => console.log("publishing", snapshot.generation));
   * await engine.rebuild(); // publishing 1
   * ```
   */
  beforePublish(prepare: (snapshot: Snapshot) => Promise<void>): () => void {
    this.#beforePublish.add(prepare);
    return () => this.#beforePublish.delete(prepare);
  }

  /** Subscribes to build log events; returns the unsubscribe function. */
  subscribe(listener: (event: BuildEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The build log for late joiners: the lines of the running (or last) build and the final line
   * (`BUILD_COMPLETE` / `BUILD_FAILED: …`) of the last finished build.
   */
  get buildLog(): { lines: readonly string[]; final: string | undefined } {
    return { lines: this.#currentLog, final: this.#lastFinal };
  }

  #emit(event: BuildEvent): void {
    if (event.kind === "start") this.#currentLog = [];
    else if (event.kind === "line") {
      if (this.#currentLog.length < MAX_LOG_LINES) this.#currentLog.push(event.text);
    } else this.#lastFinal = event.message;
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch { /* a broken listener must not break the build */ }
    }
  }

  /**
   * Schedules a rebuild; requests made while a build runs coalesce into one follow-up build.
   * Returns the generation that will include everything written before the call.
   */
  requestRebuild(request: RebuildRequest = {}): number {
    if (request.before) this.#beforeNextBuild.push(request.before);
    this.#readPending = true;
    if (!request.changed) this.#unknownChange = true;
    // A `before` hook (e.g. a Git sync) may change any file.
    if (!request.changed || request.before) this.#readAll = true;
    for (const path of request.changed ?? []) {
      this.#pendingPaths.add(path);
      const text = request.written?.get(path);
      if (text === undefined) this.#pendingWritten.delete(path);
      else this.#pendingWritten.set(path, text);
    }
    if (this.#running) {
      if (!this.#queued) {
        this.#queued = true;
        this.#lastScheduled++;
      }
      return this.#lastScheduled;
    }
    this.#lastScheduled++;
    const generation = this.#lastScheduled;
    this.#running = this.#loop(generation);
    return generation;
  }

  async #loop(first: number): Promise<void> {
    let generation = first;
    for (;;) {
      await this.#buildOnce(generation);
      if (!this.#queued) break;
      this.#queued = false;
      generation = this.#lastScheduled;
    }
    this.#running = undefined;
  }

  /**
   * Whether the builds already requested account for the current content of `paths`
   * (data-directory relative): a requested build has not read the workspace yet, or the newest
   * build that has read it read exactly what each path holds now. A file watcher uses this to
   * leave out the echo of a change that was already built, such as the server's own writes (each
   * of which requests its own build); any doubt (a path the build did not read, a file that
   * cannot be read) answers false.
   *
   * @example
   * ```ts
   * import { GraphEngine } from "./engine.ts";
   * import { MemoryWorkspace } from "./workspace/memory.ts";
   * import { createTemplateRenderer } from "./pipeline/templates.ts";
   * const workspace = new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" });
   * const engine = new GraphEngine({ workspace, createTemplates: createTemplateRenderer });
   * await engine.rebuild();
   * console.log(await engine.accountsFor(["assets/host.csv"])); // true
   * await workspace.writeTextAtomic("assets/host.csv", "name\nweb-2\n");
   * console.log(await engine.accountsFor(["assets/host.csv"])); // false
   * ```
   */
  async accountsFor(paths: readonly string[]): Promise<boolean> {
    if (this.#readPending) return true;
    const files = this.#lastSources?.data.files;
    if (!files) return false;
    for (const path of paths) {
      const known = files.get(path);
      if (known === undefined) return false;
      let text: string | undefined;
      try {
        text = await this.#options.workspace.readText(path);
      } catch {
        return false;
      }
      if (text !== known) return false;
    }
    return true;
  }

  /** Resolves with the status of build `generation` (or a later one) once it has finished. */
  waitFor(generation: number): Promise<BuildStatus> {
    if (this.#lastStatus && this.#lastStatus.generation >= generation) {
      return Promise.resolve(this.#lastStatus);
    }
    return new Promise((resolve) => this.#waiters.push({ generation, resolve }));
  }

  /** Generation of the newest build requested so far (0 before the first request). */
  get latestGeneration(): number {
    return this.#lastScheduled;
  }

  /**
   * Waits until a snapshot of generation `generation` or later is published (read-your-writes).
   * Answers at once when it already is; `failed` when the build for that generation failed;
   * `timeout` after `timeoutMs`; `unscheduled` for a generation nobody requested.
   *
   * @example
   * ```ts ignore
   * const wait = await engine.awaitGeneration(engine.requestRebuild(), 10_000);
   * if (wait.kind === "ready") console.log(wait.snapshot.generation);
   * ```
   */
  async awaitGeneration(generation: number, timeoutMs: number): Promise<GenerationWait> {
    if (this.#current.generation >= generation) return { kind: "ready", snapshot: this.#current };
    if (generation > this.#lastScheduled) {
      return { kind: "unscheduled", latest: this.#lastScheduled };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      const status = await Promise.race([this.waitFor(generation), timeout]);
      if (this.#current.generation >= generation) {
        return { kind: "ready", snapshot: this.#current };
      }
      return status ? { kind: "failed", status } : { kind: "timeout" };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Requests a rebuild and waits for it; returns the current snapshot afterwards. */
  async rebuild(): Promise<Snapshot> {
    await this.waitFor(this.requestRebuild());
    return this.#current;
  }

  /**
   * The sources of a build: when every request since the last read named what it changed, only
   * those files are read again (or taken as their writers gave them) and the rest is the last
   * read's (`refreshSourceSet`); otherwise everything is read, modules included.
   */
  async #readSources(): Promise<SourceSet> {
    const paths = this.#pendingPaths;
    const written = this.#pendingWritten;
    const readAll = this.#readAll || this.#options.incremental === false;
    const last = this.#lastSources;
    this.#pendingPaths = new Set();
    this.#pendingWritten = new Map();
    this.#readAll = false;
    try {
      const sources = (!readAll && last &&
        await refreshSourceSet(last, this.#options.workspace, { paths, written })) ||
        await loadSourceSet(this.#options.workspace, this.#options.modules ?? []);
      this.#lastSources = sources;
      return sources;
    } catch (e) {
      // The next build cannot build on a read that failed half-way: it reads everything.
      this.#readAll = true;
      throw e;
    }
  }

  async #buildOnce(generation: number): Promise<void> {
    const startedAt = new Date().toISOString();
    this.#emit({ kind: "start", generation });
    const before = this.#beforeNextBuild.splice(0);
    const unknown = this.#unknownChange;
    this.#unknownChange = false;
    const line = (level: "debug" | "info" | "warn" | "error", text: string) => {
      for (const part of text.split("\n")) {
        this.#emit({ kind: "line", generation, level, text: part });
      }
    };
    let status: BuildStatus;
    try {
      for (const hook of before) await hook(line);
      const prepare = this.#options.prepare;
      // (Always one await: the read starts after the requester got its generation.)
      const prepared = prepare ? await prepare(line) : await Promise.resolve([]);
      if (!prepared) this.#readAll = true;
      for (const path of prepared ?? []) {
        this.#pendingPaths.add(path);
        this.#pendingWritten.delete(path);
      }
      const moduleCount = this.#options.modules?.length ?? 0;
      line(
        "info",
        `build ${generation}: loading the data directory` +
          (moduleCount > 0 ? ` and ${moduleCount} module(s)` : ""),
      );
      this.#readPending = false;
      const sources = await this.#readSources();
      // Sliced: readers keep being answered from the current snapshot while this builds.
      // Incremental where provably equal to a full build; the published graph is never mutated.
      const build = await this.#builder.buildSliced(sources, {
        params: this.#params,
        maxLoop: this.#options.maxLoop,
        removeOrphanedAssets: this.#options.removeOrphanedAssets,
        createTemplates: this.#options.createTemplates,
        phases: this.#options.phases,
        log: line,
        turn: this.#turns.turn,
      }, { unknown: unknown || this.#options.incremental === false });
      const result = build.result;
      line("debug", `build ${generation}: ${build.mode} build (${build.reason})`);
      const finishedAt = new Date().toISOString();
      const errors = result.issues.filter((i) => i.severity === "error");
      const published = result.outcome !== "failed";
      if (published) {
        const snapshot: Snapshot = {
          generation,
          graph: result.graph,
          issues: result.issues,
          artifacts: result.artifacts,
          manifest: result.manifest,
          params: result.params,
          stats: result.stats,
          assets: result.assets,
          provenance: result.provenance,
          builtAt: finishedAt,
        };
        for (const prepare of this.#beforePublish) {
          try {
            await prepare(snapshot);
          } catch (e) {
            line("warn", `build ${generation}: preparing the snapshot failed: ${describeError(e)}`);
          }
        }
        this.#current = snapshot;
      }
      status = {
        generation,
        status: result.outcome,
        startedAt,
        finishedAt,
        error: result.ok ? null : errorSummary(errors),
        errorCount: errors.length,
        issues: result.issues,
      };
      line(
        "info",
        `build ${generation}: ${result.stats.resources} resources, ${result.stats.relations} relations, ${result.stats.artifacts} artifacts, ${result.issues.length} issue(s)`,
      );
      if (result.outcome === "degraded") {
        line(
          "warn",
          `build ${generation} published as degraded: ${errors.length} rule error(s) skipped ` +
            `their rule's effect for one origin each`,
        );
      } else if (!published && this.#current.generation > 0) {
        line(
          "warn",
          `build ${generation} failed; still serving the graph of build ${this.#current.generation}`,
        );
      }
    } catch (e) {
      status = {
        generation,
        status: "failed",
        startedAt,
        finishedAt: new Date().toISOString(),
        error: describeError(e),
        errorCount: 1,
        issues: [],
      };
      line("error", `build ${generation} failed: ${status.error}`);
    }
    // A build that failed before reading the workspace read nothing: only a queued one will.
    if (!this.#queued) this.#readPending = false;
    this.#lastStatus = status;
    const ok = status.status !== "failed";
    this.#emit({
      kind: "end",
      generation,
      ok,
      message: ok ? "BUILD_COMPLETE" : `BUILD_FAILED: ${status.error}`,
    });
    const ready = this.#waiters.filter((w) => w.generation <= generation);
    this.#waiters = this.#waiters.filter((w) => w.generation > generation);
    for (const w of ready) w.resolve(status);
  }
}
