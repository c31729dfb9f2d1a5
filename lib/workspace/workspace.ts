/**
 * The Workspace abstraction: everything the engine reads or writes goes through it, so the core
 * runs unchanged on a file system, in memory, or in an edge runtime.
 *
 * Paths are relative, use `/` as separator and never contain `..` segments; use
 * {@link normalizeWorkspacePath} to validate untrusted input.
 *
 * @module
 */

/** Read/write access to one directory tree (a data directory or a module). */
export interface Workspace {
  /** Human-readable location, e.g. an absolute directory path or `memory:`. */
  readonly location: string;
  /** Text of the file at `path`, or `undefined` when it does not exist. */
  readText(path: string): Promise<string | undefined>;
  /**
   * Raw bytes of the file at `path` (binary app files), or `undefined` when it does not exist.
   * Optional: without it, readers fall back to {@link Workspace.readText}.
   */
  readBytes?(path: string): Promise<Uint8Array | undefined>;
  /** Every file below `dir` (recursively), as sorted workspace-relative paths; `[]` if missing. */
  listFiles(dir: string): Promise<string[]>;
  /** Writes `text` atomically (temp file, fsync, rename); parent folders are created. */
  writeTextAtomic(path: string, text: string): Promise<void>;
  /**
   * Writes several files as one (contracts, AC43): every temp file is written and synced before
   * any is renamed into place, so a failure leaves every file as it was. Optional: without it,
   * multi-file writes fall back to one atomic write per file (lib/writes/transaction.ts).
   */
  writeTextsAtomic?(files: readonly { path: string; text: string }[]): Promise<void>;
  /**
   * Whether the workspace's root exists (a directory that was moved or unmounted does not);
   * workspaces that cannot disappear may leave it out.
   */
  available?(): Promise<boolean>;
}

/** The data directory (or a module) is gone: a build must fail, not publish an empty graph. */
export class WorkspaceUnavailableError extends Error {
  /** @param what which workspace, e.g. `the data directory` */
  constructor(what: string) {
    super(
      `${what} is missing (moved, deleted or unmounted?); the last good graph stays in service`,
    );
    this.name = "WorkspaceUnavailableError";
  }
}

/** Thrown for a path that is absolute, escapes the workspace, or is otherwise unsafe. */
export class UnsafePathError extends Error {
  /** Creates the error for `path`. @param path the rejected path @param reason why it was rejected */
  constructor(readonly path: string, reason: string) {
    super(`unsafe path '${path}': ${reason}`);
    this.name = "UnsafePathError";
  }
}

/**
 * Validates and normalises a workspace-relative path: rejects absolute paths, `..`, backslashes,
 * NUL and empty segments; removes `.` segments.
 *
 * @example
 * ```ts
 * import { normalizeWorkspacePath } from "./workspace.ts";
 * normalizeWorkspacePath("assets/./host.csv"); // "assets/host.csv"
 * ```
 */
export function normalizeWorkspacePath(path: string): string {
  if (path.includes("\0")) throw new UnsafePathError(path, "contains NUL");
  if (path.includes("\\")) throw new UnsafePathError(path, "contains a backslash");
  if (path.startsWith("/")) throw new UnsafePathError(path, "is absolute");
  const parts: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") throw new UnsafePathError(path, "escapes the workspace");
    parts.push(seg);
  }
  if (parts.length === 0) throw new UnsafePathError(path, "is empty");
  return parts.join("/");
}

/** Joins workspace path segments with `/`. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("/");
}
