/**
 * Serialises asynchronous work per key: a read-modify-write of one file must not interleave with
 * another one on the same file, while writes to different files run concurrently.
 *
 * @module
 */

/**
 * Runs tasks one after another per key, in arrival order.
 *
 * @example
 * ```ts
 * import { KeyedMutex } from "./keyed_mutex.ts";
 * const mutex = new KeyedMutex();
 * const order: number[] = [];
 * await Promise.all([
 *   mutex.run("a.csv", async () => { await Promise.resolve(); order.push(1); }),
 *   mutex.run("a.csv", () => { order.push(2); }),
 * ]);
 * console.log(order); // [1, 2]
 * ```
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task of `key` has settled; resolves with its result. */
  run<T>(key: string, task: () => T | Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => {});
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }
}
