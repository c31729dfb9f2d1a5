/**
 * AC30: stopping a run (cancel or time-out) stops every process the job started, not only the
 * direct child: the job's command leads its own process group and the group is signalled.
 */
import { assert, assertEquals } from "../_assert.ts";
import { parseActionFile } from "../../lib/actions/declarations.ts";
import { createBundle } from "../../lib/actions/bundle.ts";
import { denoActionRunner } from "../../lib/runtime/deno/action_runner.ts";
import { liveCommand } from "../_proc.ts";

function bundleOf(exec: string[][]) {
  const t = parseActionFile('name = "t"\nexec = [["x"]]\n', "actions/t.toml", "data");
  return createBundle({
    action: { module: "data", name: t.name, template: t, origin: { type: "host", name: "web-1" } },
    inputs: {},
    rendered: { exec, env: [], files: [] },
    createdAt: "2026-01-01T00:00:00Z",
  }).bytes;
}

/** Whether `pid` is a live (not zombie) `sleep 300`. */
async function sleeping(pid: number): Promise<boolean> {
  return (await liveCommand(pid))?.startsWith("sleep 300") ?? false;
}

/** Starts a job whose shell puts `sleep 300` in the background, then stops it. */
async function stopJob(how: "cancel" | "timeout") {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-group-" });
  const pidFile = `${dir}/sleep.pid`;
  const runner = denoActionRunner({ killGraceMs: 2000, log: () => {} });
  const controller = new AbortController();
  const script = `sleep 300 & echo $! > '${pidFile}'; echo started; wait`;
  let pid = 0;
  try {
    const result = await runner.execute({
      bundle: bundleOf([["sh", "-c", script]]),
      signal: controller.signal,
      timeoutMs: how === "timeout" ? 300 : undefined,
      onOutput: (_s, line) => {
        if (line === "started" && how === "cancel") controller.abort();
      },
    });
    pid = Number((await Deno.readTextFile(pidFile)).trim());
    return { result, pid, alive: await sleeping(pid) };
  } finally {
    // Never leave a stray sleep behind, whatever the outcome.
    if (pid > 0 && await sleeping(pid)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "AC30 cancelling a run stops the background sleep its shell started",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { result, pid, alive } = await stopJob("cancel");
    assertEquals(result.error, "stopped");
    assert(pid > 0);
    assert(!alive, `sleep 300 (pid ${pid}) survived the cancel`);
  },
});

Deno.test({
  name: "AC30 a timed-out run stops the background sleep its shell started",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { result, pid, alive } = await stopJob("timeout");
    assertEquals(result.error, "timeout");
    assert(!alive, `sleep 300 (pid ${pid}) survived the time-out`);
  },
});
