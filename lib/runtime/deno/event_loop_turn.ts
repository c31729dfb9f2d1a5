/**
 * Deno's quick turn of the event loop for builds in slices (`GraphEngineOptions.quickTurn`,
 * `lib/pipeline/reader_turns.ts`).
 *
 * @module
 */

const NOTHING = new Uint8Array(0);

/**
 * One turn of Deno's event loop that does not wait for a timer: a SHA-1 digest of nothing is an
 * asynchronous op whose completion comes back through the event loop, which runs due timers on
 * the way (tests/runtime/event_loop_turn_test.ts). Network I/O comes in only when the runtime
 * polls for it: measured with Deno 2.9.5, a request sent while 2 ms slices ran with this turn was
 * answered after 2–4 slices on an idle machine but after ~107 while the test suite ran beside it
 * (`setImmediate` of node:timers: ~115 either way). Hence `ReaderAwareTurns` puts a timer turn
 * in at least every few slices. 0.06 ms a turn against 2.2 ms for `setTimeout(0)`.
 *
 * @example
 * ```ts
 * import { denoQuickTurn } from "./event_loop_turn.ts";
 * await denoQuickTurn();
 * console.log("turned"); // turned
 * ```
 */
export async function denoQuickTurn(): Promise<void> {
  await crypto.subtle.digest("SHA-1", NOTHING);
}
