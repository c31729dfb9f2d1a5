/**
 * Keeping `auto_execute` services running (reference AC31): started after a rebuild that
 * expands them, restarted when their bundle hash changes, stopped when they are no longer
 * expanded, and restarted with exponential back-off (1 s → 60 s by default) when they exit.
 *
 * @module
 */
import type { ConcreteAction } from "./expand.ts";

/** What the supervisor needs. */
export interface SupervisorOptions {
  /** Restart back-off: first delay and cap, in milliseconds. */
  backoff: { initialMs: number; maxMs: number };
  /** Builds the bundle and queues a run; returns the run id. */
  start(action: ConcreteAction): Promise<string>;
  /** Resolves when the run has ended. */
  settled(runId: string): Promise<void>;
  /** Stops the running run of the action. */
  stopRuns(action: ConcreteAction): Promise<void>;
  /** Log sink. */
  log?: (level: "info" | "warn" | "error", text: string) => void;
}

interface Supervised {
  action: ConcreteAction;
  hash: string;
  stopped: boolean;
  wake: AbortController;
  loop: Promise<void>;
}

function keyOf(a: ConcreteAction): string {
  return `${a.module}\u0000${a.name}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}

/**
 * Supervises services.
 *
 * @example
 * ```ts ignore
 * const s = new ServiceSupervisor({ backoff: { initialMs: 1000, maxMs: 60000 }, start, settled, stopRuns });
 * await s.reconcile([{ action, hash }]);
 * ```
 */
export class ServiceSupervisor {
  readonly #options: SupervisorOptions;
  readonly #services = new Map<string, Supervised>();

  /** Creates the supervisor. @param options back-off and run hooks */
  constructor(options: SupervisorOptions) {
    this.#options = options;
  }

  /** Restarts counted so far per `module/action` (tests and diagnostics). */
  readonly restarts: Map<string, number> = new Map();

  /** Makes the running set equal to `wanted` (AC31). */
  async reconcile(wanted: readonly { action: ConcreteAction; hash: string }[]): Promise<void> {
    const keep = new Set(wanted.map((w) => keyOf(w.action)));
    const stops: Promise<void>[] = [];
    for (const [key, s] of this.#services) {
      if (!keep.has(key)) stops.push(this.#stop(key, s));
    }
    await Promise.all(stops);
    for (const w of wanted) {
      const key = keyOf(w.action);
      const current = this.#services.get(key);
      if (current && current.hash === w.hash) {
        current.action = w.action;
        continue;
      }
      if (current) {
        this.#options.log?.(
          "info",
          `service ${w.action.module}/${w.action.name}: bundle changed, restarting`,
        );
        await this.#stop(key, current);
      }
      this.#launch(key, w.action, w.hash);
    }
  }

  /** Stops every service. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#services].map(([k, s]) => this.#stop(k, s)));
  }

  async #stop(key: string, s: Supervised): Promise<void> {
    s.stopped = true;
    s.wake.abort();
    this.#services.delete(key);
    await this.#options.stopRuns(s.action);
    await s.loop;
  }

  #launch(key: string, action: ConcreteAction, hash: string): void {
    const s: Supervised = {
      action,
      hash,
      stopped: false,
      wake: new AbortController(),
      loop: Promise.resolve(),
    };
    this.#services.set(key, s);
    s.loop = this.#run(key, s);
  }

  async #run(key: string, s: Supervised): Promise<void> {
    const { initialMs, maxMs } = this.#options.backoff;
    let delay = initialMs;
    let first = true;
    while (!s.stopped) {
      if (!first) this.restarts.set(key, (this.restarts.get(key) ?? 0) + 1);
      first = false;
      const began = Date.now();
      try {
        const id = await this.#options.start(s.action);
        await this.#options.settled(id);
      } catch (e) {
        this.#options.log?.(
          "error",
          `service ${s.action.module}/${s.action.name}: ${e instanceof Error ? e.message : e}`,
        );
      }
      if (s.stopped) break;
      // A service that stayed up longer than the cap starts over at the first delay.
      if (Date.now() - began > maxMs) delay = initialMs;
      this.#options.log?.(
        "warn",
        `service ${s.action.module}/${s.action.name} exited; restarting in ${delay} ms`,
      );
      await sleep(delay, s.wake.signal);
      delay = Math.min(maxMs, delay * 2);
    }
  }
}
