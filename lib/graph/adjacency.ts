/**
 * Relations per resource id (one direction), in creation order, without an array per resource:
 * while a graph is built each resource's list is a singly linked list threaded through typed
 * arrays (newest first: head per resource id, next per relation id), so adding a relation
 * allocates nothing; once the graph is sealed all lists are packed into two typed arrays (CSR:
 * offsets per resource, relation ids in creation order).
 *
 * @module
 */
import { grown } from "./dense.ts";

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * Relation lists of one direction (outgoing or incoming), keyed by resource id. Entries are
 * relation ids; `byId` turns them back into relations.
 *
 * @example
 * ```ts
 * import { Adjacency } from "./adjacency.ts";
 * const relations = [{ id: 0 }, { id: 1 }];
 * const out = new Adjacency<{ id: number }>((id) => relations[id]);
 * out.add(7, 0);
 * out.add(7, 1);
 * console.log(out.get(7).map((r) => r.id)); // [0, 1]
 * out.pack(8);
 * console.log(out.get(7).map((r) => r.id)); // [0, 1]
 * ```
 */
export class Adjacency<T> {
  readonly #byId: (id: number) => T;
  /** Building: per resource id, 1 + the newest relation id of its list (0: empty). */
  #head = new Int32Array(16);
  /** Building: per relation id, 1 + the next older relation id of its list (0: end). */
  #next = new Int32Array(16);
  /** Building: per resource id, the length of its list. */
  #count = new Int32Array(16);
  /** Packed: per resource id, where its relation ids start in `#ids` (one more for the end). */
  #offsets: Int32Array | undefined;
  #ids: Int32Array | undefined;

  /** Creates empty lists. @param byId the relation of a relation id */
  constructor(byId: (id: number) => T) {
    this.#byId = byId;
  }

  /**
   * Packed lists equal to these, reading relations through `byId` (the packed arrays are shared:
   * neither may change, which packed lists never do). Throws when not packed.
   */
  sharedWith<U>(byId: (id: number) => U): Adjacency<U> {
    if (!this.#ids) throw new Error("Adjacency.sharedWith: the lists are not packed");
    const out = new Adjacency<U>(byId);
    out.#offsets = this.#offsets;
    out.#ids = this.#ids;
    out.#head = out.#next = out.#count = new Int32Array(0);
    return out;
  }

  /**
   * Packed lists given as CSR arrays: the list of resource `id` is `ids[offsets[id]..offsets[id
   * + 1])` (relation ids in creation order). The arrays are taken over and must not change.
   *
   * @example
   * ```ts
   * import { Adjacency } from "./adjacency.ts";
   * const relations = [{ id: 0 }, { id: 1 }];
   * const a = Adjacency.packed((id) => relations[id], Int32Array.of(0, 0, 2), Int32Array.of(0, 1));
   * console.log(a.get(1).map((r) => r.id)); // [0, 1]
   * ```
   */
  static packed<U>(byId: (id: number) => U, offsets: Int32Array, ids: Int32Array): Adjacency<U> {
    const out = new Adjacency<U>(byId);
    out.#offsets = offsets;
    out.#ids = ids;
    out.#head = out.#next = out.#count = new Int32Array(0);
    return out;
  }

  /**
   * Packed: the CSR arrays themselves (the list of resource `id` is `ids[offsets[id]..offsets[id
   * + 1])`, and `offsets` may be shorter than the resources: missing lists are empty), for bulk
   * passes that would otherwise make a view per list. They must not be changed. Throws when not
   * packed.
   *
   * @example
   * ```ts
   * import { Adjacency } from "./adjacency.ts";
   * const a = Adjacency.packed((id) => ({ id }), Int32Array.of(0, 0, 2), Int32Array.of(0, 1));
   * console.log([...a.packedArrays().offsets]); // [0, 0, 2]
   * ```
   */
  packedArrays(): { offsets: Int32Array; ids: Int32Array } {
    if (!this.#ids) throw new Error("Adjacency.packedArrays: the lists are not packed");
    return { offsets: this.#offsets!, ids: this.#ids };
  }

  /** Packed: the relation ids of the list of `id` (a view, not a copy). Throws when not packed. */
  idsOf(id: number): Int32Array {
    const offsets = this.#offsets;
    if (!offsets) throw new Error("Adjacency.idsOf: the lists are not packed");
    if (id + 1 >= offsets.length) return new Int32Array(0);
    return this.#ids!.subarray(offsets[id], offsets[id + 1]);
  }

  /** Appends relation `relationId` to the list of resource `id`; returns the new length. */
  add(id: number, relationId: number): number {
    if (id >= this.#head.length) {
      this.#head = grown(this.#head, id);
      this.#count = grown(this.#count, id);
    }
    if (relationId >= this.#next.length) this.#next = grown(this.#next, relationId);
    this.#next[relationId] = this.#head[id];
    this.#head[id] = relationId + 1;
    return ++this.#count[id];
  }

  /** Removes relation `relationId` from the list of resource `id` (others keep their order). */
  remove(id: number, relationId: number): void {
    if (id >= this.#head.length) return;
    const next = this.#next;
    let previous = -1;
    for (let r = this.#head[id] - 1; r >= 0; previous = r, r = next[r] - 1) {
      if (r !== relationId) continue;
      if (previous < 0) this.#head[id] = next[r];
      else next[previous] = next[r];
      next[r] = 0;
      this.#count[id]--;
      return;
    }
  }

  /** While building: the newest relation id of the list of `id`, -1 when empty. */
  newest(id: number): number {
    return id < this.#head.length ? this.#head[id] - 1 : -1;
  }

  /** While building: the relation id before `relationId` in its list, -1 at the end. */
  older(relationId: number): number {
    return this.#next[relationId] - 1;
  }

  /** The list of `id` in creation order, as a fresh array. */
  get(id: number): readonly T[] {
    const byId = this.#byId;
    const ids = this.#ids;
    if (ids) {
      const offsets = this.#offsets!;
      if (id + 1 >= offsets.length) return EMPTY;
      const start = offsets[id];
      const end = offsets[id + 1];
      if (start === end) return EMPTY;
      const out = new Array<T>(end - start);
      for (let i = start; i < end; i++) out[i - start] = byId(ids[i]);
      return out;
    }
    const n = this.count(id);
    if (n === 0) return EMPTY;
    const out = new Array<T>(n);
    const next = this.#next;
    let at = n;
    for (let r = this.#head[id] - 1; r >= 0; r = next[r] - 1) out[--at] = byId(r);
    return out;
  }

  /** Number of entries in the list of `id`. */
  count(id: number): number {
    const offsets = this.#offsets;
    if (offsets) return id + 1 < offsets.length ? offsets[id + 1] - offsets[id] : 0;
    return id < this.#count.length ? this.#count[id] : 0;
  }

  /**
   * Packs every list into typed arrays (creation order) and drops the linked lists; no change is
   * possible afterwards. `resources` bounds the resource ids.
   */
  pack(resources: number): void {
    if (this.#ids) return;
    const offsets = new Int32Array(resources + 1);
    let total = 0;
    for (let id = 0; id < resources; id++) {
      offsets[id] = total;
      total += this.count(id);
    }
    offsets[resources] = total;
    const ids = new Int32Array(total);
    const next = this.#next;
    for (let id = 0; id < resources; id++) {
      let at = offsets[id + 1];
      for (let r = this.newest(id); r >= 0; r = next[r] - 1) ids[--at] = r;
    }
    this.#offsets = offsets;
    this.#ids = ids;
    this.#head = this.#next = this.#count = new Int32Array(0);
  }
}
