/**
 * Running the generators of a workspace at the start of a build (reference GN4–GN8): which ones
 * are due, sequential execution, atomic target writes, failure handling and progress lines with
 * secrets masked.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { LayerSource } from "../workspace/sources.ts";
import { describeError } from "../pipeline/errors.ts";
import { VERSION } from "../version.ts";
import type { GeneratorDeclaration } from "./declarations.ts";
import { GeneratorAbortError, GeneratorRunError } from "./errors.ts";
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from "./http.ts";
import { runHttpGenerator } from "./http_runner.ts";
import { DEFAULT_EXEC_TIMEOUT_MS, runExecGenerator } from "./exec_runner.ts";
import { loadGenerators } from "./load.ts";
import type { GeneratorHost } from "./ports.ts";
import { GeneratorTemplates, type RenderScope } from "./render.ts";
import { envSecretProvider, SecretMasker, type SecretProvider } from "./secrets.ts";

/** A log line sink (the build log). */
export type GeneratorLog = (level: "debug" | "info" | "warn" | "error", text: string) => void;

/** Options of a {@link GeneratorScheduler}. */
export interface GeneratorSchedulerOptions {
  /** The data directory (targets are written there). */
  workspace: Workspace;
  /** Modules in load order. */
  modules?: readonly LayerSource[];
  /** Runtime services (mtimes, absolute paths, processes). */
  host: GeneratorHost;
  /** Process environment for `env.*` and the exec sandbox (default: empty). */
  env?: Readonly<Record<string, string>>;
  /** Secret provider (default: {@link envSecretProvider} over `env`). */
  secrets?: SecretProvider;
  /** Caller parameter values, read at each run. */
  params?: () => Readonly<Record<string, JsonValue>>;
  /** Request limits (defaults: {@link DEFAULT_HTTP_LIMITS}). */
  limits?: Partial<HttpLimits>;
  /** Time-out of exec generators (default 10 min). */
  execTimeoutMs?: number;
  /** fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Clock for `ttl` (default: now). */
  clock?: () => Date;
  /** Default `User-Agent` (default `graphsvc-importer/<version>`). */
  userAgent?: string;
  /**
   * Offline (`--offline`): no generator runs; the builds use the targets fetched last, with a
   * warning naming them (and one for each target never fetched).
   */
  offline?: boolean;
}

/** Outcome of one generator in a run. */
export interface GeneratorOutcome {
  /** Generator name. */
  name: string;
  /** Declaring module. */
  module: string;
  /** What happened. */
  outcome: "run" | "skipped" | "failed";
  /** The progress line (masked). */
  detail: string;
}

/** Counts of one run (the build summary). */
export interface GeneratorSummary {
  /** Generators that ran and succeeded. */
  run: number;
  /** Generators not due. */
  skipped: number;
  /** Generators that failed. */
  failed: number;
  /** Whether a failure with `abort_on_failure` stopped the run. */
  aborted: boolean;
  /** Each generator's outcome in run order. */
  outcomes: GeneratorOutcome[];
  /**
   * Data-directory paths the run may have written (targets of HTTP generators that ran, with
   * their `.etag`/`.last_mod` files); `undefined` once a command generator ran, whose writes are
   * not known.
   */
  written: string[] | undefined;
}

/**
 * Runs generators before builds. Give {@link GeneratorScheduler.prepare} to the engine's
 * `prepare` option so it runs at the start of every build.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { GeneratorScheduler } from "./scheduler.ts";
 * const scheduler = new GeneratorScheduler({
 *   workspace: new MemoryWorkspace({}),
 *   host: { modifiedAt: () => Promise.resolve(undefined), absolutePath: (p) => `/data/${p}` },
 * });
 * const summary = await scheduler.run(() => {});
 * console.log(summary.run); // 0
 * ```
 */
export class GeneratorScheduler {
  readonly #o: GeneratorSchedulerOptions;
  #ranOnce = false;
  #fullRun = false;
  #last: GeneratorSummary | undefined;

  /** Creates a scheduler. @param options workspace, modules, runtime host and limits */
  constructor(options: GeneratorSchedulerOptions) {
    this.#o = options;
  }

  /** The summary of the last run (`undefined` before the first). */
  get lastSummary(): GeneratorSummary | undefined {
    return this.#last;
  }

  /**
   * Makes the next run treat generators without `ttl`/`condition` as due (GN4: a reload webhook
   * or an explicit `bootstrap`).
   */
  requestFullRun(): void {
    this.#fullRun = true;
  }

  /**
   * The engine hook: runs the due generators and answers the paths they may have written
   * (`undefined`: not known); throws {@link GeneratorAbortError} on abort.
   */
  readonly prepare = async (log: GeneratorLog): Promise<string[] | undefined> =>
    (await this.run(log)).written;

  /** Runs every due generator in order (GN4, GN5) and returns the counts. */
  async run(rawLog: GeneratorLog): Promise<GeneratorSummary> {
    const o = this.#o;
    const masker = new SecretMasker();
    const log: GeneratorLog = (level, text) => rawLog(level, masker.mask(text));
    const summary: GeneratorSummary = {
      run: 0,
      skipped: 0,
      failed: 0,
      aborted: false,
      outcomes: [],
      written: [],
    };
    this.#last = summary;
    const env = o.env ?? {};
    // Secrets held in the environment never show in a line, even when read through `env.*`.
    for (const [k, v] of Object.entries(env)) if (k.startsWith("GRAPHSVC_SECRET_")) masker.add(v);
    const { generators, params } = await loadGenerators(
      o.workspace,
      o.modules ?? [],
      o.params?.() ?? {},
    );
    const firstOrReload = !this.#ranOnce || this.#fullRun;
    this.#ranOnce = true;
    this.#fullRun = false;
    if (generators.length === 0) return summary;
    log("info", `generators: ${generators.length} declared`);
    if (o.offline) return await this.#offline(generators, summary, log);
    const templates = new GeneratorTemplates(
      o.secrets ?? envSecretProvider(env),
      masker,
      { ...env },
    );
    for (const g of generators) {
      const record = (outcome: GeneratorOutcome["outcome"], detail: string) => {
        summary[outcome]++;
        summary.outcomes.push({
          name: g.name,
          module: g.module,
          outcome,
          detail: masker.mask(detail),
        });
      };
      const skip = await this.#skipReason(g, firstOrReload);
      if (skip !== undefined) {
        const line = `generator ${g.name}: skipped (${skip})`;
        log("info", line);
        record("skipped", line);
        continue;
      }
      if (g.runner === "exec") summary.written = undefined;
      else summary.written?.push(g.targetPath, `${g.targetPath}.etag`, `${g.targetPath}.last_mod`);
      try {
        const line = await this.#runOne(g, templates, masker, env, params, log);
        log("info", line);
        record("run", line);
      } catch (e) {
        const message = masker.mask(
          e instanceof GeneratorRunError
            ? e.message
            : `generator '${g.name}' (module ${g.module}): ${describeError(e)}`,
        );
        record("failed", message);
        if (g.abortOnFailure) {
          summary.aborted = true;
          log("error", `${message}; aborting the build (abort_on_failure)`);
          throw new GeneratorAbortError(message);
        }
        log("warn", `${message}; continuing with the existing ${g.targetPath}`);
      }
    }
    return summary;
  }

  /** Offline: every generator is skipped, the builds use what was fetched last. */
  async #offline(
    generators: readonly GeneratorDeclaration[],
    summary: GeneratorSummary,
    log: GeneratorLog,
  ): Promise<GeneratorSummary> {
    summary.written = [];
    const kept: string[] = [];
    for (const g of generators) {
      const present = (await this.#o.host.modifiedAt(g.targetPath)) !== undefined;
      const detail = `generator ${g.name}: skipped (offline)`;
      summary.skipped++;
      summary.outcomes.push({ name: g.name, module: g.module, outcome: "skipped", detail });
      if (present) kept.push(g.targetPath);
      else log("warn", `generator ${g.name}: offline and ${g.targetPath} was never fetched`);
    }
    if (kept.length > 0) {
      log("warn", `generators: offline, none run; using the last fetched ${kept.join(", ")}`);
    }
    return summary;
  }

  /** Why `g` is not due, or `undefined` when it must run (GN4). */
  async #skipReason(g: GeneratorDeclaration, firstOrReload: boolean): Promise<string | undefined> {
    const mtime = await this.#o.host.modifiedAt(g.targetPath);
    if (mtime === undefined) return undefined;
    if (g.ttlMs !== undefined) {
      const now = (this.#o.clock ?? (() => new Date()))().getTime();
      return now - mtime.getTime() >= g.ttlMs ? undefined : `fresh, ttl ${g.ttl}`;
    }
    if (g.onMissing) return "target present, condition on_missing";
    return firstOrReload ? undefined : "already ran in this process; runs again on reload";
  }

  async #runOne(
    g: GeneratorDeclaration,
    templates: GeneratorTemplates,
    masker: SecretMasker,
    env: Readonly<Record<string, string>>,
    params: Record<string, JsonValue>,
    log: GeneratorLog,
  ): Promise<string> {
    const o = this.#o;
    const ws = o.workspace;
    const scope: RenderScope = {
      env,
      params,
      secrets: {},
      target: { [g.targetKind]: o.host.absolutePath(g.targetPath) },
    };
    if (g.runner === "exec") {
      const { text } = await runExecGenerator(g, {
        scope,
        templates,
        masker,
        processes: o.host.processes,
        dataDir: o.host.absolutePath(""),
        timeoutMs: o.execTimeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
        log,
      });
      if (text !== undefined) {
        await ws.writeTextAtomic(g.targetPath, text);
        return `generator ${g.name}: command done, wrote ${g.targetPath} (${
          byteLength(text)
        } bytes)`;
      }
      if ((await o.host.modifiedAt(g.targetPath)) === undefined) {
        log("warn", `generator ${g.name}: the command succeeded but did not write ${g.targetPath}`);
      }
      return `generator ${g.name}: command done`;
    }
    const existing = await ws.readText(g.targetPath);
    const etagPath = `${g.targetPath}.etag`;
    const lastModPath = `${g.targetPath}.last_mod`;
    const oldEtag = existing === undefined ? undefined : (await ws.readText(etagPath))?.trim();
    const oldLastMod = existing === undefined
      ? undefined
      : (await ws.readText(lastModPath))?.trim();
    const result = await runHttpGenerator(g, {
      scope,
      templates,
      masker,
      limits: { ...DEFAULT_HTTP_LIMITS, ...o.limits },
      fetchFn: o.fetch ?? fetch,
      userAgent: o.userAgent ?? `graphsvc-importer/${VERSION}`,
      validators: oldEtag || oldLastMod
        ? { etag: oldEtag || undefined, lastModified: oldLastMod || undefined }
        : undefined,
      warn: (text) => log("warn", text),
      progress: (text) => log("info", text),
    });
    if (result.kind === "not_modified") {
      // Rewriting the same bytes refreshes the modification time the ttl counts from.
      await ws.writeTextAtomic(g.targetPath, existing!);
      return `generator ${g.name}: not modified (304), kept ${g.targetPath}`;
    }
    await ws.writeTextAtomic(g.targetPath, result.text);
    if (result.etag !== undefined || oldEtag !== undefined) {
      await ws.writeTextAtomic(etagPath, result.etag ?? "");
    }
    if (result.lastModified !== undefined || oldLastMod !== undefined) {
      await ws.writeTextAtomic(lastModPath, result.lastModified ?? "");
    }
    const items = result.items === undefined ? "" : `, ${result.items} item(s)`;
    return `generator ${g.name}: ${result.pages} page(s)${items}, wrote ${g.targetPath} (${
      byteLength(result.text)
    } bytes)`;
  }
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
