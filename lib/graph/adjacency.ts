/**
 * Relations per resource id (one direction), in creation order, stored compactly: while a graph
 * is built every resource's list is a plain array kept at its exact length while short (a pushed
 * array reserves 16 spare slots, most of the memory of a list of two or three), and once the
 * graph is sealed all lists are packed into two typed arrays (CSR: offsets per resource, relation
 * ids) and the per-resource arrays are dropped.
 *
 * @module
 */
import { setById } from "./dense.ts";

/** Lists up to this length grow by an exact copy; longer ones by `push` (amortised). */
const EXACT_UP_TO = 16;

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * Relation lists of one direction (outgoing or incoming), keyed by resource id.
 *
 * @example
 * ```ts
 * import { Adjacency } from "./adjacency.ts";
 * const relations = [{ id: 0 }, { id: 1 }];
 * const out = new Adjacency<{ id: number }>();
 * out.add(7, relations[0]);
 * out.add(7, relations[1]);
 * out.pack(8, (id) => relations[id]);
 * console.log(out.get(7).length); // 2
 * ```
 */
export class Adjacency<T extends { readonly id: number }> {
  #lists: (T[] | undefined)[] = [];
  #offsets: Int32Array | undefined;
  #ids: Int32Array | undefined;
  #byId: ((id: number) => T) | undefined;

  /** Appends `value` to the list of `id`; returns the list (valid until the next change). */
  add(id: number, value: T): readonly T[] {
    const list = this.#lists[id];
    if (!list) {
      const fresh = [value];
      setById(this.#lists, id, fresh);
      return fresh;
    }
    const n = list.length;
    if (n >= EXACT_UP_TO) {
      list.push(value);
      return list;
    }
    const grown = new Array<T>(n + 1);
    for (let i = 0; i < n; i++) grown[i] = list[i];
    grown[n] = value;
    this.#lists[id] = grown;
    return grown;
  }

  /** Removes `value` from the list of `id` (order of the others kept). */
  remove(id: number, value: T): void {
    const list = this.#lists[id];
    if (!list) return;
    const i = list.indexOf(value);
    if (i >= 0) list.splice(i, 1);
  }

  /**
   * The list of `id`. While building this is the live array (do not keep it across changes);
   * once packed, a fresh array per call.
   */
  get(id: number): readonly T[] {
    const ids = this.#ids;
    if (ids) {
      const offsets = this.#offsets!;
      if (id + 1 >= offsets.length) return EMPTY;
      const start = offsets[id];
      const end = offsets[id + 1];
      if (start === end) return EMPTY;
      const byId = this.#byId!;
      const out = new Array<T>(end - start);
      for (let i = start; i < end; i++) out[i - start] = byId(ids[i]);
      return out;
    }
    return this.#lists[id] ?? EMPTY;
  }

  /** Number of entries in the list of `id`. */
  count(id: number): number {
    const offsets = this.#offsets;
    if (offsets) return id + 1 < offsets.length ? offsets[id + 1] - offsets[id] : 0;
    return this.#lists[id]?.length ?? 0;
  }

  /**
   * Packs every list into typed arrays and drops the per-resource arrays; no change is possible
   * afterwards. `resources` bounds the ids, `byId` turns a stored id back into its value.
   */
  pack(resources: number, byId: (id: number) => T): void {
    if (this.#ids) return;
    const lists = this.#lists;
    const offsets = new Int32Array(resources + 1);
    let total = 0;
    for (let id = 0; id < resources; id++) {
      offsets[id] = total;
      total += lists[id]?.length ?? 0;
    }
    offsets[resources] = total;
    const ids = new Int32Array(total);
    let at = 0;
    for (let id = 0; id < resources; id++) {
      const list = lists[id];
      if (list) { for (const value of list) ids[at++] = value.id; }
    }
    this.#offsets = offsets;
    this.#ids = ids;
    this.#byId = byId;
    this.#lists = [];
  }
}
