/**
 * Builds in slices must keep taking requests in (issue 24: readers never wait). The engine's
 * turns between slices (`ReaderAwareTurns`) are quick ones while no request is about, with a timer
 * turn at least every 12 ms; Deno's quick turn (`lib/runtime/deno/event_loop_turn.ts`) runs due
 * timers but takes network I/O in only when the runtime polls for it. Busy steps (2 ms slices)
 * run as a build does; after 20 slices a request goes to a local server (whose handler notes
 * it, as the app does), and the slices until it is answered are counted, not timed. The worst
 * quick turn, `setImmediate` (no I/O for ~40 slices), shows the bound comes from the timer turns:
 * without them (the control) the count is far above it, so the check can fail.
 */
import { setImmediate } from "node:timers";
import { assert, assertEquals } from "../_assert.ts";
import { denoQuickTurn } from "../../lib/runtime/deno/event_loop_turn.ts";
import { ReaderAwareTurns } from "../../lib/pipeline/reader_turns.ts";
import { runStepsSliced } from "../../lib/pipeline/slicing.ts";

/** Slices within which a request sent during a build is answered: 12 ms of 2 ms slices, twice. */
const MAX_SLICES = 15;

/** ~2 ms of work. */
function work(): void {
  const start = performance.now();
  while (performance.now() - start < 2) { /* work */ }
}

/** A turn that takes in no network I/O for a long while (node:timers' `setImmediate`). */
const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

Deno.test("a request sent during a build in quick turns is answered within a few slices", async () => {
  let turns = new ReaderAwareTurns();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    turns.noteRequest();
    return new Response("ok");
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    /** Slices the build ran from sending the request to its answer (capped at 1000). */
    const slicesUntilAnswered = async (quick: () => Promise<void>, timerEveryMs: number) => {
      turns = new ReaderAwareTurns(quick, { timerEveryMs });
      let answered = false;
      let slices = 0;
      let request: Promise<void> | undefined;
      function* build() {
        for (let i = 0; i < 20; i++) { // quick turns by now: nobody has asked anything
          work();
          yield;
        }
        request = fetch(url).then(async (r) => {
          await r.body?.cancel();
          answered = true;
        });
        while (!answered && slices < 1000) {
          slices++;
          work();
          yield;
        }
      }
      await runStepsSliced(build(), { sliceMs: 2, turn: turns.turn });
      await request;
      return slices;
    };
    const deno = await slicesUntilAnswered(denoQuickTurn, 12);
    assert(deno <= MAX_SLICES, `Deno's quick turn: answered after ${deno} slices`);
    const worst = await slicesUntilAnswered(immediate, 12);
    assert(worst <= MAX_SLICES, `setImmediate as the quick turn: answered after ${worst} slices`);
    const control = await slicesUntilAnswered(immediate, Infinity);
    assert(control > MAX_SLICES, `control, no timer turns: answered after ${control} slices`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("denoQuickTurn lets due timers fire while a build runs in slices", async () => {
  const microtask = () => Promise.resolve();
  for (const [turn, expected] of [[denoQuickTurn, true], [microtask, false]] as const) {
    let fired = false;
    const timer = setTimeout(() => fired = true, 5);
    const build = function* () {
      for (let i = 0; i < (expected ? 2500 : 50) && !fired; i++) {
        work();
        yield;
      }
    };
    await runStepsSliced(build(), { sliceMs: 2, turn });
    assertEquals(fired, expected, turn === microtask ? "control: a microtask turn" : "quick turn");
    clearTimeout(timer);
  }
});
