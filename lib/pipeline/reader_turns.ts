/**
 * Turns of the event loop between two build slices (`slicing.ts`) that cost what the moment
 * needs. A `setTimeout(0)` turn ({@link timerTurn}) waits about 2 ms on Deno for a timer, so a
 * build in 4 ms slices runs ~35 % longer than its work, readers or not. A runtime adapter can
 * offer a *quick* turn that still lets network I/O and due timers in without that wait (Deno's:
 * `lib/runtime/deno/event_loop_turn.ts`); it takes I/O one event-loop poll at a time, so a
 * request it lets in needs a few slices to be answered. {@link ReaderAwareTurns} uses the quick
 * turn while no request has arrived for {@link READER_WINDOW_MS}, and full timer turns while
 * readers are about, so they are answered as soon as before.
 *
 * @module
 */
import { timerTurn } from "./slicing.ts";

/** How long after a request arrives the builds give full turns, in milliseconds. */
export const READER_WINDOW_MS = 50;

/**
 * Chooses each turn between build slices: the quick turn when no request arrived in the last
 * `windowMs`, {@link timerTurn} otherwise (and always, without a quick turn).
 *
 * @example
 * ```ts
 * import { ReaderAwareTurns } from "./reader_turns.ts";
 * let quick = 0;
 * const turns = new ReaderAwareTurns(() => {
 *   quick++;
 *   return Promise.resolve();
 * });
 * await turns.turn(); // nobody is reading: the quick turn
 * turns.noteRequest();
 * await turns.turn(); // a reader just arrived: a timer turn
 * console.log(quick, turns.readersActive); // 1 true
 * ```
 */
export class ReaderAwareTurns {
  #lastRequest = -Infinity;
  readonly #quick: (() => Promise<void>) | undefined;
  readonly #windowMs: number;
  readonly #now: () => number;

  /**
   * Chooses turns between `quick` and timer turns.
   *
   * @param quick the runtime's quick turn; without it every turn is a timer turn
   * @param windowMs how long a request keeps the turns full
   * @param now the clock (milliseconds)
   */
  constructor(
    quick?: () => Promise<void>,
    windowMs: number = READER_WINDOW_MS,
    now: () => number = () => performance.now(),
  ) {
    this.#quick = quick;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Records that a request arrived (the app calls it for every request). */
  noteRequest(): void {
    this.#lastRequest = this.#now();
  }

  /** True while a request arrived less than `windowMs` ago. */
  get readersActive(): boolean {
    return this.#now() - this.#lastRequest < this.#windowMs;
  }

  /** One turn between two slices (pass it as `SliceOptions.turn`). */
  readonly turn = (): Promise<void> => {
    const quick = this.#quick;
    return quick === undefined || this.readersActive ? timerTurn() : quick();
  };
}
