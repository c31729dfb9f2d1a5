/**
 * The local action runner (reference AC22, AC23, AC30, AC32): unpacks a bundle into a fresh
 * temporary directory, opens its sealed secrets with the runner's X25519 key pair (stored in
 * `<data-dir>/.graphsvc/runner.key`, mode 0600), resolves the `{{ secrets.NAME }}` placeholders,
 * and runs each `exec` argv in order with `Deno.Command` (no shell unless argv invokes one,
 * `runtime/` first on `PATH`), stopping at the first non-zero exit. Output lines are masked.
 *
 * @module
 */
import type { ActionRunner, ExecutionRequest, ExecutionResult } from "../../actions/ports.ts";
import { missingSecrets, unpackBundle } from "../../actions/bundle.ts";
import {
  fromBase64,
  generateKeyPair,
  type KeyPair,
  openSealed,
  toBase64,
} from "../../actions/seal.ts";
import { maskSecrets } from "../../actions/runs.ts";
import { spawnGrouped } from "./process_group.ts";
import { readLines } from "./lines.ts";
import { writeFileAtomic } from "./atomic_file.ts";

/** Options of {@link denoActionRunner}. */
export interface DenoActionRunnerOptions {
  /** Key file (default `<dataDir>/.graphsvc/runner.key`; in memory when neither is given). */
  keyFile?: string;
  /** The data directory on disk. */
  dataDir?: string;
  /** Environment every run starts from (default: PATH, HOME, USER, LANG, TZ, TMPDIR, SHELL). */
  baseEnv?: Record<string, string>;
  /** Milliseconds between SIGTERM and SIGKILL when a run is stopped (default 5000). */
  killGraceMs?: number;
  /** Runner diagnostics (default: `console.warn`). */
  log?: (message: string) => void;
}

const OS_VARS = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR", "SHELL"];

function defaultEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of OS_VARS) {
    try {
      const v = Deno.env.get(k);
      if (v !== undefined) out[k] = v;
    } catch { /* no env permission */ }
  }
  out.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return out;
}

async function loadKeyPair(file: string | undefined): Promise<KeyPair> {
  if (file === undefined) return generateKeyPair();
  try {
    const doc = JSON.parse(await Deno.readTextFile(file));
    return { publicKey: fromBase64(doc.public), secretKey: fromBase64(doc.secret) };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      throw new Error(`cannot read the runner key ${file}: ${(e as Error).message}`);
    }
  }
  const kp = generateKeyPair();
  const text = JSON.stringify({ public: toBase64(kp.publicKey), secret: toBase64(kp.secretKey) });
  await writeFileAtomic(file, text + "\n", { mode: 0o600 });
  return kp;
}

async function resolveProgram(name: string, path: string): Promise<string | undefined> {
  if (name.includes("/")) return name;
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    try {
      const info = await Deno.stat(`${dir}/${name}`);
      if (info.isFile && (info.mode === null || (info.mode & 0o111) !== 0)) return `${dir}/${name}`;
    } catch { /* next */ }
  }
  return undefined;
}

function substitute(text: string, secrets: ReadonlyMap<string, string>): string {
  return text.replace(/\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}/g, (m, n) => secrets.get(n) ?? m);
}

/**
 * Creates the local runner.
 *
 * @example
 * ```ts ignore
 * const runner = denoActionRunner({ dataDir: "./data" });
 * const service = new ActionService({ runner });
 * ```
 */
export function denoActionRunner(
  options: DenoActionRunnerOptions = {},
): ActionRunner & { keyPair(): Promise<KeyPair> } {
  const keyFile = options.keyFile ??
    (options.dataDir ? `${options.dataDir.replace(/\/+$/, "")}/.graphsvc/runner.key` : undefined);
  let keys: Promise<KeyPair> | undefined;
  const keyPair = () => keys ??= loadKeyPair(keyFile);
  const grace = options.killGraceMs ?? 5000;
  const log = options.log ?? ((m: string) => console.warn(m));

  const execute = async (req: ExecutionRequest): Promise<ExecutionResult> => {
    let bundle;
    try {
      bundle = unpackBundle(req.bundle);
    } catch (e) {
      return { exitCode: null, error: "bad_bundle", detail: (e as Error).message };
    }
    const { manifest } = bundle;
    // A listed secret without a sealed entry (no vault, AC22) or one that does not open: the
    // script still runs as the original runs it (placeholders left, the variable unset), its
    // output is kept, and the run fails with `secrets_unavailable` naming the secrets.
    const missing = missingSecrets(manifest, bundle.sealed);
    const secrets = new Map<string, string>();
    const kp = await keyPair();
    for (const s of bundle.sealed) {
      try {
        secrets.set(s.name, new TextDecoder().decode(openSealed(fromBase64(s.sealed), kp)));
      } catch {
        missing.push(s.name);
      }
    }
    const result = await run(req, bundle, secrets);
    if (missing.length === 0) return result;
    return { exitCode: result.exitCode, error: "secrets_unavailable", detail: missing.join(", ") };
  };

  const run = async (
    req: ExecutionRequest,
    bundle: ReturnType<typeof unpackBundle>,
    secrets: Map<string, string>,
  ): Promise<ExecutionResult> => {
    const { manifest } = bundle;
    const values = [...secrets.values()];
    const mask = (line: string) => maskSecrets(line, values);
    const runDir = await Deno.makeTempDir({ prefix: "graphsvc-action-" });
    try {
      for (const e of bundle.entries) {
        const target = `${runDir}/${e.path}`;
        await Deno.mkdir(target.replace(/\/[^/]*$/, ""), { recursive: true });
        let bytes = e.bytes;
        if (e.path.startsWith("files/") && secrets.size > 0) {
          const text = new TextDecoder().decode(bytes);
          if (text.includes("secrets.")) {
            bytes = new TextEncoder().encode(substitute(text, secrets));
          }
        }
        await Deno.writeFile(target, bytes, { mode: (e.mode ?? 0o644) & 0o755 });
        if ((e.mode ?? 0) & 0o111) await Deno.chmod(target, 0o755);
      }
      const base = options.baseEnv ?? defaultEnv();
      const env: Record<string, string> = { ...base };
      for (const [k, v] of Object.entries(bundle.env)) env[k] = substitute(String(v), secrets);
      for (const [k, v] of secrets) env[k] = v;
      env.GRAPHSVC_ACTION = manifest.action;
      env.GRAPHSVC_ORIGIN_TYPE = manifest.origin?.type ?? "";
      env.GRAPHSVC_ORIGIN_NAME = manifest.origin?.name ?? "";
      env.GRAPHSVC_PAYLOAD = `${runDir}/payload.json`;
      const socketPath = manifest.expose ? `${runDir}/${manifest.expose.socket}` : undefined;
      if (socketPath) env.GRAPHSVC_SOCKET = socketPath;
      env.PATH = `${runDir}/runtime:${env.PATH ?? base.PATH ?? "/usr/bin:/bin"}`;
      let started = false;
      let exitCode: number | null = null;
      for (const raw of manifest.exec) {
        if (req.signal.aborted) return { exitCode, error: "stopped" };
        const argv = raw.map((a) => substitute(a, secrets));
        const program = await resolveProgram(argv[0], env.PATH);
        if (!program) {
          return {
            exitCode,
            error: "spawn_failed",
            detail: `command '${mask(argv[0])}' not found`,
          };
        }
        let group;
        try {
          // Its own process group: stopping the run stops what it started too (AC30).
          group = spawnGrouped(program, {
            args: argv.slice(1),
            env,
            clearEnv: true,
            cwd: runDir,
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }, log);
        } catch (e) {
          return { exitCode, error: "spawn_failed", detail: mask((e as Error).message) };
        }
        const { child } = group;
        let reason: "timeout" | "stopped" | undefined;
        let killTimer: ReturnType<typeof setTimeout> | undefined;
        const kill = (why: "timeout" | "stopped") => {
          reason ??= why;
          group.signal("SIGTERM");
          killTimer ??= setTimeout(() => group.signal("SIGKILL"), grace);
        };
        const onAbort = () => kill("stopped");
        req.signal.addEventListener("abort", onAbort);
        if (!started) {
          started = true;
          req.onStarted?.({ runDir, socketPath });
        }
        if (req.signal.aborted) onAbort();
        const timer = req.timeoutMs !== undefined
          ? setTimeout(() => kill("timeout"), req.timeoutMs)
          : undefined;
        const out = readLines(child.stdout, (l) => req.onOutput("stdout", mask(l)), {
          ignoreErrors: true,
        });
        const err = readLines(child.stderr, (l) => req.onOutput("stderr", mask(l)), {
          ignoreErrors: true,
        });
        const status = await child.status;
        clearTimeout(timer);
        clearTimeout(killTimer);
        req.signal.removeEventListener("abort", onAbort);
        // The child is gone; what else it started gets the rest of the grace, then SIGKILL.
        if (reason) await group.settle(grace);
        // A grandchild may keep the pipes open after the child ended: stop reading soon after.
        let drainTimer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all([out, err]),
          new Promise((r) => drainTimer = setTimeout(r, 500)),
        ]);
        clearTimeout(drainTimer);
        await child.stdout.cancel().catch(() => {});
        await child.stderr.cancel().catch(() => {});
        exitCode = status.code;
        if (reason) return { exitCode: reason === "stopped" ? exitCode : null, error: reason };
        if (status.code !== 0) return { exitCode };
      }
      return { exitCode };
    } finally {
      await Deno.remove(runDir, { recursive: true }).catch(() => {});
    }
  };

  return {
    keyPair,
    publicKey: async () => (await keyPair()).publicKey,
    execute,
  };
}
