/**
 * Deno's quick turn (`lib/runtime/deno/event_loop_turn.ts`) must let network I/O and due timers
 * in between build slices, or a build would keep readers out for its whole length. Busy steps
 * (2 ms slices) run until a request to a local server is answered or a timer fires. Counted in
 * slices, not timed: the quick turn must answer within a few; the controls (setImmediate for I/O,
 * a microtask turn for timers) must not, so the checks can fail.
 */
import { setImmediate } from "node:timers";
import { assert, assertEquals } from "../_assert.ts";
import { denoQuickTurn } from "../../lib/runtime/deno/event_loop_turn.ts";
import { runStepsSliced } from "../../lib/pipeline/slicing.ts";

/** Slices within which the quick turn must have let a request in and its answer out. */
const MAX_SLICES = 20;

/** Busy steps that end with "seen" once `seen()` holds, or "cap" after `cap` slices of ~2 ms. */
function* busyUntil(seen: () => boolean, cap: number, slice = () => {}) {
  for (let i = 0; i < cap; i++) {
    if (seen()) return "seen";
    slice();
    const start = performance.now();
    while (performance.now() - start < 2) { /* work */ }
    yield;
  }
  return seen() ? "seen" : "cap";
}

const microtask = () => Promise.resolve();

Deno.test("denoQuickTurn lets an HTTP request in and out within a few build slices", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    return new Response("ok");
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    /** Slices of ~2 ms the steps ran before a request sent as they started was answered. */
    const slicesUntilAnswered = async (turn: () => Promise<void>) => {
      let answered = false;
      let slices = 0;
      const request = fetch(url).then(async (r) => {
        await r.body?.cancel();
        answered = true;
      });
      await runStepsSliced(
        busyUntil(() => answered, 2500, () => slices++),
        { sliceMs: 2, turn },
      );
      await request;
      return slices;
    };
    // Measured on Deno 2.9.5: 2–4 slices with the quick turn, ~115 with setImmediate (which
    // polls I/O only now and then), 1 with setTimeout(0).
    const quick = await slicesUntilAnswered(denoQuickTurn);
    assert(quick <= MAX_SLICES, `quick turn: answered after ${quick} slices`);
    const immediate = await slicesUntilAnswered(() => new Promise((r) => setImmediate(r)));
    assert(immediate > MAX_SLICES, `control (setImmediate): answered after ${immediate} slices`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("denoQuickTurn lets due timers fire while a build runs in slices", async () => {
  for (
    const [turn, expected, cap] of [[denoQuickTurn, "seen", 2500], [microtask, "cap", 50]] as const
  ) {
    let fired = false;
    const timer = setTimeout(() => fired = true, 5);
    const outcome = await runStepsSliced(busyUntil(() => fired, cap), { sliceMs: 2, turn });
    assertEquals(outcome, expected);
    clearTimeout(timer);
  }
});
