/**
 * File-system Workspace adapter for Deno. This is one of the few files allowed to use `Deno.*`.
 *
 * @module
 */
import { joinPath, normalizeWorkspacePath, type Workspace } from "./workspace.ts";

/**
 * A Workspace rooted at a directory on disk. Writes are atomic (temp file in the same folder,
 * fsync, rename) and serialised per file, so concurrent writers never interleave or lose data.
 *
 * @example
 * ```ts ignore
 * import { DenoFsWorkspace } from "./deno_fs.ts";
 * const ws = new DenoFsWorkspace("./data");
 * console.log(await ws.listFiles("assets"));
 * ```
 */
export class DenoFsWorkspace implements Workspace {
  /** The root directory. */
  readonly location: string;
  readonly #root: string;
  readonly #locks = new Map<string, Promise<void>>();

  /** Creates a workspace rooted at `root`. @param root directory on disk */
  constructor(root: string) {
    this.#root = root.replace(/\/+$/, "") || "/";
    this.location = this.#root;
  }

  #abs(path: string): string {
    return `${this.#root}/${normalizeWorkspacePath(path)}`;
  }

  /** Text of the file at `path`, or `undefined` when it does not exist. */
  async readText(path: string): Promise<string | undefined> {
    try {
      return await Deno.readTextFile(this.#abs(path));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory) {
        return undefined;
      }
      throw e;
    }
  }

  /** Every regular file below `dir` (symlinked directories are not followed), sorted. */
  async listFiles(dir: string): Promise<string[]> {
    const out: string[] = [];
    const start = dir === "" ? "" : normalizeWorkspacePath(dir);
    const walk = async (rel: string): Promise<void> => {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(rel === "" ? this.#root : this.#abs(rel)));
      } catch (e) {
        if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return;
        throw e;
      }
      for (const entry of entries) {
        const child = joinPath(rel, entry.name);
        if (entry.isDirectory) await walk(child);
        else if (entry.isFile) out.push(child);
        else if (entry.isSymlink) {
          // Follow links only when they stay plain files; never traverse linked directories.
          try {
            const info = await Deno.stat(this.#abs(child));
            if (info.isFile) out.push(child);
          } catch { /* dangling link: ignore */ }
        }
      }
    };
    await walk(start);
    return out.sort();
  }

  /** Writes atomically (temp file, fsync, rename), serialised per file. */
  writeTextAtomic(path: string, text: string): Promise<void> {
    const key = normalizeWorkspacePath(path);
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.#write(key, text));
    this.#locks.set(key, next);
    return next.finally(() => {
      if (this.#locks.get(key) === next) this.#locks.delete(key);
    });
  }

  async #write(path: string, text: string): Promise<void> {
    const target = this.#abs(path);
    const dir = target.slice(0, target.lastIndexOf("/"));
    await Deno.mkdir(dir, { recursive: true });
    const tmp = `${dir}/.${target.slice(dir.length + 1)}.${crypto.randomUUID()}.tmp`;
    const file = await Deno.open(tmp, { write: true, createNew: true });
    try {
      const bytes = new TextEncoder().encode(text);
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    try {
      await Deno.rename(tmp, target);
    } catch (e) {
      await Deno.remove(tmp).catch(() => {});
      throw e;
    }
  }
}
