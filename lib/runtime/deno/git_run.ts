/**
 * The Deno adapter of the fleet's {@link GitRun} port (lib/fleet): runs `git -C <dir> <args>` as
 * a process, without a terminal prompt, with credentials of URLs removed from its output.
 *
 * @module
 */
import type { GitResult, GitRun } from "../../fleet/mod.ts";
import { redactUrl } from "./git_sync.ts";

/**
 * A {@link GitRun} over the directory `dir`.
 *
 * @example
 * ```ts ignore
 * const git = denoGitRun("./data");
 * console.log((await git(["rev-parse", "HEAD"])).stdout);
 * ```
 */
export function denoGitRun(dir: string, options: { timeoutMs?: number } = {}): GitRun {
  return async (args: readonly string[]): Promise<GitResult> => {
    const command = new Deno.Command("git", {
      args: ["-C", dir, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true", LC_ALL: "C" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    try {
      const out = await command.output();
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: redactUrl(new TextDecoder().decode(out.stderr)),
      };
    } catch (e) {
      return { code: 127, stdout: "", stderr: redactUrl((e as Error).message) };
    }
  };
}
