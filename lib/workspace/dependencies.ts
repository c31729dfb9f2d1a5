/**
 * Resolving the module tree (reference MP2–MP7, MP11–MP19): the `--module` sources and the
 * `[dependencies]` of the data directory and of every module, recursively, through a
 * {@link ModuleFetcher} port (the Deno adapter is lib/runtime/deno/module_fetch.ts). The result
 * is the modules in load order (dependencies before dependents, then command-line order, MP12)
 * with their ids (MP7), the lock entries of every dependency (MP18) and the warnings.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";
import {
  checkModuleTable,
  dependenciesOf,
  ModuleResolutionError,
  readManifest,
} from "./module_meta.ts";
import {
  type DependencySpec,
  describeSource,
  moduleSlug,
  type ModuleSource,
  parseModuleSource,
  requestedVersion,
  sourceLocation,
  uniqueIds,
} from "./module_source.ts";
import { findPin, LOCK_FILE, type LockEntry, parseLock } from "./module_lock.ts";

export { checkModuleTable, ModuleResolutionError } from "./module_meta.ts";

/** What to fetch. */
export interface FetchRequest {
  /** Dependency key; undefined for a `--module` source. */
  key?: string;
  /** The source. */
  source: ModuleSource;
  /** Root of the declaring module (relative paths are relative to it); the cwd for `--module`. */
  base?: string;
  /** The lock entry to honour (exact commit or checksum), if pinned. */
  pin?: LockEntry;
}

/** A fetched (or local) module, or why it is not there. */
export type FetchResult =
  | {
    status: "ok";
    /** The module's files. */
    workspace: Workspace;
    /** Same identity = same module (resolved path, URL + commit, checksum). */
    identity: string;
    /** The pin describing what was resolved (the lock entry without `key`). */
    pin: Omit<LockEntry, "key">;
  }
  | {
    /** Offline and not in the cache. */
    status: "unavailable";
    /** Why. */
    reason: string;
  };

/** Materialises module sources (local, Git, archives, the cache). */
export interface ModuleFetcher {
  /** Fetches one source; throws (naming the source) when it cannot. */
  fetch(request: FetchRequest): Promise<FetchResult>;
}

/** A resolved module, ready to load as a layer. */
export interface ResolvedModule {
  /** Unique id (MP7). */
  id: string;
  /** Dependency key, when declared in `[dependencies]`. */
  key?: string;
  /** Where it came from. */
  source: ModuleSource;
  /** Its files. */
  workspace: Workspace;
  /** Identity (see {@link FetchResult}). */
  identity: string;
  /** `[module].name` (directory name without a manifest). */
  name: string;
  /** `[module].version`. */
  version: string;
  /** Type aliases its dependent declared for it (MP17). */
  resourceAliases: Record<string, string>;
}

/** A warning of resolution. */
export interface ResolutionWarning {
  /** `dependency_unavailable`, `dependency_version_conflict`, `lock_missing`, `manifest_missing`. */
  code: string;
  /** Message naming the module. */
  message: string;
}

/** Input of {@link resolveModuleTree}. */
export interface ResolveInput {
  /** The root: the data directory (or the module `mod` commands work on). */
  root: Workspace;
  /** `--module` sources in command-line order. */
  modules?: readonly string[];
  /** Base of relative `--module` paths (the working directory). */
  cwd?: string;
  /** The fetcher. */
  fetcher: ModuleFetcher;
  /** Versions the constraints are checked against: graphsvc's and the original's (MP4, MP6). */
  engine: { graphsvc: string; rescile: string };
  /** Ignore lock pins (`mod update`): every key, or these keys. */
  unpin?: "all" | ReadonlySet<string>;
}

/** Result of {@link resolveModuleTree}. */
export interface ResolveResult {
  /** Modules in load order (the root itself is not included). */
  modules: ResolvedModule[];
  /**
   * Lock entries of every remote module reached (transitively): dependencies under their key,
   * remote `--module` sources under their location.
   */
  lock: LockEntry[];
  /** Entries of the root's `module.lock` (empty when there is none). */
  rootLock: LockEntry[];
  /** Whether the root has a `module.lock`. */
  hasLock: boolean;
  /** The root's own `[dependencies]`. */
  rootDependencies: DependencySpec[];
  /** Warnings. */
  warnings: ResolutionWarning[];
}

interface Node {
  identity: string;
  key?: string;
  source: ModuleSource;
  workspace: Workspace;
  name: string;
  version: string;
  aliases: Record<string, string>;
  deps: string[];
  label: string;
}

interface Pending {
  key?: string;
  source: ModuleSource;
  aliases: Record<string, string>;
  base?: string;
  parent: Node;
  /** Given with `--module` (locked under its location, MP18). */
  cli?: boolean;
}

/**
 * Resolves the module tree of `input.root` and `input.modules`.
 *
 * @example
 * ```ts ignore
 * const r = await resolveModuleTree({ root: dataDir, modules: ["../net"], fetcher,
 *   engine: { graphsvc: VERSION, rescile: RESCILE_VERSION } });
 * for (const m of r.modules) console.log(m.id, m.workspace.location);
 * ```
 */
export async function resolveModuleTree(input: ResolveInput): Promise<ResolveResult> {
  const warnings: ResolutionWarning[] = [];
  const lockText = await input.root.readText(LOCK_FILE);
  const rootLock = lockText === undefined ? [] : parseLock(lockText, LOCK_FILE);
  const pins = [...rootLock];
  const rootManifest = await readManifest(input.root, ".");
  const rootFile = "module.toml";
  if (rootManifest.doc) checkModuleTable(rootManifest.doc, rootFile, input.engine, true);
  const rootDeps = dependenciesOf(rootManifest.doc, rootFile);
  const root: Node = {
    identity: "\u0000root",
    source: { kind: "path", path: "." },
    workspace: input.root,
    name: "data directory",
    version: "",
    aliases: {},
    deps: [],
    label: "the data directory",
  };
  const nodes = new Map<string, Node>();
  const byLocation = new Map<string, { requested: string; identity: string }>();
  const lock: LockEntry[] = [];
  const queue: Pending[] = [];
  for (const text of input.modules ?? []) {
    let source: ModuleSource;
    try {
      source = parseModuleSource(text);
    } catch (e) {
      throw new ModuleResolutionError((e as Error).message, "invalid_source");
    }
    queue.push({ source, aliases: {}, base: input.cwd, parent: root, cli: true });
  }
  const rootBase = input.root.location + (rootManifest.prefix ? "/data" : "");
  for (const d of rootDeps) {
    queue.push({
      key: d.key,
      source: d.source,
      aliases: d.resourceAliases,
      base: rootBase,
      parent: root,
    });
  }
  while (queue.length > 0) {
    const p = queue.shift()!;
    const name = p.key ?? describeSource(p.source);
    const loc = p.source.kind === "path" ? undefined : sourceLocation(p.source);
    const requested = requestedVersion(p.source);
    if (loc !== undefined) {
      const seen = byLocation.get(loc);
      if (seen) {
        if (seen.requested !== requested) {
          warnings.push({
            code: "dependency_version_conflict",
            message: `${p.parent.label} asks for ${loc} ${requested || "(default)"}; ` +
              `${seen.requested || "(default)"} is used (the version closest to the root wins)`,
          });
        }
        if (!p.parent.deps.includes(seen.identity)) p.parent.deps.push(seen.identity);
        continue;
      }
    }
    // A remote `--module` source is locked too (MP18), under its location as key.
    const lockKey = p.key ?? (p.cli && loc !== undefined ? loc : undefined);
    const unpinned = input.unpin === "all" ||
      (lockKey !== undefined && input.unpin?.has(lockKey) === true);
    const pin = lockKey !== undefined && !unpinned && p.source.kind !== "path"
      ? findPin(pins, lockKey, loc!, requested)
      : undefined;
    if (
      lockKey !== undefined && !pin && !unpinned && lockText !== undefined &&
      p.source.kind !== "path"
    ) {
      const what = p.key !== undefined ? `dependency '${p.key}' (${loc})` : `--module ${loc}`;
      warnings.push({
        code: "lock_missing",
        message: `${what} is not pinned in ${LOCK_FILE}; resolved fresh ` +
          `(run 'mod lock' to pin it)`,
      });
    }
    let result: FetchResult;
    try {
      result = await input.fetcher.fetch({ key: p.key, source: p.source, base: p.base, pin });
    } catch (e) {
      const raw = (e as { code?: unknown }).code;
      const code = typeof raw === "string" ? raw : "module_fetch_failed";
      // The message names the module and the code (`unresolved_version`, …), as it is shown.
      throw new ModuleResolutionError(
        `cannot load module '${name}' (${
          describeSource(p.source)
        }, needed by ${p.parent.label}): ${code}: ${(e as Error).message}`,
        code,
      );
    }
    if (result.status === "unavailable") {
      warnings.push({
        code: "dependency_unavailable",
        message: `module '${name}' (${describeSource(p.source)}) is not available offline and ` +
          `is left out: ${result.reason}`,
      });
      continue;
    }
    if (loc !== undefined) byLocation.set(loc, { requested, identity: result.identity });
    if (lockKey !== undefined) lock.push({ key: lockKey, ...result.pin });
    const existing = nodes.get(result.identity);
    if (existing) {
      existing.key ??= p.key;
      if (!p.parent.deps.includes(existing.identity)) p.parent.deps.push(existing.identity);
      continue;
    }
    const basename = result.workspace.location.replace(/\/+$/, "").split("/").pop() || "module";
    const manifest = await readManifest(result.workspace, p.key ?? basename);
    let meta = { name: basename, version: "0.0.0" };
    if (manifest.doc) meta = checkModuleTable(manifest.doc, manifest.file, input.engine);
    else {
      warnings.push({
        code: "manifest_missing",
        message: `module '${name}' has no module.toml; loaded as '${basename}' version 0.0.0`,
      });
    }
    const node: Node = {
      identity: result.identity,
      key: p.key,
      source: p.source,
      workspace: result.workspace,
      name: meta.name,
      version: meta.version,
      aliases: p.aliases,
      deps: [],
      label: `module '${p.key ?? meta.name}'`,
    };
    nodes.set(node.identity, node);
    p.parent.deps.push(node.identity);
    if (result.pin.kind === "path") {
      const own = await result.workspace.readText(manifest.prefix + LOCK_FILE);
      if (own !== undefined) pins.push(...parseLock(own, `${node.label} ${LOCK_FILE}`));
    }
    const base = result.workspace.location + (manifest.prefix ? "/data" : "");
    for (const d of dependenciesOf(manifest.doc, manifest.file)) {
      queue.push({ key: d.key, source: d.source, aliases: d.resourceAliases, base, parent: node });
    }
  }
  const order = loadOrder(root, nodes);
  const ids = uniqueIds(order.map((n) => n.key ?? moduleSlug(n.name)));
  return {
    modules: order.map((n, i) => ({
      id: ids[i],
      key: n.key,
      source: n.source,
      workspace: n.workspace,
      identity: n.identity,
      name: n.name,
      version: n.version,
      resourceAliases: n.aliases,
    })),
    lock,
    rootLock,
    hasLock: lockText !== undefined,
    rootDependencies: rootDeps,
    warnings,
  };
}

/** Depth-first post-order from the root (MP12); a cycle is an error naming it (MP16). */
function loadOrder(root: Node, nodes: ReadonlyMap<string, Node>): Node[] {
  const out: Node[] = [];
  const done = new Set<string>();
  const stack: Node[] = [];
  const visit = (n: Node) => {
    if (done.has(n.identity)) return;
    const at = stack.indexOf(n);
    if (at >= 0) {
      const cycle = [...stack.slice(at), n].map((x) => x.key ?? x.name);
      throw new ModuleResolutionError(
        `dependency cycle: ${cycle.join(" → ")}`,
        "dependency_cycle",
      );
    }
    stack.push(n);
    for (const d of n.deps) visit(nodes.get(d)!);
    stack.pop();
    done.add(n.identity);
    if (n !== root) out.push(n);
  };
  visit(root);
  return out;
}
