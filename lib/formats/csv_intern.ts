/**
 * Sharing of equal cells while a CSV file is parsed: a column with few distinct values (`prod`,
 * `dev`) keeps one string per value instead of one per row.
 *
 * A small open-addressing table per column, found by a hash of the cell's characters and
 * compared with `===`, rather than a `Map<string, string>`: the first `Map` operation on a fresh
 * string (every cell is one) costs V8 a lookup in its global string table, several times the
 * cost of hashing a short cell.
 *
 * @module
 */
import { FNV_BASIS, hashSpan } from "../graph/hash.ts";

/**
 * The distinct values of one column, up to `limit` of them.
 *
 * @example
 * ```ts
 * import { CellInterner } from "./csv_intern.ts";
 * const column = new CellInterner(2);
 * const prod = column.intern("prod");
 * console.log(column.intern("prod".slice(0)) === prod, column.full); // true false
 * column.intern("dev");
 * column.intern("test");
 * console.log(column.full); // true: a third distinct value, more than the limit
 * ```
 */
export class CellInterner {
  /** Two numbers per slot: 1 + the value's position (0: empty), then its hash. */
  #slots = new Int32Array(64);
  #values: string[] = [];
  readonly #limit: number;

  /** Creates an empty table. @param limit distinct values kept before the table gives up */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** True once more than `limit` distinct values were seen: the column is not worth it. */
  get full(): boolean {
    return this.#values.length > this.#limit;
  }

  /**
   * The kept string equal to `cell`, or `cell` itself (then kept, unless the table is full).
   */
  intern(cell: string): string {
    return this.internSpan(cell, 0, cell.length);
  }

  /**
   * {@link CellInterner.intern} of `text.slice(start, end)`, without cutting that string out
   * of `text` when an equal one is kept already.
   */
  internSpan(text: string, start: number, end: number): string {
    const hash = hashSpan(text, start, end, FNV_BASIS);
    const length = end - start;
    let slots = this.#slots;
    let mask = slots.length - 2;
    let i = (hash << 1) & mask;
    for (;; i = (i + 2) & mask) {
      const slot = slots[i];
      if (slot === 0) break;
      if (slots[i + 1] === hash) {
        const value = this.#values[slot - 1];
        if (value.length === length && text.startsWith(value, start)) return value;
      }
    }
    const cell = start === 0 && end === text.length ? text : text.slice(start, end);
    if (this.full) return cell;
    this.#values.push(cell);
    if (this.#values.length * 4 > slots.length) {
      slots = this.#grow();
      mask = slots.length - 2;
      for (i = (hash << 1) & mask; slots[i] !== 0; i = (i + 2) & mask);
    }
    slots[i] = this.#values.length;
    slots[i + 1] = hash;
    return cell;
  }

  /** Doubles the slots and places the values but the last (placed by the caller). */
  #grow(): Int32Array<ArrayBuffer> {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length - 2;
    for (let k = 0; k < old.length; k += 2) {
      if (old[k] === 0) continue;
      let i = (old[k + 1] << 1) & mask;
      while (slots[i] !== 0) i = (i + 2) & mask;
      slots[i] = old[k];
      slots[i + 1] = old[k + 1];
    }
    this.#slots = slots;
    return slots;
  }
}

/** The end of the cell hash (FNV-1a over the UTF-16 code units, then this avalanche). */
