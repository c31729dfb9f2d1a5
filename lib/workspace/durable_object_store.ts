/**
 * The {@link KvStore} of a Cloudflare Durable Object: its transactional storage
 * (`ctx.storage` / `state.storage`), so that a {@link KvWorkspace} — and every write made
 * through graphsvc's API — outlives the isolate. One Durable Object holds one workspace; every
 * request for it runs in that object, so writes are serialised there and the engine builds once.
 *
 * Limits respected: 128 keys per `get`/`put`/`delete`, values of at most 128 KiB (chunks of
 * 32,768 UTF-16 code units: at most 64 KiB serialised, well inside), and a `put` of several keys
 * is atomic.
 *
 * @module
 */
import type { KvStore } from "./kv.ts";

/** The part of Durable Object storage used here (`DurableObjectStorage` in Workers' types). */
export interface DurableObjectStorageLike {
  /** Values of `keys`. */
  get(keys: string[]): Promise<Map<string, unknown>>;
  /** Entries with a key starting with `options.prefix`, in key order. */
  list(options: { prefix: string }): Promise<Map<string, unknown>>;
  /** Puts every entry atomically. */
  put(entries: Record<string, unknown>): Promise<void>;
  /** Deletes `keys`; the number deleted. */
  delete(keys: string[]): Promise<number>;
}

/**
 * A {@link KvStore} over a Durable Object's storage.
 *
 * @example
 * ```ts ignore
 * import { durableObjectStore } from "./durable_object_store.ts";
 * import { KvWorkspace } from "./kv.ts";
 * export class Graph {
 *   constructor(state: { storage: DurableObjectStorageLike }) {
 *     this.workspace = new KvWorkspace(durableObjectStore(state.storage), "durable-object:");
 *   }
 * }
 * ```
 */
export function durableObjectStore(storage: DurableObjectStorageLike): KvStore {
  return {
    maxBatch: 128,
    maxValueLength: 32_768,
    async get(keys) {
      const out = new Map<string, string>();
      if (keys.length === 0) return out;
      for (const [k, v] of await storage.get([...keys])) {
        if (typeof v === "string") out.set(k, v);
      }
      return out;
    },
    async listKeys(prefix) {
      return [...(await storage.list({ prefix })).keys()];
    },
    async put(entries) {
      if (entries.size > 0) await storage.put(Object.fromEntries(entries));
    },
    async delete(keys) {
      if (keys.length > 0) await storage.delete([...keys]);
    },
  };
}
