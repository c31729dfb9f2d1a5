/**
 * What generators need from the runtime (ports; adapters live in `lib/runtime/deno/`): file
 * modification times for `ttl` (GN4), absolute paths for `target_*` variables (GN9), and process
 * execution for the `exec` runner (GN30–GN35).
 *
 * @module
 */

/** A process to run (argv, no shell). */
export interface ProcessRequest {
  /** argv; `argv[0]` without `/` is looked up in `env.PATH`. */
  argv: string[];
  /** The complete environment of the child (nothing else is inherited, GN32). */
  env: Record<string, string>;
  /** Working directory (absolute). */
  cwd: string;
  /** Kill the process after this many ms. */
  timeoutMs: number;
  /** Each line the child writes to stderr. */
  onStderrLine?: (line: string) => void;
}

/** How a process ended. */
export interface ProcessResult {
  /** Exit code (`null` when killed by a signal). */
  code: number | null;
  /** Captured stdout (UTF-8). */
  stdout: string;
  /** Whether the time-out killed it. */
  timedOut: boolean;
}

/**
 * Runs processes (the `exec` runner's port).
 *
 * @example
 * ```ts
 * const fake: ProcessRunner = { run: () => Promise.resolve({ code: 0, stdout: "[]", timedOut: false }) };
 * ```
 */
export interface ProcessRunner {
  /** Runs `request` to its end; rejects when the program cannot be started. */
  run(request: ProcessRequest): Promise<ProcessResult>;
}

/**
 * Runtime services of generators, for the data directory.
 *
 * @example
 * ```ts
 * const host: GeneratorHost = {
 *   modifiedAt: () => Promise.resolve(undefined),
 *   absolutePath: (p) => `/srv/data/${p}`,
 * };
 * ```
 */
export interface GeneratorHost {
  /** Modification time of a data-directory file; `undefined` when it does not exist. */
  modifiedAt(path: string): Promise<Date | undefined>;
  /** Absolute path of a data-directory-relative path (a `location`-based path in memory). */
  absolutePath(path: string): string;
  /** Process runner; without one, `exec` generators fail. */
  processes?: ProcessRunner;
}
