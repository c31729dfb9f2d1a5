/**
 * Turns of the event loop between two build slices (`slicing.ts`) that cost what the moment
 * needs. A `setTimeout(0)` turn ({@link timerTurn}) waits about 2 ms on Deno for a timer, so a
 * build in 4 ms slices runs ~35 % longer than its work, readers or not. A runtime adapter can
 * offer a *quick* turn that does not wait (Deno's: `lib/runtime/deno/event_loop_turn.ts`): it
 * runs due timers, but takes in network I/O only when the runtime happens to poll for it (on an
 * idle machine within 2–4 slices, under load only after ~100). So {@link ReaderAwareTurns}
 * gives:
 *
 * - full timer turns for {@link READER_WINDOW_MS} after a request arrived, so readers about are
 *   answered as soon as with timer turns only;
 * - otherwise quick turns, with a timer turn at least every {@link TIMER_TURN_EVERY_MS} of
 *   build, which bounds how long the first request after a quiet spell waits to be taken in
 *   (about that long, plus a slice), at ~15 % of the build instead of ~35 %.
 *
 * @module
 */
import { timerTurn } from "./slicing.ts";

/** How long after a request arrives the builds give full turns, in milliseconds. */
export const READER_WINDOW_MS = 50;

/** Longest stretch of quick turns, in milliseconds: then a timer turn takes in network I/O. */
export const TIMER_TURN_EVERY_MS = 12;

/** Options of {@link ReaderAwareTurns}. */
export interface ReaderTurnOptions {
  /** How long a request keeps the turns full (default {@link READER_WINDOW_MS}). */
  windowMs?: number;
  /** Longest stretch of quick turns (default {@link TIMER_TURN_EVERY_MS}). */
  timerEveryMs?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/**
 * Chooses each turn between build slices: a timer turn ({@link timerTurn}) when a request
 * arrived in the last `windowMs`, when the last timer turn is `timerEveryMs` old, or always
 * without a quick turn; the quick turn otherwise.
 *
 * @example
 * ```ts
 * import { ReaderAwareTurns } from "./reader_turns.ts";
 * let quick = 0;
 * const turns = new ReaderAwareTurns(() => {
 *   quick++;
 *   return Promise.resolve();
 * });
 * await turns.turn(); // the first turn is a timer turn
 * await turns.turn(); // nobody is reading: a quick turn
 * turns.noteRequest();
 * await turns.turn(); // a reader just arrived: a timer turn
 * console.log(quick, turns.readersActive); // 1 true
 * ```
 */
export class ReaderAwareTurns {
  #lastRequest = -Infinity;
  #lastTimerTurn = -Infinity;
  readonly #quick: (() => Promise<void>) | undefined;
  readonly #windowMs: number;
  readonly #timerEveryMs: number;
  readonly #now: () => number;

  /**
   * Chooses turns between `quick` and timer turns.
   *
   * @param quick the runtime's quick turn; without it every turn is a timer turn
   * @param options the reader window, the longest stretch of quick turns, the clock
   */
  constructor(quick?: () => Promise<void>, options: ReaderTurnOptions = {}) {
    this.#quick = quick;
    this.#windowMs = options.windowMs ?? READER_WINDOW_MS;
    this.#timerEveryMs = options.timerEveryMs ?? TIMER_TURN_EVERY_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Records that a request arrived (the app calls it for every request). */
  noteRequest(): void {
    this.#lastRequest = this.#now();
  }

  /** True while a request arrived less than `windowMs` ago. */
  get readersActive(): boolean {
    return this.#readersActiveAt(this.#now());
  }

  #readersActiveAt(now: number): boolean {
    return now - this.#lastRequest < this.#windowMs;
  }

  /** One turn between two slices (pass it as `SliceOptions.turn`). */
  readonly turn = (): Promise<void> => {
    const quick = this.#quick;
    const now = this.#now();
    if (
      quick === undefined || this.#readersActiveAt(now) ||
      now - this.#lastTimerTurn >= this.#timerEveryMs
    ) {
      this.#lastTimerTurn = now;
      return timerTurn();
    }
    return quick();
  };
}
