/**
 * The vault server's state file on disk (reference AC60): read once at start, replaced
 * atomically on every change (temp file in the same folder with mode 0600, fsync, rename, fsync
 * of the folder), so a crash leaves either the old or the new state, never a torn one.
 *
 * @module
 */
import type { VaultStore } from "../../vault/state.ts";

/**
 * A {@link VaultStore} backed by one JSON file.
 *
 * @example
 * ```ts ignore
 * import { FileVaultStore } from "./vault_store.ts";
 * import { VaultServer } from "../../vault/server.ts";
 * const vault = await VaultServer.open(new FileVaultStore("./vault.json"));
 * ```
 */
export class FileVaultStore implements VaultStore {
  /** The file path. */
  readonly location: string;

  /** Creates the store. @param path the state file (created when missing) */
  constructor(path: string) {
    this.location = path;
  }

  /** The file's text, or `undefined` when it does not exist. */
  async load(): Promise<string | undefined> {
    try {
      return await Deno.readTextFile(this.location);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return undefined;
      throw e;
    }
  }

  /** Replaces the file atomically and durably. */
  async save(text: string): Promise<void> {
    const slash = this.location.lastIndexOf("/");
    const dir = slash >= 0 ? this.location.slice(0, slash) || "/" : ".";
    const base = this.location.slice(slash + 1);
    await Deno.mkdir(dir, { recursive: true });
    const tmp = `${dir}/.${base}.${crypto.randomUUID()}.tmp`;
    const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
      const bytes = new TextEncoder().encode(text);
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    try {
      await Deno.rename(tmp, this.location);
    } catch (e) {
      await Deno.remove(tmp).catch(() => {});
      throw e;
    }
    const folder = await Deno.open(dir, { read: true });
    try {
      await folder.sync();
    } finally {
      folder.close();
    }
  }
}
