/**
 * Cooperative time-slicing of the build. The pipeline's long loops are generator functions
 * ({@link Steps}) that `yield` (no value) at loop boundaries, every few iterations: a point where
 * the build may pause without any half-done graph mutation. Two drivers run the same generator:
 *
 * - {@link runSteps} runs it to completion synchronously (`buildGraph`, `runModelPhase`, …);
 * - {@link runStepsSliced} runs it in slices of at most `sliceMs` and gives the event loop a
 *   turn between slices (by default a `setTimeout(0)` task: see {@link timerTurn}; a runtime
 *   adapter may give a cheaper one, `reader_turns.ts`), so a server keeps answering readers
 *   from its last published snapshot while a big build runs.
 *
 * The result is the same whichever driver runs the steps: the steps never look at the clock.
 *
 * @module
 */

/**
 * A resumable computation returning `T`: a generator that yields `undefined` wherever it may be
 * paused. Compose with `yield*`.
 */
export type Steps<T> = Generator<void, T, undefined>;

/** A phase result, given directly or as {@link Steps} that produce it. */
export type StepsOr<T> = T | Steps<T>;

/**
 * True when `value` is a generator (steps) rather than a plain result.
 *
 * @example
 * ```ts
 * import { isSteps } from "./slicing.ts";
 * function* work() {
 *   yield;
 *   return 1;
 * }
 * console.log(isSteps(work()), isSteps({ passes: 1 })); // true false
 * ```
 */
export function isSteps(value: unknown): value is Steps<unknown> {
  return typeof value === "object" && value !== null &&
    typeof (value as { next?: unknown }).next === "function" &&
    typeof (value as { throw?: unknown }).throw === "function" &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/**
 * Runs `steps` (or returns a plain value) to completion, synchronously.
 *
 * @example
 * ```ts
 * import { runSteps } from "./slicing.ts";
 * function* sum(n: number) {
 *   let s = 0;
 *   for (let i = 1; i <= n; i++) {
 *     s += i;
 *     yield;
 *   }
 *   return s;
 * }
 * console.log(runSteps(sum(4))); // 10
 * ```
 */
export function runSteps<T>(steps: StepsOr<T>): T {
  if (!isSteps(steps)) return steps as T;
  const gen = steps as Steps<T>;
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

/** Options of {@link runStepsSliced}. */
export interface SliceOptions {
  /**
   * Longest run of steps between two turns of the event loop, in milliseconds (default
   * {@link DEFAULT_SLICE_MS}). 0 pauses at every yield point.
   */
  sliceMs?: number;
  /** Stops the steps at the next pause; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Gives the event loop its turn between two slices (default {@link timerTurn}). It must let
   * pending I/O and timers run before it resolves; a microtask does not.
   */
  turn?: () => Promise<void>;
}

/** Default slice length of {@link runStepsSliced}, in milliseconds. */
export const DEFAULT_SLICE_MS = 4;

/**
 * Runs `steps` in slices of at most `sliceMs` (as far as the yield points allow), letting other
 * tasks (HTTP requests, timers, I/O) run between slices.
 *
 * @example
 * ```ts
 * import { runStepsSliced } from "./slicing.ts";
 * function* count() {
 *   let n = 0;
 *   for (let i = 0; i < 1000; i++) {
 *     n++;
 *     yield;
 *   }
 *   return n;
 * }
 * console.log(await runStepsSliced(count(), { sliceMs: 0 })); // 1000
 * ```
 */
export async function runStepsSliced<T>(
  steps: StepsOr<T>,
  options: SliceOptions = {},
): Promise<T> {
  const { signal } = options;
  signal?.throwIfAborted();
  if (!isSteps(steps)) return steps as T;
  const gen = steps as Steps<T>;
  const sliceMs = Math.max(0, options.sliceMs ?? DEFAULT_SLICE_MS);
  const turn = options.turn ?? timerTurn;
  let finished = false;
  try {
    for (;;) {
      const deadline = performance.now() + sliceMs;
      for (;;) {
        const r = gen.next();
        if (r.done) {
          finished = true;
          return r.value;
        }
        if (sliceMs === 0 || performance.now() >= deadline) break;
      }
      await turn();
      signal?.throwIfAborted();
    }
  } finally {
    // Aborted or failed: run the generators' finally blocks.
    if (!finished) gen.return(undefined as T);
  }
}

/**
 * Gives the event loop one turn: a `setTimeout(0)` task, so pending I/O (HTTP requests) and timers
 * run before the build goes on; the turn every runtime has. Measured with Deno 2.9
 * (bench/stall_bench.ts notes): a `MessageChannel` round trip, though not clamped, lets neither
 * timers nor network I/O in (a client saw no answer during a whole 1.5 s of 4 ms slices), so it
 * cannot be used here; a turn through `setTimeout(0)` costs about 2 ms of waiting (2.2 ms on
 * average, chained, Deno 2.9.5), hence slices of a few ms, and a build that runs ~35 % longer
 * than its work when nothing else wants the event loop (`reader_turns.ts` avoids that).
 *
 * @example
 * ```ts
 * import { runStepsSliced, timerTurn } from "./slicing.ts";
 * function* work() {
 *   yield;
 *   return "done";
 * }
 * console.log(await runStepsSliced(work(), { sliceMs: 0, turn: timerTurn })); // done
 * ```
 */
export function timerTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
