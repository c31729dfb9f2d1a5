/**
 * Atomic, durable file replacement on disk: the new text goes to a temporary file in the same
 * folder (named `.<name>.<uuid>.tmp`, so it never ends in the target's extension), is synced,
 * renamed over the target, and the folder is synced so the rename itself survives a crash. A
 * reader sees either the old file or the new one, never a torn one.
 *
 * @module
 */

/** Options of {@link stageTempFile} and {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * Permission bits of the file (e.g. `0o600` for a private one), set exactly: the process's
   * umask does not apply.
   */
  mode?: number;
}

/**
 * Writes `text` to a new temporary file next to `target` and syncs it; returns its path. The
 * caller renames it over `target` (or removes it). The folder must exist.
 *
 * @example
 * ```ts ignore
 * import { stageTempFile } from "./atomic_file.ts";
 * const tmp = await stageTempFile("/data/assets/host.csv", "name\nweb-1\n");
 * await Deno.rename(tmp, "/data/assets/host.csv");
 * ```
 */
export async function stageTempFile(
  target: string,
  text: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<string> {
  const { dir, base } = splitPath(target);
  const tmp = `${dir}/.${base}.${crypto.randomUUID()}.tmp`;
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: options.mode });
  try {
    if (options.mode !== undefined) await Deno.chmod(tmp, options.mode);
    const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } catch (e) {
    file.close();
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  file.close();
  return tmp;
}

/**
 * Syncs a folder, so that renames and new entries in it are on disk.
 *
 * @example
 * ```ts ignore
 * import { syncFolder } from "./atomic_file.ts";
 * await syncFolder("/data/assets");
 * ```
 */
export async function syncFolder(dir: string): Promise<void> {
  const folder = await Deno.open(dir, { read: true });
  try {
    await folder.sync();
  } finally {
    folder.close();
  }
}

/**
 * Replaces `path` with `text` (or bytes) atomically and durably (temp file, fsync, rename, fsync of the
 * folder), creating the folder when it is missing.
 *
 * @example
 * ```ts ignore
 * import { writeFileAtomic } from "./atomic_file.ts";
 * await writeFileAtomic("./vault.json", "{}", { mode: 0o600 });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  text: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await Deno.mkdir(splitPath(path).dir, { recursive: true });
  const tmp = await stageTempFile(path, text, options);
  try {
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  await syncFolder(splitPath(path).dir);
}

/** The folder (`.` for a bare name, `/` at the root) and the last segment of a path. */
function splitPath(path: string): { dir: string; base: string } {
  const slash = path.lastIndexOf("/");
  return {
    dir: slash >= 0 ? path.slice(0, slash) || "/" : ".",
    base: path.slice(slash + 1),
  };
}
