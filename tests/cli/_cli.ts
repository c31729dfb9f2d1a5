/**
 * Shared helpers of the command-line tests: run `cli.ts` as a real process and lay out a
 * throw-away workspace. Needs --allow-run --allow-read --allow-write.
 */

/** The project root (where cli.ts lives). */
export const ROOT = new URL("../../", import.meta.url).pathname;

/** Output of one CLI run. */
export interface CliResult {
  /** Exit code. */
  code: number;
  /** Standard output as text. */
  stdout: string;
  /** Standard error as text. */
  stderr: string;
}

/** Runs `deno run -A cli.ts …args` from the project root with `env` added. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** A new temporary directory holding `files` (path → text). */
export async function tempWorkspace(
  files: Record<string, string>,
  prefix = "graphsvc-cli-",
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return dir;
}
