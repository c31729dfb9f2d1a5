/**
 * The turns a sliced build gives the event loop (`reader_turns.ts`, `SliceOptions.turn`): the
 * runtime's quick turn while no request is about, a timer turn within the reader window after
 * one, and timer turns always without a quick turn. A timer turn is recognised by a
 * `setTimeout(0)` scheduled before it having fired when it resolves (timers of equal delay fire
 * in order); a microtask "quick turn" lets no timer fire.
 */
import { assert, assertEquals } from "../_assert.ts";
import { READER_WINDOW_MS, ReaderAwareTurns } from "../../lib/pipeline/reader_turns.ts";
import { runStepsSliced, timerTurn } from "../../lib/pipeline/slicing.ts";

/** Whether `turn` let a timer scheduled just before it fire. */
async function letTimerFire(turn: () => Promise<void>): Promise<boolean> {
  let fired = false;
  setTimeout(() => fired = true, 0);
  await turn();
  return fired;
}

Deno.test("reader turns: the quick turn while no request arrived in the window, else a timer turn", async () => {
  let clock = 1000;
  let quick = 0;
  const turns = new ReaderAwareTurns(
    () => {
      quick++;
      return Promise.resolve();
    },
    READER_WINDOW_MS,
    () => clock,
  );
  assertEquals(turns.readersActive, false);
  assertEquals(await letTimerFire(turns.turn), false, "no reader yet: the quick turn");
  assertEquals(quick, 1);
  turns.noteRequest();
  clock += READER_WINDOW_MS - 1;
  assertEquals(turns.readersActive, true);
  assertEquals(await letTimerFire(turns.turn), true, "a reader just arrived: a timer turn");
  assertEquals(quick, 1);
  clock += 1;
  assertEquals(turns.readersActive, false, "the window has passed");
  assertEquals(await letTimerFire(turns.turn), false);
  assertEquals(quick, 2);
});

Deno.test("reader turns: without a quick turn every turn is a timer turn", async () => {
  const turns = new ReaderAwareTurns();
  assertEquals(await letTimerFire(turns.turn), true);
  assertEquals(await letTimerFire(timerTurn), true);
});

Deno.test("runStepsSliced gives the turn it is given between slices", async () => {
  let turns = 0;
  function* work() {
    for (let i = 0; i < 3; i++) yield;
    return "done";
  }
  const result = await runStepsSliced(work(), {
    sliceMs: 0,
    turn: () => {
      turns++;
      return Promise.resolve();
    },
  });
  assertEquals(result, "done");
  assertEquals(turns, 3, "one turn after each of the 3 pauses");
  assert(await letTimerFire(timerTurn));
});
