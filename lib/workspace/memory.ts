/**
 * In-memory Workspace adapter, for tests, embedding and edge runtimes.
 *
 * @module
 */
import { normalizeWorkspacePath, type Workspace } from "./workspace.ts";

/**
 * A Workspace held in a `Map` of path to text.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * const ws = new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" });
 * console.log(await ws.listFiles("assets")); // ["assets/host.csv"]
 * ```
 */
export class MemoryWorkspace implements Workspace {
  /** Label used in messages. */
  readonly location: string;
  readonly #files = new Map<string, string>();

  /** Creates a workspace holding `files`. @param files initial files, path to text @param location label used in messages */
  constructor(files: Record<string, string> = {}, location = "memory:") {
    this.location = location;
    for (const [path, text] of Object.entries(files)) {
      this.#files.set(normalizeWorkspacePath(path), text);
    }
  }

  /** Text of the file at `path`, or `undefined`. */
  readText(path: string): Promise<string | undefined> {
    return Promise.resolve(this.#files.get(normalizeWorkspacePath(path)));
  }

  /** Files below `dir`, sorted. */
  listFiles(dir: string): Promise<string[]> {
    const prefix = dir === "" ? "" : normalizeWorkspacePath(dir) + "/";
    const out = [...this.#files.keys()].filter((p) => p.startsWith(prefix));
    return Promise.resolve(out.sort());
  }

  /** Stores `text` at `path` (atomic by construction). */
  writeTextAtomic(path: string, text: string): Promise<void> {
    this.#files.set(normalizeWorkspacePath(path), text);
    return Promise.resolve();
  }

  /** Synchronous snapshot of all files (for tests). */
  entries(): Record<string, string> {
    return Object.fromEntries(this.#files);
  }
}
