/**
 * The vault server's state file on disk (reference AC60): read once at start, replaced
 * atomically on every change (temp file in the same folder with mode 0600, fsync, rename, fsync
 * of the folder), so a crash leaves either the old or the new state, never a torn one.
 *
 * @module
 */
import type { VaultStore } from "../../vault/state.ts";
import { writeFileAtomic } from "./atomic_file.ts";

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
    await writeFileAtomic(this.location, text, { mode: 0o600 });
  }
}
