/**
 * Deno adapters of the generator ports (reference GN4, GN30–GN35): file modification times and
 * absolute paths in the data directory, and the process runner of the `exec` runner (argv, no
 * shell, a cleared environment, a kill on time-out).
 *
 * @module
 */
import type {
  GeneratorHost,
  ProcessRequest,
  ProcessResult,
  ProcessRunner,
} from "../../generators/ports.ts";
import { normalizeWorkspacePath } from "../../workspace/workspace.ts";
import { readLines } from "./lines.ts";

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path.replace(/^\.\//, "")}`;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/** `argv[0]` looked up in the child's `PATH` when it has no `/` (GN31). */
async function resolveProgram(name: string, path: string | undefined): Promise<string> {
  if (name.includes("/")) return name;
  for (const dir of (path ?? "").split(":")) {
    if (dir === "") continue;
    const candidate = `${absolute(dir)}/${name}`;
    if (await isExecutableFile(candidate)) return candidate;
  }
  throw new Error(`command '${name}' not found in PATH`);
}

/**
 * Runs processes with `Deno.Command`.
 *
 * @example
 * ```ts ignore
 * const r = await denoProcessRunner.run({ argv: ["echo", "hi"], env: { PATH: "/usr/bin:/bin" }, cwd: "/tmp", timeoutMs: 1000 });
 * console.log(r.stdout); // "hi\n"
 * ```
 */
export const denoProcessRunner: ProcessRunner = {
  async run(req: ProcessRequest): Promise<ProcessResult> {
    const program = await resolveProgram(req.argv[0], req.env.PATH);
    const child = new Deno.Command(program, {
      args: req.argv.slice(1),
      env: req.env,
      clearEnv: true,
      cwd: req.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, req.timeoutMs);
    try {
      const [stdout] = await Promise.all([
        new Response(child.stdout).text(),
        readLines(child.stderr, req.onStderrLine ?? (() => {})),
      ]);
      const status = await child.status;
      return { code: timedOut ? null : status.code, stdout, timedOut };
    } finally {
      clearTimeout(timer);
    }
  },
};

/**
 * The generator host of a data directory on disk.
 *
 * @example
 * ```ts ignore
 * const host = denoGeneratorHost("./data");
 * await host.modifiedAt("input/regions.json");
 * ```
 */
export function denoGeneratorHost(dataDir: string): GeneratorHost {
  const root = absolute(dataDir.replace(/\/+$/, "") || "/");
  const abs = (path: string) => path === "" ? root : `${root}/${normalizeWorkspacePath(path)}`;
  return {
    async modifiedAt(path) {
      try {
        const info = await Deno.stat(abs(path));
        return info.isFile ? (info.mtime ?? new Date(0)) : undefined;
      } catch (e) {
        if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
          return undefined;
        }
        throw e;
      }
    },
    absolutePath: abs,
    processes: denoProcessRunner,
  };
}
