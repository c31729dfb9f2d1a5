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
