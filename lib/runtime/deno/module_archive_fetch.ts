/**
 * Archive modules for the module fetcher (reference MP10, MP11, MP15, MP18–MP19): downloads over
 * HTTP, `{version}` of GitHub release URLs, checksums, and the unpacked archives in the cache
 * (`archives/<sha256>/`, `archives/urls/<hash>` for offline use without a lock). Also the small
 * file helpers module_fetch.ts shares.
 *
 * @module
 */
import { DenoFsWorkspace } from "../../workspace/deno_fs.ts";
import type { FetchRequest, FetchResult } from "../../workspace/dependencies.ts";
import {
  archiveFormat,
  type ModuleSource,
  requestedVersion,
  sourceLocation,
} from "../../workspace/module_source.ts";
import { archiveChecksum, extractArchive } from "../../workspace/archive.ts";
import { redactUrl } from "./git_sync.ts";

/** A fetch failure with a code (`module_fetch_failed`, `checksum_mismatch`, `unresolved_version`). */
export class ModuleFetchError extends Error {
  /** @param message what failed (credentials removed) @param code machine-readable code */
  constructor(message: string, readonly code = "module_fetch_failed") {
    super(message);
    this.name = "ModuleFetchError";
  }
}

/** File info of `path`, or undefined when it does not exist. */
export async function exists(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch {
    return undefined;
  }
}

/** Hex SHA-256 of a text (cache keys of URLs). */
export async function sha256Hex(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Writes `files` into a fresh temporary sibling of `final`, then renames it into place. */
export async function writeTree(final: string, files: Map<string, Uint8Array>): Promise<void> {
  const parent = final.slice(0, final.lastIndexOf("/"));
  await Deno.mkdir(parent, { recursive: true });
  const tmp = `${final}.${crypto.randomUUID()}.tmp`;
  await Deno.mkdir(tmp);
  for (const [path, bytes] of files) {
    const full = `${tmp}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeFile(full, bytes);
  }
  try {
    await Deno.rename(tmp, final);
  } catch (e) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    // Another run put the same entry in place first: theirs is identical.
    if (!(await exists(final))) throw e;
  }
}

/** Options of {@link archiveFetcher}. */
export interface ArchiveFetcherOptions {
  /** The cache directory. */
  cache: string;
  /** Offline: only the cache. */
  offline?: boolean;
  /** Longest a download may run. */
  timeoutMs: number;
  /** Progress lines. */
  log: (level: "info" | "debug", text: string) => void;
  /** Where GitHub lives (default {@link GITHUB}); tests point it at a local server. */
  github?: GitHubEndpoints;
}

/** The GitHub web and API base URLs used to resolve `{version}` of release URLs (MP15). */
export interface GitHubEndpoints {
  /** Base of release-download URLs, e.g. `https://github.com`. */
  web: string;
  /** Base of the REST API, e.g. `https://api.github.com`. */
  api: string;
}

/** The real GitHub. */
export const GITHUB: GitHubEndpoints = {
  web: "https://github.com",
  api: "https://api.github.com",
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Fetches archive sources into the cache.
 *
 * @example
 * ```ts ignore
 * const { fetchArchive } = archiveFetcher({ cache, timeoutMs: 60_000, log: () => {} });
 * ```
 */
export function archiveFetcher(options: ArchiveFetcherOptions): {
  fetchArchive(
    source: Extract<ModuleSource, { kind: "archive" }>,
    req: FetchRequest,
  ): Promise<FetchResult>;
  unpack(bytes: Uint8Array, path: string, checksum: string): Promise<string>;
  digest(url: string): Promise<{ url: string; checksum: string }>;
} {
  const { cache, timeoutMs, log } = options;
  const github = options.github ?? GITHUB;
  const releaseUrl = new RegExp(
    `^${escapeRegExp(github.web.replace(/\/+$/, ""))}/([^/]+)/([^/]+)/releases/download/`,
  );
  const unpack = async (bytes: Uint8Array, path: string, checksum: string): Promise<string> => {
    const dir = `${cache}/archives/${checksum.replace(/^sha256-/, "")}`;
    if (!(await exists(dir))) {
      let files;
      try {
        files = await extractArchive(bytes, archiveFormat(path));
      } catch (e) {
        throw new ModuleFetchError(`${redactUrl(path)}: ${(e as Error).message}`);
      }
      await writeTree(dir, files);
    }
    return dir;
  };

  const download = async (url: string): Promise<Uint8Array> => {
    log("info", `module: downloading ${redactUrl(url)}`);
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      throw new ModuleFetchError(`download of ${redactUrl(url)} failed: ${(e as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ModuleFetchError(`HTTP ${res.status} from ${redactUrl(url)}`);
    }
    return new Uint8Array(await res.arrayBuffer());
  };

  /** `{version}` of a GitHub release URL: the latest release tag (MP15). */
  const latestRelease = async (url: string): Promise<string> => {
    const m = releaseUrl.exec(url);
    if (!m) {
      throw new ModuleFetchError(
        `${redactUrl(url)} contains {version} but no version is given or pinned`,
        "unresolved_version",
      );
    }
    const api = github.api.replace(/\/+$/, "");
    const res = await fetch(`${api}/repos/${m[1]}/${m[2]}/releases/latest`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/vnd.github+json" },
    }).catch((e) => {
      throw new ModuleFetchError(`latest release of ${m[1]}/${m[2]}: ${(e as Error).message}`);
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new ModuleFetchError(`latest release of ${m[1]}/${m[2]}: HTTP ${res.status}`);
    }
    let release: { tag_name?: unknown };
    try {
      release = await res.json();
    } catch (e) {
      throw new ModuleFetchError(
        `latest release of ${m[1]}/${m[2]}: not a JSON release: ${(e as Error).message}`,
      );
    }
    const tag = typeof release?.tag_name === "string" ? release.tag_name : "";
    if (tag === "") throw new ModuleFetchError(`${m[1]}/${m[2]} has no release`);
    return url.includes("v{version}") ? tag.replace(/^v/, "") : tag;
  };

  const fetchArchive = async (
    source: Extract<ModuleSource, { kind: "archive" }>,
    req: FetchRequest,
  ): Promise<FetchResult> => {
    const location = sourceLocation(source);
    const result = (dir: string, url: string, checksum: string): FetchResult => ({
      status: "ok",
      workspace: new DenoFsWorkspace(dir),
      identity: `archive:${checksum}`,
      pin: {
        source: location,
        requested: requestedVersion(source),
        resolved: url,
        kind: "archive",
        checksum,
      },
    });
    const pin = req.pin?.kind === "archive" ? req.pin : undefined;
    if (pin?.checksum) {
      const dir = `${cache}/archives/${pin.checksum.replace(/^sha256-/, "")}`;
      if (await exists(dir)) return result(dir, pin.resolved, pin.checksum);
      if (options.offline) return { status: "unavailable", reason: "not in the module cache" };
      const bytes = await download(pin.resolved);
      const sum = await archiveChecksum(bytes);
      if (sum !== pin.checksum) {
        throw new ModuleFetchError(
          `checksum mismatch for ${redactUrl(pin.resolved)}: module.lock pins ${pin.checksum}, ` +
            `the download is ${sum}`,
          "checksum_mismatch",
        );
      }
      return result(await unpack(bytes, pin.resolved, sum), pin.resolved, sum);
    }
    let url = source.url;
    const index = `${cache}/archives/urls/${await sha256Hex(location)}`;
    if (options.offline) {
      const sum = (await Deno.readTextFile(index).catch(() => "")).trim();
      const [known, knownUrl] = sum.split("\n");
      const dir = `${cache}/archives/${(known ?? "").replace(/^sha256-/, "")}`;
      if (known && await exists(dir)) return result(dir, knownUrl ?? url, known);
      return { status: "unavailable", reason: "not in the module cache" };
    }
    if (url.includes("{version}")) url = url.replaceAll("{version}", await latestRelease(url));
    const bytes = await download(url);
    const sum = await archiveChecksum(bytes);
    const dir = await unpack(bytes, url, sum);
    await Deno.mkdir(`${cache}/archives/urls`, { recursive: true });
    await Deno.writeTextFile(index, `${sum}\n${url}\n`);
    return result(dir, url, sum);
  };

  /** What `url` serves now (`{version}`: the latest release), for `mod check` (MP20). */
  const digest = async (url: string) => {
    if (options.offline) throw new ModuleFetchError("offline: remotes are not asked");
    if (url.includes("{version}")) url = url.replaceAll("{version}", await latestRelease(url));
    return { url, checksum: await archiveChecksum(await download(url)) };
  };

  return { fetchArchive, unpack, digest };
}
