/**
 * Command-line options that can also come from the environment (issue 18, item 5): every option
 * `--some-flag` of every command is settable by `GRAPHSVC_SOME_FLAG`; the command line wins. An
 * option may go without a variable only through {@link withoutEnv}, which records why, so a test
 * can walk the program and find every option that has neither.
 *
 * @module
 */
import { type Command, Option } from "@commander-js/extra-typings";

/**
 * Variables graphsvc reads that are not options: an option must never map to one of them.
 * `GRAPHSVC_SECRET_*` (generator secrets) is a prefix.
 */
export const NON_OPTION_VARIABLES: readonly string[] = [
  "GRAPHSVC_API_TOKEN",
  "GRAPHSVC_MODULE_CACHE",
  "GRAPHSVC_VAULT_URL",
  "GRAPHSVC_VAULT_CLIENTNAME",
  "GRAPHSVC_VAULT_PASSWORD",
  "GRAPHSVC_VAULT_INVITE_TOKEN",
  "GRAPHSVC_SECRET_",
];

/**
 * The variable of a long flag: `--data-dir` → `GRAPHSVC_DATA_DIR`, `--no-watch` →
 * `GRAPHSVC_NO_WATCH`.
 *
 * @example
 * ```ts
 * envVarName("--max-loop"); // "GRAPHSVC_MAX_LOOP"
 * ```
 */
export function envVarName(long: string): string {
  return `GRAPHSVC_${long.replace(/^--/, "").replaceAll("-", "_").toUpperCase()}`;
}

/**
 * An option that can also come from its `GRAPHSVC_<FLAG>` variable (the command line wins);
 * `--help` shows the variable.
 *
 * @example
 * ```ts ignore
 * program.addOption(envOption("--port <n>", "port").argParser(port).default(7600));
 * ```
 */
export function envOption<Flags extends string>(
  flags: Flags,
  description: string,
): Option<Flags> {
  const long = /--[a-z0-9-]+/.exec(flags);
  if (!long) throw new Error(`envOption: '${flags}' has no long flag`);
  return new Option(flags, description).env(envVarName(long[0]));
}

const exemptions = new WeakMap<object, string>();

/**
 * Marks `option` as deliberately without a variable (a per-invocation target or secret, or an
 * action such as `--version`); `reason` says why and must not be empty.
 *
 * @example
 * ```ts ignore
 * cmd.addOption(withoutEnv(new Option("--client <name>", "member"), "names the target"));
 * ```
 */
export function withoutEnv<O extends object>(option: O, reason: string): O {
  if (reason.trim() === "") throw new Error("withoutEnv: a reason is required");
  exemptions.set(option, reason);
  return option;
}

/**
 * Why `option` has no variable, when it was marked with {@link withoutEnv}.
 *
 * @example
 * ```ts ignore
 * const reason = envExemption(option); // undefined unless marked
 * ```
 */
export function envExemption(option: object): string | undefined {
  return exemptions.get(option);
}

/**
 * `program` and every command below it, depth first.
 *
 * @example
 * ```ts ignore
 * for (const cmd of allCommands(program)) console.log(cmd.name());
 * ```
 */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap((c) => allCommands(c as unknown as Command))];
}

const FALSE_LOOKING = ["", "0", "false", "no", "off"];

/**
 * Commander turns a flag on when its variable is merely set, so `GRAPHSVC_MCP_WRITE=false`
 * would enable it. Returns the message refusing such a value (unset the variable to leave the
 * flag off), or `undefined` when no flag variable of any command looks false.
 *
 * @example
 * ```ts ignore
 * const problem = falseLookingFlagVariable(program, Deno.env.toObject());
 * ```
 */
export function falseLookingFlagVariable(
  program: Command,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (const option of allCommands(program).flatMap((c) => c.options)) {
    if (!option.envVar || option.required || option.optional) continue;
    const value = env[option.envVar];
    if (value !== undefined && FALSE_LOOKING.includes(value.trim().toLowerCase())) {
      return `${option.envVar}=${value}: a set variable turns ${option.long} on; unset it to ` +
        `leave it off`;
    }
  }
  return undefined;
}

/**
 * The name a message about option `key` (its attribute name, e.g. `dataDir`) should use: its
 * `GRAPHSVC_*` variable when the value came from the environment, else its long flag. Errors
 * found after parsing (a missing data directory, a bad vault state file) name the place the
 * user actually set (issue 18 item 5).
 *
 * @example
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { envOption, optionOrigin } from "./env_options.ts";
 * const program = new Command().addOption(envOption("--data-dir <dir>", "data"));
 * program.parse([], { from: "user" });
 * console.log(optionOrigin(program, "dataDir")); // "--data-dir"
 * ```
 */
export function optionOrigin(cmd: Command, key: string): string {
  const option = cmd.options.find((o) => o.attributeName() === key);
  if (!option) return key;
  if (option.envVar && cmd.getOptionValueSource(key) === "env") return option.envVar;
  return option.long ?? key;
}
