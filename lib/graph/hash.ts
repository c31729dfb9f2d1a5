/**
 * String hashing of the graph's and the CSV parser's own hash tables (`name_index.ts`,
 * `formats/csv_intern.ts`): FNV-1a over UTF-16 code units, seeded, then a final avalanche so
 * that the low bits used as slot numbers depend on every code unit.
 *
 * @module
 */

/** FNV-1a's offset basis: the seed of an unseeded table. */
export const FNV_BASIS = 0x811c9dc5 | 0;

/**
 * A 32-bit hash of the code units `text[start..end]`.
 *
 * @example
 * ```ts
 * import { FNV_BASIS, hashSpan } from "./hash.ts";
 * console.log(hashSpan("xabc", 1, 4, FNV_BASIS) === hashSpan("abc", 0, 3, FNV_BASIS)); // true
 * ```
 */
export function hashSpan(text: string, start: number, end: number, seed: number): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return avalanche(h);
}

/**
 * {@link hashSpan} of code units kept in a typed array: the same hash for the same code units.
 *
 * @example
 * ```ts
 * import { FNV_BASIS, hashCodeUnits, hashSpan } from "./hash.ts";
 * const units = new Uint16Array([97, 98]);
 * console.log(hashCodeUnits(units, 0, 2, FNV_BASIS) === hashSpan("ab", 0, 2, FNV_BASIS)); // true
 * ```
 */
export function hashCodeUnits(
  units: Uint16Array,
  start: number,
  end: number,
  seed: number,
): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ units[i], 0x01000193);
  return avalanche(h);
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
