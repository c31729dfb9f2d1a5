/**
 * Child processes in their own process group (reference AC30): a job's command is started as
 * the leader of a new session (`Deno.Command`'s `detached`, i.e. `setsid`), so stopping the job
 * signals every process it started — a shell's background `sleep` included — not only the direct
 * child. Where that is not possible (no `detached`, or no process groups, as on Windows) only
 * the child is signalled, and that is logged once per process.
 *
 * @module
 */

/** A spawned command and how to signal all of it. */
export interface GroupedChild {
  /** The child process. */
  child: Deno.ChildProcess;
  /** Whether the child leads its own process group. */
  grouped: boolean;
  /** Sends `signal` to the whole group (the child alone without a group). */
  signal(signal: Deno.Signal): void;
  /**
   * After the child ended because it was stopped: waits up to `graceMs` for the rest of its
   * group to end, then sends SIGKILL to what is left.
   */
  settle(graceMs: number): Promise<void>;
}

let fallbackLogged = false;

function fallback(log: (message: string) => void, why: string): void {
  if (fallbackLogged) return;
  fallbackLogged = true;
  log(`actions: ${why}; stopping a run signals its direct child only`);
}

/** Sends `signal` to group `pgid`; false when the group is gone. Throws when groups fail. */
function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/**
 * Spawns `program` with `options` as the leader of a new process group when it can.
 *
 * @example
 * ```ts ignore
 * const g = spawnGrouped("sh", { args: ["-c", "sleep 300 & wait"] }, console.warn);
 * g.signal("SIGTERM"); // the shell and its sleep
 * await g.child.status;
 * await g.settle(5000);
 * ```
 */
export function spawnGrouped(
  program: string,
  options: Deno.CommandOptions,
  log: (message: string) => void,
): GroupedChild {
  let child: Deno.ChildProcess;
  let grouped = Deno.build.os !== "windows";
  if (grouped) {
    try {
      child = new Deno.Command(program, { ...options, detached: true }).spawn();
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.PermissionDenied) throw e;
      grouped = false;
      fallback(log, `cannot start a process group (${(e as Error).message})`);
      child = new Deno.Command(program, options).spawn();
    }
  } else {
    fallback(log, "process groups are not available on this system");
    child = new Deno.Command(program, options).spawn();
  }
  const signalChild = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch { /* gone */ }
  };
  const signal = (sig: Deno.Signal) => {
    if (!grouped) return signalChild(sig);
    try {
      if (!signalGroup(child.pid, sig)) signalChild(sig);
    } catch (e) {
      grouped = false;
      fallback(log, `cannot signal the process group (${(e as Error).message})`);
      signalChild(sig);
    }
  };
  const settle = async (graceMs: number) => {
    if (!grouped) return;
    const deadline = Date.now() + graceMs;
    try {
      // SIGCONT is harmless to a running process and tells whether any member is left.
      while (signalGroup(child.pid, "SIGCONT")) {
        if (Date.now() >= deadline) {
          signalGroup(child.pid, "SIGKILL");
          return;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    } catch { /* the group cannot be signalled: nothing more to do */ }
  };
  return { child, grouped, signal, settle };
}
