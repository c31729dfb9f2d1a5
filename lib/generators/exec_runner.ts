/**
 * The `exec` runner (reference GN30–GN35): renders argv and `env`, runs the command through the
 * {@link ProcessRunner} port with the module's `generators/` folder first on `PATH` and only the
 * standard OS variables plus the declared ones in the environment.
 *
 * @module
 */
import { describeError } from "../pipeline/errors.ts";
import type { GeneratorDeclaration } from "./declarations.ts";
import { GeneratorRunError } from "./errors.ts";
import type { ProcessRunner } from "./ports.ts";
import type { GeneratorTemplates, RenderScope } from "./render.ts";
import type { SecretMasker } from "./secrets.ts";

/** Variables a child process inherits from the service (GN32). */
export const STANDARD_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "TMPDIR",
  "TZ",
  "SystemRoot",
  "COMSPEC",
  "PATHEXT",
] as const;

/** Default time-out of a command: 10 minutes (GN34). */
export const DEFAULT_EXEC_TIMEOUT_MS = 600_000;

/** What the exec runner needs besides the declaration. */
export interface ExecRunOptions {
  /** Variables. */
  scope: RenderScope;
  /** Template renderer. */
  templates: GeneratorTemplates;
  /** Masker of secret values. */
  masker: SecretMasker;
  /** The process port. */
  processes: ProcessRunner | undefined;
  /** Absolute path of the data directory (working directory, GN34). */
  dataDir: string;
  /** Time-out in ms. */
  timeoutMs: number;
  /** Log lines (stderr of the child at `info`). */
  log: (level: "info" | "warn", text: string) => void;
}

/** Result: the text to write (`from_stdout`), or `undefined` when the command wrote it. */
export interface ExecRunResult {
  /** stdout, when `from_stdout = true`. */
  text?: string;
}

/**
 * Runs an exec generator; throws {@link GeneratorRunError} (masked) on failure (GN7).
 *
 * @example
 * ```ts ignore
 * const { text } = await runExecGenerator(decl, options);
 * ```
 */
export async function runExecGenerator(
  decl: GeneratorDeclaration,
  o: ExecRunOptions,
): Promise<ExecRunResult> {
  const x = decl.exec!;
  let shown = x.command.join(" ");
  const fail = (reason: string): never => {
    throw new GeneratorRunError(
      decl.name,
      decl.module,
      o.masker.mask(shown),
      o.masker.mask(reason),
    );
  };
  if (!o.processes) fail("no process runner is available in this runtime");
  const argv: string[] = [];
  const env: Record<string, string> = {};
  try {
    for (const [i, a] of x.command.entries()) {
      argv.push(await o.templates.render(a, o.scope, `${decl.name}.command[${i}]`));
    }
    for (const k of STANDARD_ENV) if (o.scope.env[k] !== undefined) env[k] = o.scope.env[k];
    env.PATH = [`${decl.moduleLocation}/generators`, env.PATH].filter(Boolean).join(":");
    for (const [k, v] of x.env) {
      env[k] = await o.templates.render(v, o.scope, `${decl.name}.env.${k}`);
    }
  } catch (e) {
    fail(`template: ${describeError(e)}`);
  }
  shown = argv.join(" ");
  let result;
  try {
    result = await o.processes!.run({
      argv,
      env,
      cwd: o.dataDir,
      timeoutMs: o.timeoutMs,
      onStderrLine: (line) => o.log("info", o.masker.mask(`generator ${decl.name}: ${line}`)),
    });
  } catch (e) {
    return fail(`cannot start: ${describeError(e)}`);
  }
  if (result.timedOut) fail(`timed out after ${o.timeoutMs} ms (killed)`);
  if (result.code !== 0) fail(`exited with status ${result.code ?? "(signal)"}`);
  return x.fromStdout ? { text: result.stdout } : {};
}
