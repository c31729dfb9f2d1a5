/**
 * Module resolution for the command line and the `mod lock|check|update|fetch` commands
 * (reference MP11–MP20, CL14, CL21). Fetching goes through the {@link ModuleFetcher} port (Deno:
 * lib/runtime/deno/module_fetch.ts), so this module stays free of runtime APIs; `cli.ts` wires it
 * with {@link registerModCommands} and {@link resolveLayerSources}.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { Workspace } from "../workspace/workspace.ts";
import type { LayerSource } from "../workspace/sources.ts";
import {
  type ModuleFetcher,
  ModuleResolutionError,
  resolveModuleTree,
  type ResolveResult,
} from "../workspace/dependencies.ts";
import { formatLock, LOCK_FILE, type LockEntry } from "../workspace/module_lock.ts";
import { isRemote } from "../workspace/module_source.ts";
import { compareVersions, parseVersion } from "../workspace/version_constraint.ts";
import { ParseError } from "../formats/errors.ts";
import { RESCILE_VERSION, VERSION } from "../version.ts";

/** Tags and branches of a remote Git repository. */
export interface RemoteRefsLike {
  /** Tag → commit. */
  tags: Map<string, string>;
  /** Branch → commit. */
  heads: Map<string, string>;
  /** The default branch. */
  defaultBranch?: string;
}

/** A fetcher that can also list remote refs (for `mod check`). */
export interface ModFetcher extends ModuleFetcher {
  /** Tags and branches of `url`. */
  remoteRefs?(url: string): Promise<RemoteRefsLike>;
  /** Checksum of what an archive URL serves now (`{version}`: the latest release). */
  archiveDigest?(url: string): Promise<{ url: string; checksum: string }>;
}

/** Where the `mod` commands and module resolution work. */
export interface ModContext {
  /** The data directory. */
  dataDir: Workspace;
  /** `--module` sources in command-line order. */
  modules: readonly string[];
  /** Opens a local directory (a single `--module` as the `mod` commands' target). */
  openDir(path: string): Promise<Workspace | undefined>;
  /** Base of relative `--module` paths. */
  cwd: string;
  /** The fetcher. */
  fetcher: ModFetcher;
  /** Command results. */
  stdout(text: string): void;
  /**
   * Log lines (warnings of the resolution): the CLI's logger, so they carry its edition's form
   * and `--log-format` (CL20).
   */
  log(level: "error" | "warn" | "info" | "debug", text: string): void;
}

/** What the commands need from the CLI around them. */
export interface ModCommandDeps {
  /** The process exit code. */
  exit: { code: number };
  /** Builds the context from the global options (throws usage errors as the CLI's own). */
  context(): Promise<ModContext>;
  /** Turns a configuration error into the CLI's usage error (exit 2). */
  usageError(message: string): Error;
}

/** Versions module constraints are checked against (MP4, MP6). */
export const ENGINE_VERSIONS = { graphsvc: VERSION, rescile: RESCILE_VERSION };

/** Converts resolution and manifest errors into `usage` errors. */
async function guarded<T>(usage: (m: string) => Error, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ModuleResolutionError || e instanceof ParseError) throw usage(e.message);
    throw e;
  }
}

/**
 * Resolves the modules of a run (MP10–MP16): the `--module` sources and the dependencies of the
 * data directory's manifest and of every module, into layer sources in load order. Warnings
 * (offline `dependency_unavailable`, version conflicts, missing lock pins) go to `warn`.
 *
 * @example
 * ```ts ignore
 * const modules = await resolveLayerSources(ctx, (m) => log("warn", m));
 * ```
 */
export async function resolveLayerSources(
  ctx: Pick<ModContext, "dataDir" | "modules" | "cwd" | "fetcher">,
  warn: (message: string) => void,
): Promise<LayerSource[]> {
  const r = await resolveModuleTree({
    root: ctx.dataDir,
    modules: ctx.modules,
    cwd: ctx.cwd,
    fetcher: ctx.fetcher,
    engine: ENGINE_VERSIONS,
  });
  for (const w of r.warnings) warn(`${w.code}: ${w.message}`);
  return r.modules.map((m) => ({
    id: m.id,
    workspace: m.workspace,
    resourceAliases: m.resourceAliases,
  }));
}

/**
 * The module the `mod` commands work on (CL14): the data directory when it has a
 * `module.toml`, else the single local `--module`.
 */
async function target(ctx: ModContext, usage: (m: string) => Error) {
  if (await ctx.dataDir.readText("module.toml") !== undefined) {
    return { root: ctx.dataDir, modules: ctx.modules, label: "the data directory" };
  }
  if (ctx.modules.length === 1) {
    const ws = await ctx.openDir(ctx.modules[0]);
    if (ws) return { root: ws, modules: [], label: `module ${ctx.modules[0]}` };
  }
  // Remote `--module` sources are locked in the data directory's module.lock (MP18).
  if (ctx.modules.some((m) => isRemote(m.trim()))) {
    return { root: ctx.dataDir, modules: ctx.modules, label: "the data directory" };
  }
  throw usage(
    "no module.toml in the data directory, no single local --module and no remote --module: " +
      "nothing to lock",
  );
}

function short(s: string): string {
  return /^[0-9a-f]{40}$/.test(s) ? s.slice(0, 12) : s;
}

function describe(e: LockEntry): string {
  return e.kind === "git"
    ? `${e.requested || "default branch"} ${short(e.resolved)}`
    : e.kind === "archive"
    ? `${e.requested || e.resolved} ${e.checksum ?? ""}`.trim()
    : e.resolved;
}

/** Whether a lock entry is a `--module` source's (keyed by its location). */
const fromCli = (e: LockEntry) => e.key === e.source;

const same = (a: LockEntry, b: LockEntry) =>
  a.key === b.key && a.source === b.source && a.requested === b.requested;

/**
 * Registers `mod lock`, `mod check`, `mod update [key]` and `mod fetch` on `program` (next to
 * `mod check-schema`).
 *
 * @example
 * ```ts ignore
 * registerModCommands(program, { exit, context: () => modContext(opts), usageError });
 * ```
 */
export function registerModCommands(program: Command, deps: ModCommandDeps): void {
  const mod = (program.commands.find((c) => c.name() === "mod") as Command | undefined) ??
    (program.command("mod").description("module sub-commands") as unknown as Command);
  const usage = deps.usageError;
  const resolve = async (ctx: ModContext, unpin?: "all" | Set<string>) => {
    const t = await target(ctx, usage);
    const r = await guarded(usage, () =>
      resolveModuleTree({
        root: t.root,
        modules: t.modules,
        cwd: ctx.cwd,
        fetcher: ctx.fetcher,
        engine: ENGINE_VERSIONS,
        unpin,
      }));
    for (const w of r.warnings) {
      if (w.code !== "lock_missing" || unpin === undefined) {
        ctx.log("warn", `${w.code}: ${w.message}`);
      }
    }
    return { ...t, r };
  };
  const writeLock = async (root: Workspace, r: ResolveResult) => {
    await root.writeTextAtomic(LOCK_FILE, formatLock(r.lock));
  };

  mod.command("lock")
    .description("resolve every dependency and write (or heal) module.lock")
    .action(async () => {
      const ctx = await deps.context();
      const { root, r } = await resolve(ctx);
      await writeLock(root, r);
      for (const e of r.lock) ctx.stdout(`locked ${e.key} ${e.source} ${describe(e)}\n`);
      ctx.stdout(
        `wrote ${LOCK_FILE} (${r.lock.length} entr${r.lock.length === 1 ? "y" : "ies"})\n`,
      );
    });

  mod.command("update")
    .description("move module.lock to the newest versions (all, or one dependency key)")
    .argument("[key]", "dependency key")
    .action(async (key?: string) => {
      const ctx = await deps.context();
      const { root, r } = await resolve(ctx, key ? new Set([key]) : "all");
      if (key && !r.lock.some((e) => e.key === key)) {
        throw usage(`no dependency '${key}' in the module tree`);
      }
      await writeLock(root, r);
      for (const e of r.lock) {
        if (key && e.key !== key) continue;
        const before = r.rootLock.find((o) => same(o, e));
        const now = describe(e);
        if (!before) ctx.stdout(`${e.key} → ${now} (new)\n`);
        else if (before.resolved === e.resolved && before.checksum === e.checksum) {
          ctx.stdout(`${e.key} ${now} (unchanged)\n`);
        } else ctx.stdout(`${e.key} ${describe(before)} → ${now}\n`);
      }
    });

  mod.command("fetch")
    .description("download every module into the local cache without building")
    .action(async () => {
      const ctx = await deps.context();
      const { r } = await resolve(ctx);
      for (const m of r.modules) {
        ctx.stdout(`fetched ${m.id} ${m.name} ${m.version} (${m.workspace.location})\n`);
      }
    });

  mod.command("check")
    .description("compare module.lock with module.toml and the remotes; list available updates")
    .action(async () => {
      const ctx = await deps.context();
      // MP20: `mod check` reports and exits 0 always, also when the tree cannot be resolved
      // (its configuration errors are exit 2 for every other command, CL21).
      deps.exit.code = 0;
      let r: ResolveResult;
      try {
        r = (await resolve(ctx)).r;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        // A finding of the check, like an unreachable remote below: part of its report.
        ctx.stdout(`cannot resolve the modules: ${message}\n`);
        return;
      }
      const lines: string[] = [];
      if (!r.hasLock) lines.push(`no ${LOCK_FILE}: run 'mod lock' to pin the dependencies`);
      for (const e of r.lock) {
        if (r.hasLock && !r.rootLock.some((o) => same(o, e))) {
          const why = fromCli(e) ? "new --module" : "module.toml changed";
          lines.push(`${e.key}: not pinned in ${LOCK_FILE} (${why}; run 'mod lock')`);
        }
      }
      for (const o of r.rootLock) {
        if (!r.lock.some((e) => same(o, e))) {
          const why = fromCli(o) ? "not given as --module" : "no longer required";
          lines.push(`${o.key}: in ${LOCK_FILE} but ${why} (run 'mod lock')`);
        }
      }
      for (const e of r.lock) {
        if (e.kind === "archive" && ctx.fetcher.archiveDigest) {
          lines.push(...await archiveUpdate(e, ctx.fetcher.archiveDigest));
          continue;
        }
        if (e.kind !== "git" || !ctx.fetcher.remoteRefs) continue;
        let refs: RemoteRefsLike;
        try {
          refs = await ctx.fetcher.remoteRefs(e.source);
        } catch (err) {
          lines.push(`${e.key}: cannot ask the remote: ${(err as Error).message}`);
          continue;
        }
        const available = availableUpdate(e, refs);
        if (available) lines.push(`${e.key} ${available.current} → ${available.available}`);
      }
      if (lines.length === 0) lines.push("all dependencies are up to date");
      for (const l of lines) ctx.stdout(l + "\n");
    });
}

/**
 * The update of an archive lock entry (MP20): what its URL serves now. An explicit version keeps
 * the URL, so only a changed checksum is news; `{version}` without one follows the latest release.
 */
async function archiveUpdate(
  e: LockEntry,
  digest: NonNullable<ModFetcher["archiveDigest"]>,
): Promise<string[]> {
  let now: { url: string; checksum: string };
  try {
    now = await digest(e.requested === "" ? e.source : e.resolved);
  } catch (err) {
    return [`${e.key}: cannot download the archive: ${(err as Error).message}`];
  }
  if (now.url !== e.resolved) return [`${e.key} ${e.resolved} → ${now.url}`];
  if (e.checksum !== undefined && now.checksum !== e.checksum) {
    const c = (s: string) => s.slice(0, 19);
    return [`${e.key} ${c(e.checksum)} → ${c(now.checksum)} (same URL, new content)`];
  }
  return [];
}

function semver(tag: string): [number, number, number] | undefined {
  try {
    return /^v?\d+(\.\d+){0,2}$/.test(tag) ? parseVersion(tag) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The update available for a Git lock entry (MP20): a newer commit on the tracked branch (or the
 * default branch), or the newest semver tag above the pinned one.
 *
 * @example
 * ```ts
 * import { availableUpdate } from "./mod_commands.ts";
 * availableUpdate(
 *   { key: "net", source: "x", requested: "v1.0.0", resolved: "a".repeat(40), kind: "git" },
 *   { tags: new Map([["v1.0.0", "a".repeat(40)], ["v1.2.0", "b".repeat(40)]]), heads: new Map() },
 * ); // { current: "v1.0.0", available: "v1.2.0" }
 * ```
 */
export function availableUpdate(
  e: LockEntry,
  refs: RemoteRefsLike,
): { current: string; available: string } | undefined {
  const branch = e.requested === "" ? refs.defaultBranch : e.requested;
  if (branch !== undefined && refs.heads.has(branch) && !refs.tags.has(e.requested)) {
    const head = refs.heads.get(branch)!;
    return head === e.resolved ? undefined : { current: short(e.resolved), available: short(head) };
  }
  const pinned = semver(e.requested);
  if (!pinned) return undefined;
  let best: string | undefined;
  for (const tag of refs.tags.keys()) {
    const v = semver(tag);
    if (!v || compareVersions(v, pinned) <= 0) continue;
    if (!best || compareVersions(v, semver(best)!) > 0) best = tag;
  }
  return best ? { current: e.requested, available: best } : undefined;
}
