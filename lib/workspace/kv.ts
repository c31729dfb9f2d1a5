/**
 * A Workspace over a key-value store, so that writes at the edge outlive the isolate that made
 * them (Cloudflare Durable Objects storage, Deno KV, any store with atomic batched puts).
 *
 * Stores limit the size of one value (Durable Objects 128 KiB, Deno KV 64 KiB), and asset files
 * are larger, so each file is kept as chunks plus one small manifest entry:
 *
 * - `f/<path>` → `{"v":<version>,"n":<chunks>}`: the file exists and which chunks hold it;
 * - `c/<path>\0<version>/<i>` → the text of chunk `i` (NUL never occurs in a workspace path, so
 *   the chunks of one path are the keys with the prefix `c/<path>\0`).
 *
 * A write puts the new chunks under a fresh version first, then every manifest of the write in
 * one atomic batch, then deletes the old chunks. A reader (or a crash) between the steps sees
 * either the old or the new file, never a mix; a crash before the deletes leaves unreferenced
 * chunks, which the next write of that path removes. A multi-file write (`writeTextsAtomic`) is
 * atomic as long as its manifests fit in one batch of the store.
 *
 * @module
 */
import { normalizeWorkspacePath, type Workspace } from "./workspace.ts";

/** The operations a {@link KvWorkspace} needs of a store. Keys and values are strings. */
export interface KvStore {
  /** Values of `keys` (at most {@link KvStore.maxBatch}); missing keys are absent. */
  get(keys: readonly string[]): Promise<Map<string, string>>;
  /** Every key starting with `prefix`, sorted. */
  listKeys(prefix: string): Promise<string[]>;
  /** Puts every entry (at most {@link KvStore.maxBatch}) atomically: all or none. */
  put(entries: ReadonlyMap<string, string>): Promise<void>;
  /** Deletes `keys` (at most {@link KvStore.maxBatch}). */
  delete(keys: readonly string[]): Promise<void>;
  /** Largest number of keys one call may take. */
  readonly maxBatch: number;
  /** Largest string length (UTF-16 code units) one value may have. */
  readonly maxValueLength: number;
}

const FILE = "f/";
const CHUNK = "c/";

interface FileEntry {
  v: string;
  n: number;
}

function chunkPrefix(path: string): string {
  return `${CHUNK}${path}\0`;
}

function chunkKey(version: string, i: number, path: string): string {
  return `${chunkPrefix(path)}${version}/${i}`;
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Splits `text` into pieces of at most `max` code units, never inside a surrogate pair. */
function chunks(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + max, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * A Workspace kept in a {@link KvStore}.
 *
 * @example
 * ```ts
 * import { KvWorkspace, MapKvStore } from "./kv.ts";
 * const ws = new KvWorkspace(new MapKvStore());
 * await ws.seed({ "assets/host.csv": "name\nweb-1\n" });
 * await ws.writeTextAtomic("assets/host.csv", "name\nweb-2\n");
 * console.log(await ws.readText("assets/host.csv")); // "name\nweb-2\n"
 * ```
 */
export class KvWorkspace implements Workspace {
  /** Label used in messages. */
  readonly location: string;
  readonly #store: KvStore;
  #counter = 0;

  /** Creates the workspace. @param store where files are kept @param location label used in messages */
  constructor(store: KvStore, location = "kv:") {
    if (store.maxBatch < 2 || store.maxValueLength < 128) {
      throw new RangeError("a KvStore must take batches of 2 keys and values of 128 characters");
    }
    this.#store = store;
    this.location = location;
  }

  /** Writes `files` when the store holds no file yet; returns whether it did. */
  async seed(files: Readonly<Record<string, string>>): Promise<boolean> {
    if ((await this.#store.listKeys(FILE)).length > 0) return false;
    await this.writeTextsAtomic(
      Object.entries(files).map(([path, text]) => ({ path, text })),
    );
    return true;
  }

  /** Text of the file at `path`, or `undefined`. */
  async readText(path: string): Promise<string | undefined> {
    const p = normalizeWorkspacePath(path);
    const raw = (await this.#store.get([FILE + p])).get(FILE + p);
    if (raw === undefined) return undefined;
    const entry = JSON.parse(raw) as FileEntry;
    const keys = Array.from({ length: entry.n }, (_, i) => chunkKey(entry.v, i, p));
    const parts: string[] = [];
    for (const batch of batches(keys, this.#store.maxBatch)) {
      const got = await this.#store.get(batch);
      for (const key of batch) {
        const part = got.get(key);
        if (part === undefined) throw new Error(`${this.location} ${p}: chunk ${key} is missing`);
        parts.push(part);
      }
    }
    return parts.join("");
  }

  /** Files below `dir`, sorted. */
  async listFiles(dir: string): Promise<string[]> {
    const prefix = dir === "" ? "" : normalizeWorkspacePath(dir) + "/";
    const keys = await this.#store.listKeys(FILE + prefix);
    return keys.map((k) => k.slice(FILE.length)).sort();
  }

  /** Stores `text` at `path`: readers see the old text or the new one, never a mix. */
  writeTextAtomic(path: string, text: string): Promise<void> {
    return this.writeTextsAtomic([{ path, text }]);
  }

  /**
   * Stores several files as one: their manifests change in one atomic batch (a write of more
   * files than the store's batch size is atomic per batch only).
   */
  async writeTextsAtomic(files: readonly { path: string; text: string }[]): Promise<void> {
    const store = this.#store;
    const version = `${Date.now().toString(36)}-${(this.#counter++).toString(36)}-${
      crypto.randomUUID().slice(0, 8)
    }`;
    const manifests = new Map<string, string>();
    const chunkEntries: [string, string][] = [];
    const seen = new Set<string>();
    for (const { path, text } of files) {
      const p = normalizeWorkspacePath(path);
      if (seen.has(p)) throw new Error(`${this.location}: ${p} is written twice in one write`);
      seen.add(p);
      const parts = chunks(text, store.maxValueLength);
      parts.forEach((part, i) => chunkEntries.push([chunkKey(version, i, p), part]));
      manifests.set(FILE + p, JSON.stringify({ v: version, n: parts.length }));
    }
    const old = await this.#oldChunks([...seen]);
    for (const batch of batches(chunkEntries, store.maxBatch)) await store.put(new Map(batch));
    for (const batch of batches([...manifests], store.maxBatch)) await store.put(new Map(batch));
    for (const batch of batches(old, store.maxBatch)) await store.delete(batch);
  }

  /** Chunk keys of `paths` before the write: old versions and debris of interrupted writes. */
  async #oldChunks(paths: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const path of paths) out.push(...await this.#store.listKeys(chunkPrefix(path)));
    return out;
  }
}

/**
 * A {@link KvStore} in a `Map`: for tests, and as the reference of the port's contract.
 *
 * @example
 * ```ts
 * import { MapKvStore } from "./kv.ts";
 * const store = new MapKvStore();
 * await store.put(new Map([["a", "1"]]));
 * console.log(await store.listKeys("")); // ["a"]
 * ```
 */
export class MapKvStore implements KvStore {
  /** The entries, for inspection in tests. */
  readonly entries: Map<string, string> = new Map();
  /** Largest number of keys one call may take. */
  readonly maxBatch: number;
  /** Largest value length. */
  readonly maxValueLength: number;

  /** Creates an empty store. @param maxBatch keys per call @param maxValueLength characters per value */
  constructor(maxBatch = 128, maxValueLength = 32_768) {
    this.maxBatch = maxBatch;
    this.maxValueLength = maxValueLength;
  }

  #check(n: number): void {
    if (n > this.maxBatch) throw new RangeError(`${n} keys exceed the batch of ${this.maxBatch}`);
  }

  /** Values of `keys`. */
  get(keys: readonly string[]): Promise<Map<string, string>> {
    this.#check(keys.length);
    const out = new Map<string, string>();
    for (const k of keys) {
      const v = this.entries.get(k);
      if (v !== undefined) out.set(k, v);
    }
    return Promise.resolve(out);
  }

  /** Keys starting with `prefix`, sorted. */
  listKeys(prefix: string): Promise<string[]> {
    return Promise.resolve([...this.entries.keys()].filter((k) => k.startsWith(prefix)).sort());
  }

  /** Puts every entry. */
  put(entries: ReadonlyMap<string, string>): Promise<void> {
    this.#check(entries.size);
    for (const [k, v] of entries) {
      if (v.length > this.maxValueLength) {
        throw new RangeError(`value of ${k} exceeds ${this.maxValueLength} characters`);
      }
    }
    for (const [k, v] of entries) this.entries.set(k, v);
    return Promise.resolve();
  }

  /** Deletes `keys`. */
  delete(keys: readonly string[]): Promise<void> {
    this.#check(keys.length);
    for (const k of keys) this.entries.delete(k);
    return Promise.resolve();
  }
}
