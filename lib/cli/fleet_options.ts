/**
 * The `serve` options of a fleet (issue 29) and their wiring: `--git-push sync|async` makes the
 * server a primary that commits and pushes every write; `--replica-of <primary URL>` makes it a
 * replica that follows the branch and forwards writes. Both need the remote (`--git-sync-url`,
 * or `GIT_SYNC_URL`); the remote without `--git-push` makes a replica too (writes are then
 * answered 421 unless `--replica-of` names the primary). This is CLI glue: it runs git through
 * the Deno adapter.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { envOption } from "./env_options.ts";
import type { GraphEngine } from "../engine.ts";
import { parseAuthor } from "../fleet/mod.ts";
import { type FleetNode, startFleetNode } from "../fleet/node.ts";
import { denoGitRun } from "../runtime/deno/git_run.ts";
import { gitSync } from "../runtime/deno/git_sync.ts";

/** The fleet options as commander parses them. */
export interface FleetFlags {
  /** `--git-push`. */
  gitPush?: string;
  /** `--git-push-bound`. */
  gitPushBound?: string;
  /** `--replica-of`. */
  replicaOf?: string;
  /** `--git-sync-url`. */
  gitSyncUrl?: string;
  /** `--git-fetch-interval`. */
  gitFetchInterval?: string;
  /** `--git-author`. */
  gitAuthor?: string;
  /** `--min-commit-wait`. */
  minCommitWait?: string;
}

/**
 * Adds the fleet options to `serve`.
 *
 * @example
 * ```ts ignore
 * addFleetOptions(program.command("serve"));
 * ```
 */
export function addFleetOptions<C>(command: C): C {
  (command as unknown as Command)
    .addOption(envOption(
      "--git-push <mode>",
      "primary: commit every write to the data directory's branch and push it, 'sync' (before " +
        "the answer) or 'async' (within --git-push-bound ms)",
    ))
    .addOption(
      envOption("--git-push-bound <ms>", "async: longest a write waits to be pushed")
        .default("1000"),
    )
    .addOption(envOption(
      "--replica-of <url>",
      "replica: follow the Git remote and forward writes to this primary",
    ))
    .addOption(envOption(
      "--git-sync-url <url>",
      "the fleet's Git remote (default: the GIT_SYNC_URL variable)",
    ))
    .addOption(
      envOption("--git-fetch-interval <ms>", "replica: fetch the remote this often")
        .default("1000"),
    )
    .addOption(envOption("--git-author <author>", "commit author 'Name <email>'"))
    .addOption(
      envOption(
        "--min-commit-wait <ms>",
        "longest a Graphsvc-Min-Commit read waits for the commit (then 504)",
      ).default("10000"),
    );
  return command;
}

/** The checked fleet configuration, `undefined` for a single server. */
export interface FleetConfig {
  /** Primary (`--git-push`) or replica (`--replica-of`). */
  role: "primary" | "replica";
  /** The Git remote. */
  url: string;
  /** The primary's push mode. */
  push?: "sync" | "async";
  /** Async push bound in ms. */
  pushBoundMs: number;
  /** A replica's primary (origin and path, no trailing slash). */
  primaryUrl?: string;
  /** A replica's fetch interval in ms. */
  fetchIntervalMs: number;
  /** The commit author. */
  author?: { name: string; email: string };
  /** Bound of a `Graphsvc-Min-Commit` wait in ms. */
  minCommitWaitMs: number;
}

/** Checks the fleet flags; `usage` makes the error the CLI exits 2 with. */
export function fleetConfig(
  parsed: object,
  usage: (message: string) => Error,
): FleetConfig | undefined {
  const flags = parsed as FleetFlags;
  const url = flags.gitSyncUrl || Deno.env.get("GIT_SYNC_URL");
  // The remote alone (GIT_SYNC_URL without --git-push) makes a replica: a server whose data
  // directory is reset to the remote must not take writes of its own (they would be reset away).
  if (!flags.gitPush && !flags.replicaOf && !url) return undefined;
  if (flags.gitPush && flags.replicaOf) {
    throw usage("--git-push (a primary) and --replica-of (a replica) exclude each other");
  }
  if (!url) {
    throw usage(
      `${flags.gitPush ? "--git-push" : "--replica-of"} needs the Git remote: --git-sync-url ` +
        "or the GIT_SYNC_URL variable",
    );
  }
  if (flags.gitPush && flags.gitPush !== "sync" && flags.gitPush !== "async") {
    throw usage(`--git-push: expected 'sync' or 'async', got '${flags.gitPush}'`);
  }
  const ms = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw usage(`${name}: expected a positive integer (ms)`);
    return n;
  };
  let primaryUrl: string | undefined;
  if (flags.replicaOf) {
    try {
      const u = new URL(flags.replicaOf);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
      primaryUrl = u.origin + u.pathname.replace(/\/+$/, "");
    } catch {
      throw usage(`--replica-of: expected the primary's http(s) URL, got '${flags.replicaOf}'`);
    }
  }
  let author: { name: string; email: string } | undefined;
  if (flags.gitAuthor) {
    const a = parseAuthor(flags.gitAuthor);
    if (a instanceof Error) throw usage(`--git-author: ${a.message}`);
    author = a;
  }
  return {
    role: flags.gitPush ? "primary" : "replica",
    url,
    push: flags.gitPush as "sync" | "async" | undefined,
    pushBoundMs: ms("--git-push-bound", flags.gitPushBound),
    primaryUrl,
    fetchIntervalMs: ms("--git-fetch-interval", flags.gitFetchInterval),
    author,
    minCommitWaitMs: ms("--min-commit-wait", flags.minCommitWait),
  };
}

/** Makes the data directory a checkout of the remote's default branch (before the engine). */
export async function prepareFleetDir(
  config: FleetConfig | undefined,
  dataDir: string,
  log: (level: string, text: string) => void,
): Promise<void> {
  if (!config) return;
  await Deno.mkdir(dataDir, { recursive: true });
  await gitSync(dataDir, config.url)(log);
}

/** Starts the fleet member over the engine (after {@link prepareFleetDir}). */
export function startFleet(
  config: FleetConfig | undefined,
  engine: GraphEngine,
  dataDir: string,
  log: (level: string, text: string) => void,
): Promise<FleetNode> | undefined {
  if (!config) return undefined;
  log("info", `fleet: ${config.role}${config.push ? ` (${config.push} push)` : ""}`);
  return startFleetNode({
    engine,
    git: denoGitRun(dataDir),
    role: config.role,
    primaryUrl: config.primaryUrl,
    push: config.push,
    pushBoundMs: config.pushBoundMs,
    fetchIntervalMs: config.fetchIntervalMs,
    minCommitWaitMs: config.minCommitWaitMs,
    author: config.author,
    apiToken: Deno.env.get("GRAPHSVC_API_TOKEN") || undefined,
    log,
  });
}
