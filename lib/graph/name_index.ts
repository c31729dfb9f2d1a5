/**
 * The resources of one type by name: an open-addressing hash table in insertion order, whose
 * names are compared against a copy of their characters kept in one typed array.
 *
 * Why not a `Map<string, Resource>`: the names a build looks up are fresh strings (cut from CSV
 * text, split from list cells), and V8 makes the first `Map` operation on a fresh string look it
 * up in (and often add it to) the engine's global string table — measured at 100k resources,
 * a few hundred ns per name, more than the rest of the lookup. Hashing the characters here and
 * comparing them with the compact copy also leaves the resource objects and their name strings
 * (scattered over the heap) untouched while looking up: auto-linking asks for the id and the
 * name string of the target only (see `Graph.linkByName`).
 *
 * Robust against unlucky or crafted names: each table hashes with its own random seed and picks a
 * new one when an insertion has to probe unusually far.
 *
 * @module
 */
import { grown } from "./dense.ts";
import { FNV_BASIS, hashCodeUnits, hashSpan } from "./hash.ts";

/** Slots probed by an insertion before the table is rehashed with a new seed. */
const LONG_PROBE = 64;

/**
 * Values keyed by their `name`, in insertion order.
 *
 * @example
 * ```ts
 * import { NameIndex } from "./name_index.ts";
 * const index = new NameIndex<{ name: string; id: number }>();
 * index.add({ name: "web-1", id: 7 });
 * index.add({ name: "db-1", id: 8 });
 * const at = index.find("db-1");
 * console.log(index.get("web-1")?.id, index.idAt(at), index.size); // 7 8 2
 * index.delete("web-1");
 * console.log(index.values().map((v) => v.name)); // ["db-1"]
 * ```
 */
export class NameIndex<V extends { readonly name: string; readonly id: number }> {
  /**
   * Two numbers per slot: 1 + the entry's position (0: empty slot), then the hash of its name
   * (compared before the characters: one memory access for most mismatches).
   */
  #slots = new Int32Array(32);
  /** Entries in insertion order; a deleted entry is `undefined` until the next rebuild. */
  #entries: (V | undefined)[] = [];
  /** Per entry position: its name string, its id, the hash of its name. */
  #names: string[] = [];
  #ids = new Int32Array(8);
  #hashes = new Int32Array(8);
  /** The names' UTF-16 code units, one after the other; entry `p` at `#starts[p]..[p + 1]`. */
  #chars = new Uint16Array(64);
  #starts = new Int32Array(9);
  #size = 0;
  #seed = randomSeed();
  #reseeds = 0;

  /** Number of values. */
  get size(): number {
    return this.#size;
  }

  /** The value named `name`, if any. */
  get(name: string): V | undefined {
    const at = this.find(name);
    return at < 0 ? undefined : this.#entries[at];
  }

  /** The position of the value named `name` (for {@link idAt}, {@link nameAt}); -1 if none. */
  find(name: string): number {
    const hash = hashSpan(name, 0, name.length, this.#seed);
    const slots = this.#slots;
    const mask = slots.length - 2;
    for (let i = (hash << 1) & mask;; i = (i + 2) & mask) {
      const slot = slots[i];
      if (slot === 0) return -1;
      if (slots[i + 1] === hash && this.#entries[slot - 1] !== undefined) {
        if (this.#sameName(slot - 1, name)) return slot - 1;
      }
    }
  }

  /** The id of the value at position `at` (see {@link find}). */
  idAt(at: number): number {
    return this.#ids[at];
  }

  /** The name string of the value at position `at` (see {@link find}). */
  nameAt(at: number): string {
    return this.#names[at];
  }

  #sameName(at: number, name: string): boolean {
    const start = this.#starts[at];
    const length = name.length;
    if (this.#starts[at + 1] - start !== length) return false;
    const chars = this.#chars;
    for (let k = 0; k < length; k++) if (chars[start + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** Adds `value`; the caller guarantees that no value of the same name is present. */
  add(value: V): void {
    // At most 60% of the slots used, counting deleted entries (their slots still hold them):
    // short probe chains, in few cache lines (the slots of 10k names fit a core's cache).
    if ((this.#entries.length + 1) * 10 > this.#slots.length * 3) {
      if (this.#size < this.#entries.length) this.#rebuild(false, false);
      else this.#replace(this.#slots.length * 2);
    }
    const at = this.#entries.length;
    const name = value.name;
    if (at + 1 >= this.#ids.length) {
      this.#ids = grown(this.#ids, at + 1);
      this.#hashes = grown(this.#hashes, at + 1);
      this.#starts = grown(this.#starts, at + 1);
    }
    const start = this.#starts[at];
    if (start + name.length > this.#chars.length) {
      this.#chars = grown(this.#chars, start + name.length - 1);
    }
    const chars = this.#chars;
    for (let k = 0; k < name.length; k++) chars[start + k] = name.charCodeAt(k);
    this.#starts[at + 1] = start + name.length;
    const hash = hashSpan(name, 0, name.length, this.#seed);
    this.#entries.push(value);
    this.#names.push(name);
    this.#ids[at] = value.id;
    this.#hashes[at] = hash;
    this.#size++;
    if (!place(this.#slots, hash, at) && this.#reseeds < 8) {
      // An unusually long probe: names that collide under this seed; rehash with another.
      this.#reseeds++;
      this.#seed = randomSeed();
      this.#rebuild(false, true);
    }
  }

  /** Removes the value named `name`; true when there was one. */
  delete(name: string): boolean {
    const at = this.find(name);
    if (at < 0) return false;
    // Its slot keeps pointing at the emptied entry, so probe chains through it stay intact.
    this.#entries[at] = undefined;
    this.#size--;
    return true;
  }

  /** The values in insertion order (a fresh array). */
  values(): V[] {
    // Without removals the entries are the values: one copy, no growth.
    if (this.#size === this.#entries.length) return this.#entries.slice() as V[];
    const out: V[] = [];
    for (const entry of this.#entries) if (entry !== undefined) out.push(entry);
    return out;
  }

  /**
   * A table with the same names in which `values` replace the values of their names (each must
   * keep the `name` and `id` of the value it replaces): the hashed names are shared, only the list
   * of values is copied. For deriving a snapshot whose resources differ only in properties;
   * neither table may change afterwards.
   *
   * @example
   * ```ts
   * import { NameIndex } from "./name_index.ts";
   * const a = new NameIndex<{ name: string; id: number; v: number }>();
   * a.add({ name: "x", id: 0, v: 1 });
   * a.add({ name: "y", id: 1, v: 1 });
   * const b = a.replacing([{ name: "y", id: 1, v: 2 }]);
   * console.log(a.get("y")?.v, b.get("y")?.v, b.get("x") === a.get("x")); // 1 2 true
   * ```
   */
  replacing(values: Iterable<V>): NameIndex<V> {
    const entries = this.#entries.slice();
    for (const value of values) {
      const at = this.find(value.name);
      if (at < 0) throw new Error(`replacing: no value named '${value.name}'`);
      entries[at] = value;
    }
    const out = new NameIndex<V>();
    out.#slots = this.#slots;
    out.#entries = entries;
    out.#names = this.#names;
    out.#ids = this.#ids;
    out.#hashes = this.#hashes;
    out.#chars = this.#chars;
    out.#starts = this.#starts;
    out.#size = this.#size;
    out.#seed = this.#seed;
    out.#reseeds = this.#reseeds;
    return out;
  }

  /**
   * A table with the same names in the same places whose values are `values` (the values of
   * {@link values}, in that order, each with the same name, the id free to differ): only the
   * values and their ids are copied. For a snapshot whose resources moved to other ids (rows
   * added or removed before them); neither table may change afterwards.
   *
   * @example
   * ```ts
   * import { NameIndex } from "./name_index.ts";
   * const a = new NameIndex<{ name: string; id: number }>();
   * a.add({ name: "x", id: 0 });
   * const b = a.renumbered([{ name: "x", id: 5 }]);
   * console.log(a.get("x")?.id, b.get("x")?.id, b.idAt(b.find("x"))); // 0 5 5
   * ```
   */
  renumbered(values: readonly V[]): NameIndex<V> {
    if (this.#size !== this.#entries.length || values.length !== this.#size) {
      throw new Error("renumbered: the table must hold exactly the given values");
    }
    const ids = new Int32Array(this.#ids.length);
    for (let at = 0; at < values.length; at++) {
      if (values[at].name !== this.#names[at]) throw new Error("renumbered: names differ");
      ids[at] = values[at].id;
    }
    const out = new NameIndex<V>();
    out.#slots = this.#slots;
    out.#entries = values.slice();
    out.#names = this.#names;
    out.#ids = ids;
    out.#hashes = this.#hashes;
    out.#chars = this.#chars;
    out.#starts = this.#starts;
    out.#size = this.#size;
    out.#seed = this.#seed;
    out.#reseeds = this.#reseeds;
    return out;
  }

  /**
   * A table holding `values` — this table's values in its order, each with the same name and
   * the id free to differ, followed by new values whose names it lacks — built by copying this
   * table's hashed names and adding only the new ones; `undefined` when `values` do not start
   * with this table's names in its order (or it has deleted entries). For a snapshot with rows
   * appended to a type (every earlier name kept in place); this table does not change.
   *
   * @example
   * ```ts
   * import { NameIndex } from "./name_index.ts";
   * const a = new NameIndex<{ name: string; id: number }>();
   * a.add({ name: "x", id: 0 });
   * const b = a.extended([{ name: "x", id: 3 }, { name: "y", id: 4 }])!;
   * console.log(a.size, b.size, b.get("x")?.id, b.idAt(b.find("y"))); // 1 2 3 4
   * console.log(a.extended([{ name: "y", id: 0 }])); // undefined
   * ```
   */
  extended(values: readonly V[]): NameIndex<V> | undefined {
    const n = this.#size;
    if (n !== this.#entries.length || values.length < n) return undefined;
    for (let at = 0; at < n; at++) if (values[at].name !== this.#names[at]) return undefined;
    const out = new NameIndex<V>();
    out.#slots = this.#slots.slice();
    out.#entries = values.slice(0, n);
    out.#names = this.#names.slice();
    out.#ids = this.#ids.slice();
    out.#hashes = this.#hashes.slice();
    out.#chars = this.#chars.slice();
    out.#starts = this.#starts.slice();
    out.#size = n;
    out.#seed = this.#seed;
    out.#reseeds = this.#reseeds;
    for (let at = 0; at < n; at++) out.#ids[at] = values[at].id;
    for (let at = n; at < values.length; at++) {
      if (out.find(values[at].name) >= 0) {
        throw new Error(`extended: '${values[at].name}' twice`);
      }
      out.add(values[at]);
    }
    return out;
  }

  /** Shrinks the storage to the values held (for a table that no longer grows). */
  compact(): void {
    if (this.#size < this.#entries.length) {
      this.#rebuild(true, false);
      return;
    }
    const n = this.#size;
    this.#entries = this.#entries.slice();
    this.#names = this.#names.slice();
    this.#ids = this.#ids.slice(0, n + 1);
    this.#hashes = this.#hashes.slice(0, n + 1);
    this.#starts = this.#starts.slice(0, n + 2);
    this.#chars = this.#chars.slice(0, this.#starts[n]);
    if (slotsFor(n, 4) < this.#slots.length) this.#replace(slotsFor(n, 4));
  }

  /** Places every entry (none deleted) into new slots of `length` numbers. */
  #replace(length: number): void {
    const slots = new Int32Array(length);
    const hashes = this.#hashes;
    for (let at = 0; at < this.#entries.length; at++) place(slots, hashes[at], at);
    this.#slots = slots;
  }

  /**
   * Drops deleted entries and re-places the others in slots sized for growth, or, when `exact`,
   * for the values held; `rehash` recomputes the hashes (after a change of seed).
   */
  #rebuild(exact: boolean, rehash: boolean): void {
    const entries = this.#entries;
    const n = this.#size;
    const live: V[] = [];
    const names: string[] = [];
    const room = exact ? n + 1 : Math.max(8, n * 2);
    const ids = new Int32Array(room);
    const hashes = new Int32Array(room);
    const starts = new Int32Array(room + 1);
    const oldStarts = this.#starts;
    const oldChars = this.#chars;
    let used = 0;
    for (let p = 0; p < entries.length; p++) {
      if (entries[p] !== undefined) used += oldStarts[p + 1] - oldStarts[p];
    }
    const chars = new Uint16Array(exact ? used : Math.max(64, used * 2));
    used = 0;
    for (let p = 0; p < entries.length; p++) {
      const entry = entries[p];
      if (entry === undefined) continue;
      const k = live.length;
      live.push(entry);
      names.push(this.#names[p]);
      ids[k] = this.#ids[p];
      const from = oldStarts[p];
      const to = oldStarts[p + 1];
      chars.set(oldChars.subarray(from, to), used);
      starts[k] = used;
      used += to - from;
      starts[k + 1] = used;
      hashes[k] = rehash ? hashCodeUnits(chars, starts[k], used, this.#seed) : this.#hashes[p];
    }
    const slots = new Int32Array(slotsFor(n, exact ? 4 : 8));
    for (let k = 0; k < n; k++) place(slots, hashes[k], k);
    this.#slots = slots;
    this.#entries = live;
    this.#names = names;
    this.#ids = ids;
    this.#hashes = hashes;
    this.#chars = chars;
    this.#starts = starts;
  }
}

/** Length of a slot array for `n` entries, `perEntry` numbers each (2 per slot): a power of 2. */
function slotsFor(n: number, perEntry: number): number {
  let length = 32;
  while (length < (n + 1) * perEntry) length *= 2;
  return length;
}

/** Puts entry `at` into the first free slot of its probe chain; false if it probed far. */
function place(slots: Int32Array, hash: number, at: number): boolean {
  const mask = slots.length - 2;
  let i = (hash << 1) & mask;
  let probes = 0;
  while (slots[i] !== 0) {
    i = (i + 2) & mask;
    probes++;
  }
  slots[i] = at + 1;
  slots[i + 1] = hash;
  return probes < LONG_PROBE;
}

function randomSeed(): number {
  return (FNV_BASIS ^ Math.floor(Math.random() * 0x100000000)) | 0;
}
