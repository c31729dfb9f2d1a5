/**
 * Process state for tests that check what a stopped run left behind. Deno lets only
 * `--allow-all` read `/proc`, and `deno task test` grants less, so the files are read by `cat`
 * (`--allow-run`) — reading them directly would fail there and make every process look gone.
 */

/** The text of `/proc/<pid>/<file>`, or undefined when the process does not exist. */
async function procFile(pid: number, file: string): Promise<string | undefined> {
  const out = await new Deno.Command("cat", {
    args: [`/proc/${pid}/${file}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  return out.success ? new TextDecoder().decode(out.stdout) : undefined;
}

/**
 * The command line of process `pid` (arguments joined by spaces), or undefined when there is no
 * such live process (a zombie has exited already).
 */
export async function liveCommand(pid: number): Promise<string | undefined> {
  const stat = await procFile(pid, "stat");
  if (stat === undefined || /^\d+ \(.*\) Z /s.test(stat)) return undefined;
  return (await procFile(pid, "cmdline"))?.replaceAll("\0", " ").trim();
}
