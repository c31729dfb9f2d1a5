/**
 * Fetching modules and the module cache on disk (reference MP10–MP13, MP15, MP18–MP19): the
 * Deno adapter of the {@link ModuleFetcher} port of lib/workspace/dependencies.ts.
 *
 * Cache layout under `$GRAPHSVC_MODULE_CACHE` (default `~/.cache/graphsvc/modules`):
 * - `git/<hash>-<name>/mirror.git`: a bare mirror of the repository (`git clone --mirror`);
 * - `git/<hash>-<name>/<commit>/`: the files of one commit (`git archive`);
 * - `archives/<sha256>/`: the unpacked files of one archive, by checksum of its bytes;
 * - `archives/urls/<hash>`: the checksum last downloaded from a URL (offline use without a lock).
 *
 * Entries are written into a temporary directory and renamed into place, so a concurrent run
 * never sees half an entry. Credentials in URLs never appear in messages (git_sync.ts).
 *
 * @module
 */
import { DenoFsWorkspace } from "../../workspace/deno_fs.ts";
import type { FetchRequest, FetchResult, ModuleFetcher } from "../../workspace/dependencies.ts";
import {
  type GitRef,
  isArchivePath,
  ModuleSourceError,
  sourceLocation,
} from "../../workspace/module_source.ts";
import { archiveChecksum, readTar } from "../../workspace/archive.ts";
import { redactUrl } from "./git_sync.ts";
import {
  archiveFetcher,
  exists,
  type GitHubEndpoints,
  ModuleFetchError,
  sha256Hex,
  writeTree,
} from "./module_archive_fetch.ts";
import { resolveFsPath } from "./fs_path.ts";

export { GITHUB, type GitHubEndpoints, ModuleFetchError } from "./module_archive_fetch.ts";

/** Options of {@link denoModuleFetcher}. */
export interface DenoModuleFetcherOptions {
  /** The cache directory ({@link moduleCacheDir}). */
  cacheDir: string;
  /** Offline (MP13, `--offline`): only local modules and the cache. */
  offline?: boolean;
  /** Base of relative `--module` paths (default: the working directory). */
  cwd?: string;
  /** The git executable (default `git`). */
  git?: string;
  /** Longest a git command or download may run (default 120 s). */
  timeoutMs?: number;
  /** Progress lines (fetching, cloning). */
  log?: (level: "info" | "debug", text: string) => void;
  /** Where GitHub lives for `{version}` of release URLs (MP15; default the real GitHub). */
  github?: GitHubEndpoints;
}

/** Remote refs of a Git repository (for `mod check`). */
export interface RemoteRefs {
  /** Tag name → commit. */
  tags: Map<string, string>;
  /** Branch name → commit. */
  heads: Map<string, string>;
  /** Default branch name, when the remote says. */
  defaultBranch?: string;
}

/** The fetcher, plus what `mod check` asks remotes. */
export interface DenoModuleFetcher extends ModuleFetcher {
  /** Tags and branches of a remote repository (`git ls-remote`). */
  remoteRefs(url: string): Promise<RemoteRefs>;
  /** Checksum of what an archive URL serves now (`{version}`: the latest release). */
  archiveDigest(url: string): Promise<{ url: string; checksum: string }>;
}

/**
 * The cache directory: `$GRAPHSVC_MODULE_CACHE`, else `$XDG_CACHE_HOME/graphsvc/modules`, else
 * `~/.cache/graphsvc/modules` (MP11).
 *
 * @example
 * ```ts
 * import { moduleCacheDir } from "./module_fetch.ts";
 * moduleCacheDir({ GRAPHSVC_MODULE_CACHE: "/tmp/c" }); // "/tmp/c"
 * ```
 */
export function moduleCacheDir(env: Record<string, string | undefined>): string {
  if (env.GRAPHSVC_MODULE_CACHE) return env.GRAPHSVC_MODULE_CACHE;
  if (env.XDG_CACHE_HOME) return `${env.XDG_CACHE_HOME}/graphsvc/modules`;
  return `${env.HOME ?? "."}/.cache/graphsvc/modules`;
}

/** Whether `dir` is a bare Git repository (HEAD, objects/, refs/) or a work tree with `.git`. */
async function isGitRepo(dir: string): Promise<boolean> {
  if (await exists(`${dir}/module.toml`) || await exists(`${dir}/data/module.toml`)) return false;
  const head = await exists(`${dir}/HEAD`);
  return head?.isFile === true && (await exists(`${dir}/objects`)) !== undefined &&
    (await exists(`${dir}/refs`)) !== undefined;
}

/**
 * A fetcher of local paths (directories, bare repositories, archive files), Git URLs and archive
 * URLs, with the cache at `options.cacheDir`.
 *
 * @example
 * ```ts ignore
 * const fetcher = denoModuleFetcher({ cacheDir: moduleCacheDir(Deno.env.toObject()) });
 * const r = await fetcher.fetch({ source: { kind: "git", url: "file:///srv/net.git" } });
 * ```
 */
export function denoModuleFetcher(options: DenoModuleFetcherOptions): DenoModuleFetcher {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const cache = options.cacheDir.replace(/\/+$/, "");
  const log = options.log ?? (() => {});
  const refreshed = new Map<string, Promise<string>>();
  const { fetchArchive, unpack, digest } = archiveFetcher({
    cache,
    offline: options.offline,
    timeoutMs,
    log,
    github: options.github,
  });

  const git = async (args: string[], what: string, url: string): Promise<Uint8Array> => {
    let out: Deno.CommandOutput;
    try {
      out = await new Deno.Command(options.git ?? "git", {
        args,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true", LC_ALL: "C" },
        signal: AbortSignal.timeout(timeoutMs),
      }).output();
    } catch (e) {
      throw new ModuleFetchError(`git could not run: ${redactUrl((e as Error).message)}`);
    }
    if (!out.success) {
      const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-2).join(" | ");
      throw new ModuleFetchError(`${what} ${redactUrl(url)} failed: ${redactUrl(err)}`);
    }
    return out.stdout;
  };
  const text = async (args: string[], what: string, url: string) =>
    new TextDecoder().decode(await git(args, what, url));

  const gitDir = async (url: string) => {
    const name = url.replace(/\/+$/, "").replace(/\.git$/, "").split(/[/:]/).pop() || "repo";
    return `${cache}/git/${(await sha256Hex(url)).slice(0, 16)}-${
      name.replace(/[^A-Za-z0-9._-]/g, "_")
    }`;
  };

  /** Clones or updates the mirror of `url` (once per fetcher); offline: only what is there. */
  const mirror = (url: string): Promise<string> => {
    let p = refreshed.get(url);
    if (!p) {
      p = (async () => {
        const dir = await gitDir(url);
        const m = `${dir}/mirror.git`;
        const have = await exists(`${m}/HEAD`);
        if (options.offline) return have ? m : "";
        if (have) {
          log("debug", `module: updating ${redactUrl(url)}`);
          await git(["--git-dir", m, "fetch", "-q", "--prune", "origin"], "git fetch", url);
        } else {
          log("info", `module: cloning ${redactUrl(url)}`);
          await Deno.mkdir(dir, { recursive: true });
          const tmp = `${m}.${crypto.randomUUID()}.tmp`;
          await git(["clone", "-q", "--mirror", "--", url, tmp], "git clone", url);
          try {
            await Deno.rename(tmp, m);
          } catch {
            await Deno.remove(tmp, { recursive: true }).catch(() => {});
          }
        }
        return m;
      })();
      refreshed.set(url, p);
    }
    return p;
  };

  const resolveRef = async (m: string, url: string, ref?: GitRef): Promise<string | undefined> => {
    const candidates = !ref
      ? ["HEAD"]
      : ref.kind === "tag"
      ? [`refs/tags/${ref.name}`]
      : ref.kind === "branch"
      ? [`refs/heads/${ref.name}`]
      : ref.kind === "rev"
      ? [ref.name]
      : [`refs/tags/${ref.name}`, `refs/heads/${ref.name}`, ref.name];
    for (const c of candidates) {
      try {
        return (await text(
          ["--git-dir", m, "rev-parse", "-q", "--verify", `${c}^{commit}`],
          "git rev-parse",
          url,
        )).trim();
      } catch { /* next candidate */ }
    }
    return undefined;
  };

  const fetchGit = async (
    url: string,
    ref: GitRef | undefined,
    req: FetchRequest,
    location: string,
  ): Promise<FetchResult> => {
    const dir = await gitDir(url);
    const pinned = req.pin?.kind === "git" ? req.pin.resolved : undefined;
    const pin = (commit: string) => ({
      source: location,
      requested: ref?.name ?? "",
      resolved: commit,
      kind: "git" as const,
    });
    const ok = (commit: string): FetchResult => ({
      status: "ok",
      workspace: new DenoFsWorkspace(`${dir}/${commit}`),
      identity: `git:${location}@${commit}`,
      pin: pin(commit),
    });
    // A pinned commit already in the cache needs no network (MP11).
    if (pinned && await exists(`${dir}/${pinned}`)) return ok(pinned);
    const m = await mirror(url);
    if (m === "") return { status: "unavailable", reason: "not in the module cache" };
    let commit = pinned;
    if (commit) {
      if (await resolveRef(m, url, { kind: "rev", name: commit }) !== commit) {
        if (options.offline) {
          return { status: "unavailable", reason: `pinned commit ${commit} is not in the cache` };
        }
        throw new ModuleFetchError(`pinned commit ${commit} not found in ${redactUrl(url)}`);
      }
    } else {
      commit = await resolveRef(m, url, ref);
      if (!commit) {
        const what = ref ? `${ref.kind === "ref" ? "ref" : ref.kind} '${ref.name}'` : "HEAD";
        throw new ModuleFetchError(`${what} not found in ${redactUrl(url)}`);
      }
    }
    if (!(await exists(`${dir}/${commit}`))) {
      const tar = await git(
        ["--git-dir", m, "archive", "--format=tar", commit],
        "git archive",
        url,
      );
      await writeTree(`${dir}/${commit}`, readTar(tar));
    }
    return ok(commit);
  };

  const fetchPath = async (path: string, req: FetchRequest): Promise<FetchResult> => {
    const abs = resolveFsPath(req.base ?? options.cwd ?? Deno.cwd(), path);
    const info = await exists(abs);
    if (!info) {
      // `<repo>#<ref>` or `<repo>:<tag>` of a local repository.
      const m = /^(.*)#([^#]+)$/.exec(abs) ?? /^(.*):([^/:]+)$/.exec(abs);
      if (m && (await exists(m[1]))?.isDirectory && await isGitRepo(m[1])) {
        const ref: GitRef = { kind: abs.includes("#") ? "ref" : "tag", name: m[2] };
        return fetchGit(m[1], ref, req, m[1]);
      }
      throw new ModuleFetchError(`'${path}' does not exist`);
    }
    if (info.isFile && isArchivePath(abs)) {
      const bytes = await Deno.readFile(abs);
      const sum = await archiveChecksum(bytes);
      return {
        status: "ok",
        workspace: new DenoFsWorkspace(await unpack(bytes, abs, sum)),
        identity: `archive:${sum}`,
        pin: { source: path, requested: "", resolved: path, kind: "path", checksum: sum },
      };
    }
    if (!info.isDirectory) throw new ModuleFetchError(`'${path}' is not a directory`);
    if (await isGitRepo(abs)) return fetchGit(abs, undefined, req, abs);
    const real = await Deno.realPath(abs);
    return {
      status: "ok",
      workspace: new DenoFsWorkspace(abs),
      identity: `path:${real}`,
      pin: { source: path, requested: "", resolved: path, kind: "path" },
    };
  };

  return {
    fetch(req) {
      const s = req.source;
      if (s.kind === "path") return fetchPath(s.path, req);
      if (s.kind === "git") return fetchGit(s.url, s.ref, req, sourceLocation(s));
      return fetchArchive(s, req);
    },
    archiveDigest: digest,
    async remoteRefs(url) {
      if (options.offline) throw new ModuleSourceError("offline: remotes are not asked");
      const out = await text(["ls-remote", "--symref", "--", url], "git ls-remote", url);
      const refs: RemoteRefs = { tags: new Map(), heads: new Map() };
      for (const line of out.split("\n")) {
        const sym = /^ref: refs\/heads\/(\S+)\s+HEAD$/.exec(line);
        if (sym) refs.defaultBranch = sym[1];
        const m = /^([0-9a-f]{40})\s+refs\/(tags|heads)\/(\S+)$/.exec(line);
        if (!m) continue;
        if (m[2] === "heads") refs.heads.set(m[3], m[1]);
        else if (m[3].endsWith("^{}")) refs.tags.set(m[3].slice(0, -3), m[1]);
        else if (!refs.tags.has(m[3])) refs.tags.set(m[3], m[1]);
      }
      return refs;
    },
  };
}
