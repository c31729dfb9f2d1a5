/**
 * Arrays indexed by dense ids (resource and relation ids): setting an index past the end fills
 * the gap with `undefined` first, so V8 keeps the array in fast elements mode instead of
 * switching to a dictionary when ids arrive out of order.
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
