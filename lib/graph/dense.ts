/**
 * Arrays indexed by dense ids (resource and relation ids): setting an index past the end fills
 * the gap with `undefined` first, so V8 keeps the array in fast elements mode instead of
 * switching to a dictionary when ids arrive out of order; typed arrays grow by doubling.
 *
 * @module
 */

/**
 * `list[id] = value`, filling any gap before `id` with `undefined`.
 *
 * @example
 * ```ts
 * import { setById } from "./dense.ts";
 * const list: (string | undefined)[] = [];
 * setById(list, 2, "c");
 * console.log(list.length, list[2]); // 3 "c"
 * ```
 */
export function setById<T>(list: (T | undefined)[], id: number, value: T): void {
  while (list.length < id) list.push(undefined);
  list[id] = value;
}

/**
 * A copy of `array` with room for index `index`: at least twice as long (so that growing one
 * index at a time costs amortised constant time).
 *
 * @example
 * ```ts
 * import { grown } from "./dense.ts";
 * const a = grown(new Int32Array([1, 2]), 2);
 * console.log(a.length, a[1]); // 4 2
 * ```
 */
export function grown<A extends Int32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>>(
  array: A,
  index: number,
): A {
  const bigger = new (array.constructor as new (length: number) => A)(
    Math.max(index + 1, array.length * 2),
  );
  bigger.set(array);
  return bigger;
}

/** Entries per chunk of a {@link ChunkedById} (a power of two). */
const CHUNK_BITS = 10;
const CHUNK = 1 << CHUNK_BITS;

/**
 * Values by dense id, stored in chunks of 1,024 made on first write: setting one id far past
 * the others costs one chunk, not a fill of the gap (a graph with 300k relations whose first
 * reader asks for relation 299,999 makes one chunk instead of pushing 300k `undefined`s), and
 * reads are two array loads in fast elements mode.
 *
 * @example
 * ```ts
 * import { ChunkedById } from "./dense.ts";
 * const byId = new ChunkedById<string>();
 * byId.set(300_000, "late");
 * console.log(byId.get(300_000), byId.get(5)); // "late" undefined
 * ```
 */
export class ChunkedById<T> {
  #chunks: ((T | undefined)[] | undefined)[] = [];

  /** The value of `id`, or undefined. */
  get(id: number): T | undefined {
    if (id < 0) return undefined;
    const chunk = this.#chunks[id >>> CHUNK_BITS];
    return chunk === undefined ? undefined : chunk[id & (CHUNK - 1)];
  }

  /** Sets (or, with undefined, clears) the value of `id` (a non-negative integer). */
  set(id: number, value: T | undefined): void {
    if (!Number.isInteger(id) || id < 0) throw new RangeError(`not a dense id: ${id}`);
    const at = id >>> CHUNK_BITS;
    let chunk = at < this.#chunks.length ? this.#chunks[at] : undefined;
    if (chunk === undefined) {
      if (value === undefined) return;
      chunk = new Array<T | undefined>(CHUNK).fill(undefined);
      setById(this.#chunks, at, chunk);
    }
    chunk[id & (CHUNK - 1)] = value;
  }

  /** Calls `visit` for every id that has a value, in id order. */
  forEach(visit: (value: T, id: number) => void): void {
    const chunks = this.#chunks;
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c];
      if (chunk === undefined) continue;
      for (let i = 0; i < CHUNK; i++) {
        const value = chunk[i];
        if (value !== undefined) visit(value, (c << CHUNK_BITS) + i);
      }
    }
  }
}
