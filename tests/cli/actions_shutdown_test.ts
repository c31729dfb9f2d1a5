// AC30, AC31 (issue 13 point 4): stopping `serve` with SIGTERM stops what the action runner
// started — a running job and an `auto_execute` service — so no action process outlives the
// server. Every wait is bounded; nothing asserts durations.
import { assert, assertEquals } from "../_assert.ts";
import { spawnServe, tempWorkspace } from "./_cli.ts";
import { liveCommand } from "../_proc.ts";

/** An action that writes the pid of its (exec'd) `sleep` to `$PIDS/<file>` and sleeps. */
const sleeper = (head: string, file: string) =>
  `${head}
exec = [["sh", "-c", "echo $$ > \\"$PIDS/${file}.tmp\\" && mv \\"$PIDS/${file}.tmp\\" \\"$PIDS/${file}\\" && exec sleep 600"]]
`;

/** Resolves with the content of `path` once it exists; fails after `boundMs`. */
async function waitForFile(path: string, boundMs = 60_000): Promise<string> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    try {
      return (await Deno.readTextFile(path)).trim();
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${path} was not written`);
}

/**
 * The pid in `file` once it names a live `sleep 600` (the file is re-read: a restarted service
 * writes a new one); fails with the server's log after `boundMs`.
 */
async function sleepingPid(file: string, log: () => string, boundMs = 60_000): Promise<number> {
  const until = Date.now() + boundMs;
  for (;;) {
    const pid = Number(await waitForFile(file, boundMs));
    if ((await liveCommand(pid))?.startsWith("sleep 600")) return pid;
    if (Date.now() > until) throw new Error(`${file}: process ${pid} is not running\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** True once `pid` is gone (bounded: a process just killed may take a moment to be reaped). */
async function gone(pid: number, boundMs = 15_000): Promise<boolean> {
  const until = Date.now() + boundMs;
  while ((await liveCommand(pid)) !== undefined) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

Deno.test({
  name: "AC30 AC31 SIGTERM to serve stops a running job action and an auto_execute service",
  ignore: Deno.build.os !== "linux", // reads /proc
  async fn() {
    const pids = await Deno.makeTempDir({ prefix: "graphsvc-action-pids-" });
    const env = `[env]\nPIDS = "${pids}"\n`;
    const dir = await tempWorkspace({
      "assets/host.csv": "name\nweb-1\n",
      "actions/job.toml": sleeper('name = "sleeper"', "job.pid") + env,
      "actions/svc.toml": sleeper(
        'name = "daemon"\nrun_mode = "service"\nauto_execute = true',
        "svc.pid",
      ) + env,
    }, "graphsvc-actions-shutdown-");
    const server = await spawnServe(dir, [], { waitForBuild: true });
    let stopped = false;
    try {
      await waitForFile(`${pids}/svc.pid`);
      const res = await fetch(`${server.url}/api/actions/data/sleeper`, { method: "POST" });
      assertEquals(res.status, 202, await res.text());
      // The newest pid of each (a service may have been restarted meanwhile: it rewrites its file).
      const svc = await sleepingPid(`${pids}/svc.pid`, server.stderr);
      const job = await sleepingPid(`${pids}/job.pid`, server.stderr);
      const status = await server.stop("SIGTERM");
      stopped = true;
      assertEquals(status.code, 0, server.stderr());
      assert(await gone(svc), `the service's process ${svc} outlived the server`);
      assert(await gone(job), `the job's process ${job} outlived the server`);
    } finally {
      if (!stopped) await server.stop("SIGKILL");
      for (const f of ["svc.pid", "job.pid"]) {
        const pid = Number(await Deno.readTextFile(`${pids}/${f}`).catch(() => "0"));
        if (pid > 0 && (await liveCommand(pid))?.startsWith("sleep 600")) Deno.kill(pid, "SIGKILL");
      }
      await Deno.remove(pids, { recursive: true });
      await Deno.remove(dir, { recursive: true });
    }
  },
});
