/**
 * The action service (reference AC4–AC6, AC10–AC13, AC15–AC23, AC30–AC32): holds the concrete
 * actions of the newest build (re-expanded by {@link ActionService.refresh} after every
 * successful build), builds bundles with sealed secrets, queues runs, and keeps `auto_execute`
 * services running (restarting them with back-off, and when their bundle changes).
 *
 * @module
 */
import type { Graph, JsonValue } from "../graph/graph.ts";
import type { Artifact, TemplateRenderer } from "../pipeline/context.ts";
import { ActionBundleError, type ActionConfigError, ActionNotFoundError } from "./errors.ts";
import { type ConcreteAction, renderAction } from "./expand.ts";
import { expandLayers } from "./expand_layers.ts";
import { type InputSummary, inputSummary, validateInputs } from "./inputs.ts";
import { mountedArtifact } from "./mounts.ts";
import { type BundleManifest, createBundle, type SealedSecret } from "./bundle.ts";
import { seal, toBase64 } from "./seal.ts";
import type { ActionRunner, RunLocation, RunRecord, SecretSource } from "./ports.ts";
import { DEFAULT_JOB_TIMEOUT_MS, type RunEvent, RunQueue } from "./runs.ts";
import { ServiceSupervisor } from "./supervisor.ts";

/** One layer's action files and module files. */
export interface ActionLayer {
  /** `data` or the module id. */
  id: string;
  /** Module version, when declared. */
  version?: string;
  /** `actions/*.toml` files: layer-relative path, display path, text. */
  files: readonly { path: string; displayPath: string; text: string }[];
  /** Reads a layer-relative file (`[[file]] source`). */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** The `runtimes/` directory, by `runtimes/`-relative path. */
  runtimeFiles(): Promise<{ path: string; bytes: Uint8Array }[]>;
}

/** The build an expansion belongs to. */
export interface ActionBuild {
  /** Generation of the build. */
  generation: number;
  /** The published graph. */
  graph: Graph;
  /** Parameter values. */
  params: Readonly<Record<string, JsonValue>>;
  /** Output artifacts (`[[mount]]`). */
  artifacts: readonly Artifact[];
  /** The template renderer. */
  templates: TemplateRenderer;
}

/** An action as `GET /api/actions` lists it (AC10). */
export interface ActionSummary {
  /** Module id. */
  module: string;
  /** Concrete name. */
  name: string;
  /** Template name. */
  template: string;
  /** Description (`""` when none). */
  description: string;
  /** Origin resource or `null`. */
  origin: { type: string; name: string } | null;
  /** Declared inputs (AC2): `default` and `allowed_values` only when declared. */
  inputs: InputSummary[];
  /** `job` or `service`. */
  run_mode: "job" | "service";
  /** Bundle flavour. */
  runtime: string;
}

/** Options of {@link ActionService}. */
export interface ActionServiceOptions {
  /** Executes bundles; without one runs fail with `no_runner`. */
  runner?: ActionRunner;
  /** The vault; without one secrets stay placeholders and runs fail (AC22). */
  secrets?: SecretSource;
  /** Clock (bundle `created_at`, run times). */
  clock?: () => Date;
  /** Service log lines (never secrets). */
  log?: (level: "info" | "warn" | "error", text: string) => void;
  /** Job time-out (default 30 min, AC30). */
  jobTimeoutMs?: number;
  /** Service restart back-off (default 1 s → 60 s, AC31). */
  backoff?: { initialMs: number; maxMs: number };
}

/** A built bundle. */
export interface BuiltBundle {
  /** `tar.gz` bytes. */
  bytes: Uint8Array;
  /** Its manifest. */
  manifest: BundleManifest;
  /** Secret plaintexts sealed into it (to mask output; never shown). */
  secrets: string[];
}

/**
 * The action service.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * import { ActionService } from "./service.ts";
 * const s = new ActionService({});
 * const g = new Graph();
 * await s.refresh([{ id: "data", files: [{ path: "actions/a.toml", displayPath: "actions/a.toml", text: 'name = "a"\nexec = [["true"]]\n' }],
 *   readFile: () => Promise.resolve(undefined), runtimeFiles: () => Promise.resolve([]) }],
 *   { generation: 1, graph: g, params: {}, artifacts: [], templates: createTemplateRenderer() });
 * console.log(s.list()[0].name); // "a"
 * ```
 */
export class ActionService {
  readonly #options: ActionServiceOptions;
  readonly #queue: RunQueue;
  readonly #supervisor: ServiceSupervisor;
  #actions: ConcreteAction[] = [];
  #layers = new Map<string, ActionLayer>();
  #build: ActionBuild | undefined;
  #errors: ActionConfigError[] = [];
  readonly #sockets = new Map<string, RunLocation>();
  #stopped = false;

  /** Creates the service. @param options runner, vault, clock, log, time-outs */
  constructor(options: ActionServiceOptions = {}) {
    this.#options = options;
    this.#queue = new RunQueue({ runner: options.runner, clock: options.clock, log: options.log });
    this.#supervisor = new ServiceSupervisor({
      backoff: options.backoff ?? { initialMs: 1000, maxMs: 60_000 },
      start: (a) => this.#startService(a),
      settled: (id) => this.#queue.settled(id).then(() => {}),
      stopRuns: (a) => this.#queue.stop({ module: a.module, action: a.name }),
      log: options.log,
    });
  }

  /**
   * Resolves once a refresh that is under way has ended (set by `attachActionService`, so that
   * reads after a build see its actions).
   */
  whenRefreshed: () => Promise<void> = () => Promise.resolve();

  /**
   * Errors of the last refresh, located (`file:line:col` when known): files that do not parse,
   * fail to expand or repeat a concrete name. Those files are left out.
   */
  get errors(): readonly ActionConfigError[] {
    return this.#errors;
  }

  /**
   * Re-reads action files and expands them against `build` (AC5); then starts, restarts or
   * stops `auto_execute` services (AC31). A file that does not parse or expand (a template
   * error in `match_on`), or that produces a concrete name an earlier file of its module
   * produced, is left out and reported in {@link errors}; the other files still expand.
   */
  async refresh(layers: readonly ActionLayer[], build: ActionBuild): Promise<void> {
    if (this.#stopped) return;
    const { actions, errors, warnings } = expandLayers(layers, build);
    for (const e of errors) this.#options.log?.("error", `actions: ${e.message}`);
    for (const w of warnings) this.#options.log?.("warn", `actions: ${w.message}`);
    this.#errors = errors;
    this.#actions = actions;
    this.#layers = new Map(layers.map((l) => [l.id, l]));
    this.#build = build;
    const wanted = [];
    for (const a of actions) {
      if (a.template.runMode !== "service" || !a.template.autoExecute) continue;
      try {
        wanted.push({ action: a, hash: await this.#hash(a) });
      } catch (e) {
        this.#options.log?.("error", `service ${a.module}/${a.name}: ${(e as Error).message}`);
      }
    }
    await this.#supervisor.reconcile(wanted);
  }

  /** Concrete actions (AC10). */
  list(): ActionSummary[] {
    return this.#actions.map((a) => ({
      module: a.module,
      name: a.name,
      template: a.template.name,
      description: a.template.description ?? "",
      origin: a.origin ?? null,
      inputs: a.template.inputs.map(inputSummary),
      run_mode: a.template.runMode,
      runtime: a.template.runtime,
    }));
  }

  /** The concrete action; throws {@link ActionNotFoundError} (AC11 `404`). */
  #find(module: string, name: string): ConcreteAction {
    if (!this.#actions.some((a) => a.module === module) && !this.#layers.has(module)) {
      throw new ActionNotFoundError(`no module '${module}' with actions`);
    }
    const a = this.#actions.find((x) => x.module === module && x.name === name);
    if (!a) throw new ActionNotFoundError(`no action '${name}' in module '${module}'`);
    return a;
  }

  /**
   * Builds the bundle of an action for `body` inputs (AC12, AC15), sealed to `runnerKey` or
   * the local runner's key (AC23). Throws `ActionNotFoundError`, `ActionInputError`,
   * `ActionBundleError`.
   */
  async bundle(
    module: string,
    name: string,
    body: unknown,
    runnerKey?: Uint8Array,
  ): Promise<BuiltBundle> {
    const action = this.#find(module, name);
    const inputs = validateInputs(action.template.inputs, body);
    const key = runnerKey ?? await this.#options.runner?.publicKey();
    return await this.#makeBundle(action, inputs, this.#now(), key);
  }

  /** Validates inputs, builds the bundle and queues a run (AC11); returns its record. */
  async trigger(module: string, name: string, body: unknown): Promise<RunRecord> {
    const action = this.#find(module, name);
    const inputs = validateInputs(action.template.inputs, body);
    const built = await this.#makeBundle(
      action,
      inputs,
      this.#now(),
      await this.#options.runner?.publicKey(),
    );
    return this.#enqueue(action, built);
  }

  /** Run records, newest first (AC13). */
  runs(): RunRecord[] {
    return this.#queue.list();
  }

  /** One run record, or `undefined`. */
  run(id: string): RunRecord | undefined {
    return this.#queue.get(id);
  }

  /** Resolves with the record once the run has ended. */
  settled(id: string): Promise<RunRecord | undefined> {
    return this.#queue.settled(id);
  }

  /** Follows a run's output (see {@link RunQueue.watch}); `undefined` for an unknown run. */
  watch(id: string, listener: (event: RunEvent) => void): (() => void) | undefined {
    return this.#queue.watch(id, listener);
  }

  /** Cancels a queued run (AC13); `ActionNotFoundError` or `RunStateError` otherwise. */
  cancel(id: string): RunRecord {
    return this.#queue.cancel(id);
  }

  /**
   * The socket of a running service action (AC32, `action://`): `module` defaults to the app's
   * module; when that has no such action, a unique running action of that name anywhere.
   */
  socketFor(appId: string, module: string | undefined, action: string): string | undefined {
    const direct = this.#sockets.get(`${module ?? appId}\u0000${action}`)?.socketPath;
    if (direct !== undefined || module !== undefined) return direct;
    const hits = [...this.#sockets].filter(([k]) => k.endsWith(`\u0000${action}`));
    return hits.length === 1 ? hits[0][1].socketPath : undefined;
  }

  /** Stops every service and running job, cancels queued runs (SIGINT/SIGTERM). */
  async stopAll(): Promise<void> {
    this.#stopped = true;
    await this.#supervisor.stopAll();
    await this.#queue.stop();
  }

  #now(): string {
    const d = this.#options.clock?.() ?? new Date();
    return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
  }

  #enqueue(action: ConcreteAction, built: BuiltBundle): RunRecord {
    const key = `${action.module}\u0000${action.name}`;
    const service = action.template.runMode === "service";
    const record = this.#queue.enqueue(action.module, action.name, {
      bundle: built.bytes,
      secrets: built.secrets,
      timeoutMs: service ? undefined : this.#options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS,
      onStarted: (location) => this.#sockets.set(key, location),
    });
    this.#queue.settled(record.id).then(() => {
      if (!this.#queue.isRunning(action.module, action.name)) this.#sockets.delete(key);
    });
    return record;
  }

  async #startService(action: ConcreteAction): Promise<string> {
    const inputs = validateInputs(action.template.inputs, {});
    const built = await this.#makeBundle(
      action,
      inputs,
      this.#now(),
      await this.#options.runner?.publicKey(),
    );
    return this.#enqueue(action, built).id;
  }

  async #hash(action: ConcreteAction): Promise<string> {
    const inputs = validateInputs(action.template.inputs, {});
    const built = await this.#makeBundle(action, inputs, "1970-01-01T00:00:00Z", undefined);
    // Without a key nothing is sealed: the hash covers everything but the secrets' values.
    const digest = await crypto.subtle.digest("SHA-256", built.bytes as Uint8Array<ArrayBuffer>);
    return toBase64(new Uint8Array(digest));
  }

  async #makeBundle(
    action: ConcreteAction,
    inputs: Record<string, JsonValue>,
    createdAt: string,
    runnerKey: Uint8Array | undefined,
  ): Promise<BuiltBundle> {
    const build = this.#build;
    const layer = this.#layers.get(action.module);
    if (!build || !layer) throw new ActionNotFoundError(`no module '${action.module}'`);
    const t = action.template;
    let rendered;
    try {
      rendered = renderAction(action, inputs, build);
    } catch (e) {
      throw new ActionBundleError(e instanceof Error ? e.message : String(e));
    }
    const extraFiles: { path: string; bytes: Uint8Array }[] = [];
    for (const f of t.files) {
      if (f.source === undefined) continue;
      const bytes = await layer.readFile(f.source);
      if (!bytes) throw new ActionBundleError(`${t.file}: file source '${f.source}' not found`);
      extraFiles.push({ path: f.path, bytes });
    }
    t.mounts.forEach((m, i) => {
      const hit = mountedArtifact({ file: t.file, origin: action.origin }, m, i, build.artifacts);
      extraFiles.push({ path: m.mountPath, bytes: new TextEncoder().encode(hit.body) });
    });
    const sealed: SealedSecret[] = [];
    const plaintexts: string[] = [];
    if (runnerKey && this.#options.secrets) {
      for (const [name, ref] of t.vaultSecrets) {
        let value: string | undefined;
        try {
          value = await this.#options.secrets.read(ref.collection, ref.secret);
        } catch {
          value = undefined; // AC22: an unreadable secret is a missing one
        }
        if (value === undefined) continue;
        plaintexts.push(value);
        sealed.push({ name, sealed: toBase64(seal(new TextEncoder().encode(value), runnerKey)) });
      }
    }
    const { bytes, manifest } = createBundle({
      action,
      inputs,
      rendered,
      extraFiles,
      runtimeFiles: await layer.runtimeFiles(),
      moduleVersion: layer.version,
      createdAt,
      runnerKey: runnerKey ? toBase64(runnerKey) : undefined,
      sealed,
    });
    return { bytes, manifest, secrets: plaintexts };
  }
}
