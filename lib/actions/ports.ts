/**
 * What the action service needs from outside the pure core (ports): the vault's secret lookup
 * (AC20) and a runner that executes bundles (AC30–AC32; the Deno adapter lives in
 * `lib/runtime/deno/action_runner.ts`), plus the shape of run records (AC13).
 *
 * @module
 */

/**
 * Reads a secret from the vault (AC20); `undefined` when it does not exist or cannot be read.
 *
 * @example
 * ```ts
 * import type { SecretSource } from "./ports.ts";
 * const source: SecretSource = { read: (c, s) => Promise.resolve(c === "db" && s === "pw" ? "x" : undefined) };
 * ```
 */
export interface SecretSource {
  /** The plaintext of `secret` in `collection`, or `undefined`. */
  read(collection: string, secret: string): Promise<string | undefined>;
}

/** Where a running process lives (AC32). */
export interface RunLocation {
  /** The run directory (the unpacked bundle). */
  runDir: string;
  /** Absolute path of the exposed Unix socket, when the action declares one. */
  socketPath?: string;
}

/** One execution of a bundle. */
export interface ExecutionRequest {
  /** The `tar.gz` bundle. */
  bundle: Uint8Array;
  /** Aborted to stop the run (cancellation, shutdown, service restart). */
  signal: AbortSignal;
  /** Time-out in milliseconds; none when absent (services). */
  timeoutMs?: number;
  /** Each output line (secrets already masked by the runner). */
  onOutput(stream: "stdout" | "stderr", line: string): void;
  /** Called once the process was started. */
  onStarted?(location: RunLocation): void;
}

/**
 * How an execution ended: `exitCode` of the last command run (`null` when none ran to its end);
 * `error` is a stable code (`secrets_unavailable`, `timeout`, `stopped`, `spawn_failed`,
 * `bad_bundle`) with an optional secret-free `detail`.
 */
export interface ExecutionResult {
  /** Exit code of the last command run. */
  exitCode: number | null;
  /** Failure code, when it failed for another reason than a non-zero exit. */
  error?: string;
  /** Human-readable detail of `error`. */
  detail?: string;
}

/**
 * Executes bundles (the runner port, AC30–AC32).
 *
 * @example
 * ```ts
 * import type { ActionRunner } from "./ports.ts";
 * const fake: ActionRunner = {
 *   publicKey: () => Promise.resolve(new Uint8Array(32)),
 *   execute: () => Promise.resolve({ exitCode: 0 }),
 * };
 * ```
 */
export interface ActionRunner {
  /** The runner's X25519 public key (AC23); secrets are sealed to it. */
  publicKey(): Promise<Uint8Array>;
  /** Runs the bundle's commands to their end (or until aborted or timed out). */
  execute(request: ExecutionRequest): Promise<ExecutionResult>;
}

/** Status of a run (AC13). */
export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** A run record as the API returns it (AC13). */
export interface RunRecord {
  /** Run id. */
  id: string;
  /** Module id. */
  module: string;
  /** Concrete action name. */
  action: string;
  /** Status. */
  status: RunStatus;
  /** RFC 3339 times. */
  created_at: string;
  /** When it started running. */
  started_at: string | null;
  /** When it ended. */
  finished_at: string | null;
  /** Exit code of the last command. */
  exit_code: number | null;
  /** Failure code (`secrets_unavailable`, `timeout`, …) or message; never a secret. */
  error: string | null;
  /** Last lines of output (secrets masked). */
  log_tail: string[];
}
