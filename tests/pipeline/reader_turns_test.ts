/**
 * The turns a sliced build gives the event loop (`reader_turns.ts`, `SliceOptions.turn`): the
 * runtime's quick turn while no request is about, with a timer turn at least every
 * `timerEveryMs`; timer turns within the reader window after a request, and always without a
 * quick turn. A timer turn is recognised by a `setTimeout(0)` scheduled before it having fired
 * when it resolves (timers of equal delay fire in order); the quick turn here is a microtask,
 * which lets no timer fire. The clock is a variable.
 */
import { assert, assertEquals } from "../_assert.ts";
import { ReaderAwareTurns } from "../../lib/pipeline/reader_turns.ts";
import { runStepsSliced, timerTurn } from "../../lib/pipeline/slicing.ts";

/** Whether `turn` let a timer scheduled just before it fire. */
async function letTimerFire(turn: () => Promise<void>): Promise<boolean> {
  let fired = false;
  setTimeout(() => fired = true, 0);
  await turn();
  return fired;
}

Deno.test("reader turns: quick turns while nobody reads, a timer turn every timerEveryMs and within the window after a request", async () => {
  let clock = 1000;
  let quick = 0;
  const turns = new ReaderAwareTurns(() => {
    quick++;
    return Promise.resolve();
  }, { windowMs: 50, timerEveryMs: 12, now: () => clock });
  assertEquals(turns.readersActive, false);
  assertEquals(await letTimerFire(turns.turn), true, "the first turn is a timer turn");
  clock += 11;
  assertEquals(await letTimerFire(turns.turn), false, "11 ms later, nobody reading: quick");
  assertEquals(quick, 1);
  clock += 1;
  assertEquals(await letTimerFire(turns.turn), true, "12 ms after the last timer turn");
  clock += 1;
  assertEquals(await letTimerFire(turns.turn), false);
  assertEquals(quick, 2);
  turns.noteRequest();
  for (let i = 0; i < 49; i += 7) {
    assertEquals(turns.readersActive, true);
    assertEquals(await letTimerFire(turns.turn), true, `${i} ms after a request: a timer turn`);
    clock += 7;
  }
  assertEquals(quick, 2);
  clock += 1; // 50 ms after the request
  assertEquals(turns.readersActive, false, "the window has passed");
  assertEquals(await letTimerFire(turns.turn), false, "the last timer turn was 1 ms ago");
  assertEquals(quick, 3);
});

Deno.test("reader turns: without a quick turn every turn is a timer turn", async () => {
  const turns = new ReaderAwareTurns();
  for (let i = 0; i < 3; i++) assertEquals(await letTimerFire(turns.turn), true);
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
