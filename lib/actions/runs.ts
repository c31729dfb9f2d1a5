/**
 * Run records and the job queue (reference AC13, AC22, AC30): runs of one concrete action
 * execute one at a time, first in first out; a queued run can be cancelled; output lines are
 * kept (masked) as the run's `log_tail`. Records are kept newest first, up to a bound.
 *
 * @module
 */
import { ActionNotFoundError, RunStateError } from "./errors.ts";
import type { ActionRunner, ExecutionResult, RunLocation, RunRecord } from "./ports.ts";

/** Lines of output kept per run. */
export const LOG_TAIL_LINES = 200;
/**
 * Characters of output kept per run (with {@link LOG_TAIL_LINES}): older lines go first, and a
 * line longer than this keeps its end, so `log_tail` always holds the end of the output.
 */
export const LOG_TAIL_CHARS = 64 * 1024;

/**
 * Appends `line` to a run's `log_tail` and drops what falls out of the bounds: lines beyond
 * {@link LOG_TAIL_LINES}, then the oldest lines while the tail is longer than
 * {@link LOG_TAIL_CHARS}, the oldest line kept losing its beginning (marked `…`) rather than
 * all of it.
 *
 * @example
 * ```ts
 * import { appendLogTail } from "./runs.ts";
 * const tail = ["a"];
 * appendLogTail(tail, "b");
 * console.log(tail); // ["a", "b"]
 * ```
 */
export function appendLogTail(tail: string[], line: string): void {
  tail.push(line.length > LOG_TAIL_CHARS ? `…${line.slice(-(LOG_TAIL_CHARS - 1))}` : line);
  if (tail.length > LOG_TAIL_LINES) tail.splice(0, tail.length - LOG_TAIL_LINES);
  let size = 0;
  for (const l of tail) size += l.length;
  while (size > LOG_TAIL_CHARS && tail.length > 1) {
    const excess = size - LOG_TAIL_CHARS;
    if (tail[0].length > excess + 1) { // the oldest line keeps its end
      tail[0] = `…${tail[0].slice(excess + 1)}`;
      break;
    }
    size -= tail.shift()!.length;
  }
}
/** Run records kept (oldest finished ones are dropped first). */
export const MAX_RUN_RECORDS = 1000;
/** Default job time-out (AC30): 30 minutes. */
export const DEFAULT_JOB_TIMEOUT_MS = 30 * 60 * 1000;

/** Replaces every occurrence of the given secrets in a line. */
export function maskSecrets(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join("***");
  return out;
}

/** A run being prepared: its bundle and the secrets to mask in its output. */
export interface RunJob {
  /** The `tar.gz` bundle. */
  bundle: Uint8Array;
  /** Plaintexts to mask in output and errors. */
  secrets: readonly string[];
  /** Time-out; none for services. */
  timeoutMs?: number;
  /** Called when the process started (services: socket path). */
  onStarted?(location: RunLocation): void;
}

/** An event of {@link RunQueue.watch}: one output line, or the end of the run. */
export type RunEvent = { kind: "line"; line: string } | { kind: "end"; record: RunRecord };

interface Entry {
  record: RunRecord;
  job: RunJob;
  key: string;
  controller: AbortController;
  done: Promise<void>;
  resolve: () => void;
}

/** Options of {@link RunQueue}. */
export interface RunQueueOptions {
  /** The runner; without one every run fails with `no_runner`. */
  runner?: ActionRunner;
  /** Clock (tests pin it). */
  clock?: () => Date;
  /** A line for the service log (start and end of runs; never output or secrets). */
  log?: (level: "info" | "warn" | "error", text: string) => void;
}

/**
 * Queues and executes runs.
 *
 * @example
 * ```ts
 * import { RunQueue } from "./runs.ts";
 * const q = new RunQueue({ runner: { publicKey: () => Promise.resolve(new Uint8Array(32)), execute: () => Promise.resolve({ exitCode: 0 }) } });
 * const r = q.enqueue("data", "hello", { bundle: new Uint8Array(), secrets: [] });
 * await q.settled(r.id);
 * console.log(q.get(r.id)?.status); // "succeeded"
 * ```
 */
export class RunQueue {
  readonly #options: RunQueueOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #order: string[] = [];
  readonly #queues = new Map<string, Entry[]>();
  readonly #running = new Map<string, Entry>();
  readonly #watchers = new Map<string, Set<(event: RunEvent) => void>>();
  #counter = 0;

  /** Creates the queue. @param options runner, clock, log */
  constructor(options: RunQueueOptions = {}) {
    this.#options = options;
  }

  #now(): string {
    return (this.#options.clock?.() ?? new Date()).toISOString();
  }

  /** Queues a run of `module`/`action`; returns its record (status `queued`). */
  enqueue(module: string, action: string, job: RunJob): RunRecord {
    const id = `run-${(++this.#counter).toString().padStart(6, "0")}-${
      crypto.randomUUID().slice(0, 8)
    }`;
    let resolve!: () => void;
    const done = new Promise<void>((r) => resolve = r);
    const entry: Entry = {
      record: {
        id,
        module,
        action,
        status: "queued",
        created_at: this.#now(),
        started_at: null,
        finished_at: null,
        exit_code: null,
        error: null,
        log_tail: [],
      },
      job,
      key: `${module}\u0000${action}`,
      controller: new AbortController(),
      done,
      resolve,
    };
    this.#entries.set(id, entry);
    this.#order.push(id);
    this.#prune();
    const queue = this.#queues.get(entry.key) ?? [];
    queue.push(entry);
    this.#queues.set(entry.key, queue);
    const queued = this.#copy(entry.record);
    this.#pump(entry.key);
    return queued;
  }

  /** Every record, newest first (AC13). */
  list(): RunRecord[] {
    return [...this.#order].reverse().map((id) => this.#copy(this.#entries.get(id)!.record));
  }

  /** One record, or `undefined`. */
  get(id: string): RunRecord | undefined {
    const e = this.#entries.get(id);
    return e ? this.#copy(e.record) : undefined;
  }

  #copy(r: RunRecord): RunRecord {
    return { ...r, log_tail: [...r.log_tail] };
  }

  /** Resolves when the run has ended (any final status). */
  async settled(id: string): Promise<RunRecord | undefined> {
    const e = this.#entries.get(id);
    if (!e) return undefined;
    await e.done;
    return this.get(id);
  }

  /**
   * Cancels a queued run (AC13); throws {@link ActionNotFoundError} for an unknown id and
   * {@link RunStateError} when the run is not queued.
   */
  cancel(id: string): RunRecord {
    const e = this.#entries.get(id);
    if (!e) throw new ActionNotFoundError(`no run '${id}'`);
    if (e.record.status !== "queued") {
      throw new RunStateError(
        `run '${id}' is ${e.record.status}; only queued runs can be cancelled`,
      );
    }
    const queue = this.#queues.get(e.key) ?? [];
    this.#queues.set(e.key, queue.filter((q) => q !== e));
    e.record.status = "cancelled";
    e.record.finished_at = this.#now();
    this.#finish(e);
    return this.#copy(e.record);
  }

  /** Stops running runs of `module`/`action` (or all) and cancels the queued ones. */
  async stop(filter?: { module: string; action: string }): Promise<void> {
    const key = filter ? `${filter.module}\u0000${filter.action}` : undefined;
    const waits: Promise<void>[] = [];
    for (const [k, queue] of this.#queues) {
      if (key !== undefined && k !== key) continue;
      for (const e of [...queue]) this.cancel(e.record.id);
    }
    for (const [k, e] of this.#running) {
      if (key !== undefined && k !== key) continue;
      e.controller.abort();
      waits.push(e.done);
    }
    await Promise.all(waits);
  }

  /**
   * Follows a run's output: `listener` gets each new line, then the final record once the run
   * has ended. Returns the unsubscribe function, or `undefined` for an unknown run.
   */
  watch(id: string, listener: (event: RunEvent) => void): (() => void) | undefined {
    if (!this.#entries.has(id)) return undefined;
    const set = this.#watchers.get(id) ?? new Set();
    set.add(listener);
    this.#watchers.set(id, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#watchers.delete(id);
    };
  }

  #notify(id: string, event: RunEvent): void {
    for (const l of this.#watchers.get(id) ?? []) {
      try {
        l(event);
      } catch { /* a broken listener must not break the run */ }
    }
  }

  #finish(e: Entry): void {
    e.resolve();
    this.#notify(e.record.id, { kind: "end", record: this.#copy(e.record) });
    this.#watchers.delete(e.record.id);
  }

  /** Whether a run of `module`/`action` is running. */
  isRunning(module: string, action: string): boolean {
    return this.#running.has(`${module}\u0000${action}`);
  }

  #prune(): void {
    while (this.#order.length > MAX_RUN_RECORDS) {
      const idx = this.#order.findIndex((id) => {
        const s = this.#entries.get(id)!.record.status;
        return s !== "queued" && s !== "running";
      });
      if (idx < 0) return;
      const [id] = this.#order.splice(idx, 1);
      this.#entries.delete(id);
    }
  }

  #pump(key: string): void {
    if (this.#running.has(key)) return;
    const queue = this.#queues.get(key);
    const next = queue?.shift();
    if (!next) {
      this.#queues.delete(key);
      return;
    }
    this.#running.set(key, next);
    this.#execute(next).finally(() => {
      this.#running.delete(key);
      this.#finish(next);
      this.#pump(key);
    });
  }

  async #execute(e: Entry): Promise<void> {
    const r = e.record;
    r.status = "running";
    r.started_at = this.#now();
    const label = `action ${r.module}/${r.action} (${r.id})`;
    this.#options.log?.("info", `${label}: started`);
    const push = (raw: string) => {
      const line = maskSecrets(raw, e.job.secrets);
      appendLogTail(r.log_tail, line);
      this.#notify(r.id, { kind: "line", line });
    };
    let result: ExecutionResult;
    const runner = this.#options.runner;
    if (!runner) {
      result = { exitCode: null, error: "no_runner", detail: "no action runner is configured" };
    } else {
      try {
        result = await runner.execute({
          bundle: e.job.bundle,
          signal: e.controller.signal,
          timeoutMs: e.job.timeoutMs,
          onOutput: (_stream, line) => push(line),
          onStarted: e.job.onStarted,
        });
      } catch (err) {
        result = {
          exitCode: null,
          error: "runner_failed",
          detail: err instanceof Error ? err.message : String(err),
        };
      }
    }
    r.exit_code = result.exitCode;
    r.finished_at = this.#now();
    const ok = !result.error && result.exitCode === 0;
    r.status = ok ? "succeeded" : "failed";
    if (!ok) {
      r.error = maskSecrets(
        result.error
          ? `${result.error}${result.detail ? `: ${result.detail}` : ""}`
          : `exit code ${result.exitCode}`,
        e.job.secrets,
      );
    }
    this.#options.log?.(
      ok ? "info" : "warn",
      `${label}: ${r.status}${r.error ? ` (${r.error})` : ""}`,
    );
  }
}
