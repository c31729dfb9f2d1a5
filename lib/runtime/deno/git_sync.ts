/**
 * Git synchronisation of the data directory for the reload webhook (reference R42–R43), through
 * the `git` command line. This is a runtime adapter: it runs processes, so it lives outside the
 * pure core, which only sees a `WorkspaceSync` function.
 *
 * Strategy: a directory that is not yet a clone is initialised in place (`git init`, remote
 * `origin`), so a data directory that already holds files can be put under the remote; then the
 * remote's default branch is fetched and the working tree hard-reset to it. Credentials embedded
 * in the URL never appear in log lines or errors.
 *
 * @module
 */

/** Writes one line to the build log. */
export type SyncLog = (level: "debug" | "info" | "warn" | "error", text: string) => void;

/** Options of {@link gitSync}. */
export interface GitSyncOptions {
  /** Longest a single git command may run (default 120 s). */
  timeoutMs?: number;
  /** The git executable (default `git`). */
  git?: string;
}

/** A failed synchronisation; the message is free of credentials. */
export class GitSyncError extends Error {
  /** @param message what failed (credentials removed) */
  constructor(message: string) {
    super(message);
    this.name = "GitSyncError";
  }
}

/**
 * Replaces the password (and user) of any URL-looking text with `***`, and every literal secret
 * given, so that log lines and errors never carry credentials.
 *
 * @example
 * ```ts
 * import { redactUrl } from "./git_sync.ts";
 * redactUrl("fatal: https://me:s3cret@example.org/x.git not found"); // "fatal: https://***@example.org/x.git not found"
 * ```
 */
export function redactUrl(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1***@");
  for (const s of secrets) if (s.length >= 4) out = out.replaceAll(s, "***");
  return out;
}

/** Secrets of a URL: its user-info part, raw and percent-decoded. */
function urlSecrets(url: string): string[] {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/\s@]+)@/i.exec(url);
  if (!m) return [];
  const out = [m[1]];
  try {
    out.push(decodeURIComponent(m[1]));
  } catch { /* keep the raw form */ }
  for (const part of [...out]) out.push(...part.split(":").filter((p) => p.length >= 4));
  return out;
}

/**
 * Returns a sync function that makes `dir` a checkout of the default branch of `url`.
 *
 * @example
 * ```ts ignore
 * const sync = gitSync("./data", Deno.env.get("GIT_SYNC_URL")!);
 * await sync((level, text) => console.log(level, text));
 * ```
 */
export function gitSync(
  dir: string,
  url: string,
  options: GitSyncOptions = {},
): (log: SyncLog) => Promise<void> {
  const secrets = urlSecrets(url);
  const shown = redactUrl(url, secrets);
  const git = async (args: string[], allowFailure = false): Promise<string> => {
    const command = new Deno.Command(options.git ?? "git", {
      args: ["-C", dir, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true", LC_ALL: "C" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
    });
    let out: Deno.CommandOutput;
    try {
      out = await command.output();
    } catch (e) {
      throw new GitSyncError(
        `git ${args[0]} could not run: ${
          redactUrl(e instanceof Error ? e.message : String(e), secrets)
        }`,
      );
    }
    const stdout = new TextDecoder().decode(out.stdout);
    if (!out.success && !allowFailure) {
      const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" | ");
      throw new GitSyncError(
        `git ${args[0]} failed (exit ${out.code}): ${redactUrl(stderr, secrets) || "no output"}`,
      );
    }
    return out.success ? stdout : "";
  };
  return async (log) => {
    log("info", `sync: fetching ${shown}`);
    const inside = (await git(["rev-parse", "--is-inside-work-tree"], true)).trim() === "true";
    const topLevel = inside ? (await git(["rev-parse", "--show-toplevel"])).trim() : "";
    const isRoot = inside && (await Deno.realPath(topLevel)) === (await Deno.realPath(dir));
    if (!isRoot) {
      await git(["init", "-q"]);
      log("info", "sync: initialised a Git repository in the data directory");
    }
    const remotes = (await git(["remote"])).split("\n").map((r) => r.trim());
    if (remotes.includes("origin")) await git(["remote", "set-url", "origin", url]);
    else await git(["remote", "add", "origin", url]);
    const head = await git(["ls-remote", "--symref", "origin", "HEAD"]);
    const branch = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(head)?.[1];
    if (!branch) throw new GitSyncError(`the remote ${shown} has no default branch`);
    await git([
      "fetch",
      "-q",
      "--no-tags",
      "origin",
      `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
    ]);
    await git(["checkout", "-q", "-f", "-B", branch, `refs/remotes/origin/${branch}`]);
    await git(["reset", "-q", "--hard", `refs/remotes/origin/${branch}`]);
    const commit = (await git(["rev-parse", "--short", "HEAD"])).trim();
    log("info", `sync: data directory at ${branch} ${commit}`);
  };
}
