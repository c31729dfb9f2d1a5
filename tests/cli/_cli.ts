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

/** How {@link spawnServe} starts `cli.ts serve`. */
export interface ServeOptions {
  /** Global options placed before `serve` (e.g. `--log-level debug`, `--vault <file>`). */
  globalArgs?: string[];
  /** Keep the file watcher on (default: off, `--no-watch`). */
  watch?: boolean;
  /** The port to ask for (default 0: a free one, read back from the log). */
  port?: number;
  /** Environment variables added to the inherited environment. */
  env?: Record<string, string>;
  /** Also wait for the first build's log line `build 1: … resources` (default false). */
  waitForBuild?: boolean;
}

/** A running `cli.ts serve` process started by {@link spawnServe}. */
export interface ServeProcess {
  /** The process (its stderr is read by the helper). */
  child: Deno.ChildProcess;
  /** The port it listens on. */
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /**
   * Resolves with the first match of `pattern` in stderr so far or to come; rejects after
   * `boundMs` or when stderr ends without a match.
   */
  logged(pattern: RegExp, boundMs?: number): Promise<RegExpExecArray>;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Sends `signal` (default SIGTERM) unless the process has exited; waits for exit and log end. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/**
 * Starts `deno run -A cli.ts …globalArgs serve --host 127.0.0.1 --port <port> [--no-watch]
 * …extraArgs` with `dir` as the data directory, and resolves once the listening line is logged
 * (and the first build, with `waitForBuild`). Throws with the log when the process exits first.
 */
export async function spawnServe(
  dir: string,
  extraArgs: string[] = [],
  opts: ServeOptions = {},
): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}cli.ts`,
      "--data-dir",
      dir,
      ...(opts.globalArgs ?? []),
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      String(opts.port ?? 0),
      ...(opts.watch ? [] : ["--no-watch"]),
      ...extraArgs,
    ],
    cwd: ROOT,
    env: opts.env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  const reading = (async () => {
    try {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
        text += chunk;
        for (const w of waiters.splice(0)) w();
      }
    } finally {
      ended = true;
      for (const w of waiters.splice(0)) w();
    }
  })().catch(() => {});
  const logged = (pattern: RegExp, boundMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no log line ${pattern} in:\n${text}`)),
        boundMs,
      );
      const check = () => {
        const m = pattern.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        } else if (ended) {
          clearTimeout(timer);
          reject(new Error(`the server's log ended without ${pattern}:\n${text}`));
        } else waiters.push(check);
      };
      check();
    });
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    if (!exited) {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
    }
    const s = await status;
    await reading;
    return s;
  };
  try {
    const port = Number((await logged(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
    if (opts.waitForBuild) await logged(/build 1: \d+ resources/);
    return { child, port, url: `http://127.0.0.1:${port}`, logged, stderr: () => text, stop };
  } catch (e) {
    await stop("SIGKILL");
    throw e;
  }
}
