/**
 * File-system Workspace adapter for Deno. This is one of the few files allowed to use `Deno.*`.
 *
 * @module
 */
import { joinPath, normalizeWorkspacePath, UnsafePathError, type Workspace } from "./workspace.ts";
import { decodeUtf8 } from "../formats/encoding.ts";
import { stageTempFile, syncFolder, writeFileAtomic } from "../runtime/deno/atomic_file.ts";

/**
 * A Workspace rooted at a directory on disk. Writes are atomic (temp file in the same folder,
 * fsync, rename, fsync of the folder) and serialised per file, so concurrent writers never
 * interleave or lose data, and a write that returned survives a crash.
 *
 * Nothing outside the root is ever read or written, symbolic links included: a link (of a file or
 * of a folder on the way) that resolves outside the root is not listed, reading it throws
 * {@link UnsafePathError}, and so does writing through it. A link that stays inside the root is
 * followed, and a write through it changes the file it points to.
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

  #realRoot: Promise<string> | undefined;

  /** The root with every link resolved (computed once). */
  #resolvedRoot(): Promise<string> {
    return this.#realRoot ??= Deno.realPath(this.#root);
  }

  /** Whether `real` (a resolved absolute path) is the root or below it. */
  async #inside(real: string): Promise<boolean> {
    const root = await this.#resolvedRoot();
    return real === root || real.startsWith(root.endsWith("/") ? root : root + "/");
  }

  /**
   * The resolved path of an existing file, checked to stay inside the root; `undefined` when the
   * file does not exist. Throws {@link UnsafePathError} for a link leading outside.
   */
  async #resolveExisting(path: string): Promise<string | undefined> {
    let real: string;
    try {
      real = await Deno.realPath(this.#abs(path));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
        return undefined;
      }
      throw e;
    }
    if (!(await this.#inside(real))) {
      throw new UnsafePathError(path, "a symbolic link leads outside the data directory");
    }
    return real;
  }

  /**
   * Where a write of `path` lands: the resolved file when it exists (a link inside the root is
   * followed), else the file in its resolved parent folder, which must stay inside the root.
   */
  async #resolveForWrite(path: string): Promise<string> {
    const existing = await this.#resolveExisting(path);
    if (existing !== undefined) return existing;
    const target = this.#abs(path);
    const name = target.slice(target.lastIndexOf("/") + 1);
    let dir = target.slice(0, target.lastIndexOf("/"));
    const missing: string[] = [];
    for (;;) {
      try {
        const real = await Deno.realPath(dir);
        if (!(await this.#inside(real))) {
          throw new UnsafePathError(path, "a symbolic link leads outside the data directory");
        }
        return [real, ...missing.reverse(), name].join("/");
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
        missing.push(dir.slice(dir.lastIndexOf("/") + 1));
        dir = dir.slice(0, dir.lastIndexOf("/"));
      }
    }
  }

  /**
   * Text of the file at `path`, or `undefined` when it does not exist. Bytes that are not UTF-8
   * throw a located `ParseError` (code `invalid_utf8`).
   */
  async readText(path: string): Promise<string | undefined> {
    try {
      const real = await this.#resolveExisting(path);
      if (real === undefined) return undefined;
      return decodeUtf8(await Deno.readFile(real), normalizeWorkspacePath(path));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory) {
        return undefined;
      }
      throw e;
    }
  }

  /** Raw bytes of the file at `path`, or `undefined` when it does not exist (links stay inside). */
  async readBytes(path: string): Promise<Uint8Array | undefined> {
    try {
      const real = await this.#resolveExisting(path);
      return real === undefined ? undefined : await Deno.readFile(real);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory) {
        return undefined;
      }
      throw e;
    }
  }

  /** Whether the root directory exists. */
  async available(): Promise<boolean> {
    try {
      return (await Deno.stat(this.#root)).isDirectory;
    } catch {
      return false;
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
          // Follow links only to plain files inside the root; never traverse linked directories.
          try {
            const real = await Deno.realPath(this.#abs(child));
            if ((await this.#inside(real)) && (await Deno.stat(real)).isFile) out.push(child);
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

  /**
   * Writes several files as one (AC43): every temp file is written and synced first; only then
   * are they renamed into place. A failure while staging removes the temp files (nothing
   * changed); a failed rename restores the files already renamed.
   */
  writeTextsAtomic(files: readonly { path: string; text: string }[]): Promise<void> {
    const keys = [...new Set(files.map((f) => normalizeWorkspacePath(f.path)))];
    const previous = Promise.all(
      keys.map((k) => (this.#locks.get(k) ?? Promise.resolve()).catch(() => {})),
    );
    const next = previous.then(() => this.#writeAll(files));
    for (const k of keys) this.#locks.set(k, next);
    return next.finally(() => {
      for (const k of keys) if (this.#locks.get(k) === next) this.#locks.delete(k);
    });
  }

  async #writeAll(files: readonly { path: string; text: string }[]): Promise<void> {
    const staged: { tmp: string; target: string; before: Uint8Array | undefined }[] = [];
    try {
      for (const f of files) {
        const target = await this.#resolveForWrite(normalizeWorkspacePath(f.path));
        const dir = target.slice(0, target.lastIndexOf("/"));
        await Deno.mkdir(dir, { recursive: true });
        const before = await Deno.readFile(target).catch(() => undefined);
        const text = before && startsWithBom(before) ? withBom(f.text) : f.text;
        staged.push({ tmp: await stageTempFile(target, text), target, before });
      }
    } catch (e) {
      for (const s of staged) await Deno.remove(s.tmp).catch(() => {});
      throw e;
    }
    const renamed: typeof staged = [];
    try {
      for (const s of staged) {
        await Deno.rename(s.tmp, s.target);
        renamed.push(s);
      }
    } catch (e) {
      for (const s of staged) if (!renamed.includes(s)) await Deno.remove(s.tmp).catch(() => {});
      for (const s of renamed) {
        if (s.before === undefined) await Deno.remove(s.target).catch(() => {});
        else await Deno.writeFile(s.target, s.before).catch(() => {});
      }
      throw e;
    }
    for (const dir of new Set(staged.map((s) => s.target.slice(0, s.target.lastIndexOf("/"))))) {
      await syncFolder(dir);
    }
  }

  async #write(path: string, text: string): Promise<void> {
    const target = await this.#resolveForWrite(path);
    await writeFileAtomic(target, (await hasBom(target)) ? withBom(text) : text);
  }
}

/**
 * A file's leading UTF-8 BOM outlives writes: {@link DenoFsWorkspace.readText} hands texts over
 * without it (the strict decoder drops it), so a text written back would lose it — a change of
 * bytes nobody asked for. Writes over a file that starts with one keep it.
 */
const BOM = [0xef, 0xbb, 0xbf];

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

function withBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text : "\uFEFF" + text;
}

/** Whether the file at `path` exists and starts with a UTF-8 BOM. */
async function hasBom(path: string): Promise<boolean> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    const head = new Uint8Array(3);
    let read = 0;
    while (read < 3) {
      const n = await file.read(head.subarray(read));
      if (n === null) break;
      read += n;
    }
    return read === 3 && startsWithBom(head);
  } catch {
    return false;
  } finally {
    file?.close();
  }
}
