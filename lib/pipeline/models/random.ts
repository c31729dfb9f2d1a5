/**
 * `get_random(start=, end=)` for builds (reference T21, M4; issue 19 item 6). Tera's own
 * `get_random` draws fresh entropy per call, so a model that stores a random value changes it in
 * every model pass and the phase never converges (eight passes, a warning). Here every build
 * gets one seed, and the sequence restarts with each model pass like `counter()`
 * (`resetCounters`): pass n+1 renders what pass n rendered, the phase converges, and the next
 * build (another seed) still draws different values. Templates calling it are impure, so the
 * model phase never skips them (models/reads.ts) and the calls happen in the same order.
 *
 * @module
 */

/** A per-build random sequence, restartable at the start of every model pass. */
export class BuildRandom {
  #state: number;

  /**
   * @param seed 32-bit seed of this build (tests pin it; default: fresh entropy).
   *
   * @example
   * ```ts
   * import { BuildRandom } from "./random.ts";
   * const r = new BuildRandom(7);
   * const a = r.getRandom({ end: 100 });
   * r.reset();
   * console.log(r.getRandom({ end: 100 }) === a); // true
   * ```
   */
  constructor(readonly seed: number = crypto.getRandomValues(new Uint32Array(1))[0]) {
    this.#state = seed >>> 0;
  }

  /** Restarts the sequence (start of a model pass). */
  reset(): void {
    this.#state = this.seed >>> 0;
  }

  /** `get_random(start=0, end=N)`: an integer in [start, end), with Tera's argument checks. */
  getRandom(args: Record<string, unknown>): number {
    const int = (name: string, v: unknown): number => {
      if (typeof v === "number" && Number.isInteger(v)) return v;
      throw new Error(
        `Function \`get_random\` received ${name}=${
          JSON.stringify(v) ?? String(v)
        } but \`${name}\` can only be a number`,
      );
    };
    const start = args.start === undefined ? 0 : int("start", args.start);
    if (args.end === undefined) {
      throw new Error("Function `get_random` didn't receive an `end` argument");
    }
    const end = int("end", args.end);
    if (start >= end) throw new Error("Function `get_random`: `start` must be lower than `end`");
    const hi = this.#next();
    const lo = this.#next();
    return start + (hi * 0x100000000 + lo) % (end - start);
  }

  /** mulberry32: a small, well-mixed 32-bit generator. */
  #next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}
