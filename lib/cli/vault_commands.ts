/**
 * The `vault` client commands (reference AC61–AC63), configured by `GRAPHSVC_VAULT_URL`,
 * `GRAPHSVC_VAULT_CLIENTNAME`, `GRAPHSVC_VAULT_PASSWORD` and `GRAPHSVC_VAULT_INVITE_TOKEN`:
 *
 * ```sh
 * graphsvc-ce vault collection create app
 * graphsvc-ce vault collection invite app --client web-1 --validity 1h   # token on stdout
 * graphsvc-ce vault collection role app --client web-1 --role Reader
 * graphsvc-ce vault secret put app db-password            # generated strong secret
 * graphsvc-ce vault secret put app api-token -            # value from stdin
 * graphsvc-ce vault secret get app db-password            # plaintext on stdout
 * ```
 *
 * Exit codes: 0 success, 1 server or authentication error, 2 usage error. Values are never
 * echoed except by `secret get` (its purpose) and `collection invite` (the token).
 *
 * @module
 */
import { type Command, Option } from "@commander-js/extra-typings";
import {
  generateSecret,
  VaultClient,
  type VaultClientConfig,
  VaultClientError,
  vaultConfigFromEnv,
} from "../vault/client.ts";
import { ROLES } from "../vault/state.ts";
import type { Role } from "../vault/state.ts";
import { envOption, withoutEnv } from "./env_options.ts";

/** Why `--client` has no `GRAPHSVC_*` variable. */
const CLIENT_NO_ENV = "positional-like: names the member this one invocation acts on, like " +
  "<collection>; a variable would silently aim every later command at the same member";

/** `--client`, mandatory and without a variable ({@link CLIENT_NO_ENV}). */
function clientOption(description: string) {
  return withoutEnv(
    new Option("--client <name>", description).makeOptionMandatory(),
    CLIENT_NO_ENV,
  );
}

/** What the commands need from the process. */
export interface VaultCommandIO {
  /** Environment variables (`GRAPHSVC_VAULT_*`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads standard input to its end (`secret put … -`). */
  readStdin(): Promise<string>;
  /** Writes command results. */
  stdout(text: string): void;
  /** Writes diagnostics. */
  stderr(text: string): void;
  /** The fetch to use (tests); default the global one. */
  fetch?: typeof fetch;
}

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/**
 * Registers `vault …` on `program`.
 *
 * @param program the root command
 * @param exit the process exit code (set to 1 or 2 on failure)
 * @param io environment and streams
 * @example
 * ```ts ignore
 * registerVaultCommands(program, exit, denoVaultIO());
 * ```
 */
export function registerVaultCommands(
  program: Command,
  exit: { code: number },
  io: VaultCommandIO,
): void {
  const vault = program.command("vault").description(
    "client of a graphsvc vault (GRAPHSVC_VAULT_URL, _CLIENTNAME, _PASSWORD, _INVITE_TOKEN)",
  );
  const run = (task: (client: VaultClient) => Promise<void>) => async () => {
    const config = vaultConfigFromEnv(io.env);
    if (!config) {
      io.stderr(
        "error: set GRAPHSVC_VAULT_URL, GRAPHSVC_VAULT_CLIENTNAME and GRAPHSVC_VAULT_PASSWORD\n",
      );
      exit.code = EXIT_USAGE;
      return;
    }
    const full: VaultClientConfig = io.fetch ? { ...config, fetch: io.fetch } : config;
    try {
      await task(new VaultClient(full));
    } catch (e) {
      if (!(e instanceof VaultClientError)) throw e;
      io.stderr(`error: ${e.message}\n`);
      exit.code = e.kind === "usage" ? EXIT_USAGE : EXIT_FAILED;
    }
  };

  const collection = vault.command("collection").description("collections of secrets");
  collection
    .command("create <collection>")
    .description("create a collection (you become its Admin)")
    .action((name) => run((c) => c.createCollection(name))());
  collection
    .command("invite <collection>")
    .description("invite a client; prints the invite token")
    .addOption(clientOption("the client to invite"))
    .addOption(
      envOption("--validity <duration>", "how long the invite is valid (e.g. 1h, 30m)")
        .default("24h"),
    )
    .addOption(envOption("--role <role>", "role granted").choices(ROLES).default("Reader"))
    .action((name, opts) =>
      run(async (c) => {
        const token = await c.invite(name, opts.client, opts.validity, opts.role as Role);
        io.stdout(`${token}\n`);
      })()
    );
  collection
    .command("role <collection>")
    .description("set the role of a member (or of its pending invite)")
    .addOption(clientOption("the member"))
    .addOption(
      envOption("--role <role>", "Reader, Writer or Admin").choices(ROLES).makeOptionMandatory(),
    )
    .action((name, opts) => run((c) => c.setRole(name, opts.client, opts.role as Role))());

  const secret = vault.command("secret").description("secrets of a collection");
  secret
    .command("put <collection> <secret> [value]")
    .description(
      "store a secret; without a value a strong random one is generated; '-' reads stdin",
    )
    .action((coll, name, value) =>
      run(async (c) => {
        let text = value;
        if (text === "-") text = (await io.readStdin()).replace(/\r?\n$/, "");
        if (text === undefined) text = generateSecret();
        await c.putSecret(coll, name, text);
      })()
    );
  secret
    .command("get <collection> <secret>")
    .description("print a secret's plaintext")
    .action((coll, name) =>
      run(async (c) => {
        const value = await c.getSecret(coll, name);
        if (value === undefined) {
          throw new VaultClientError(
            "not-found",
            `no secret '${name}' in '${coll}' (or no access)`,
          );
        }
        io.stdout(`${value}\n`);
      })()
    );
}
