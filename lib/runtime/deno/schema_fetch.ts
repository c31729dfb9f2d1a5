/**
 * Deno adapters of the schema commands: reading remote schema locations (reference SV12) —
 * files outside a module's loaded folders, HTTP(S) URLs and Git URLs with a `#<path>` suffix
 * (shallow clone with the `git` command line, as git_sync.ts runs git) — and the command IO.
 *
 * @module
 */
import type { RemoteSchemaLocation, SchemaFetcher } from "../../schema/sources.ts";
import type { SchemaCommandIO } from "../../cli/schema_commands.ts";
import { redactUrl } from "./git_sync.ts";
import { writeFileAtomic } from "./atomic_file.ts";

/** Options of {@link denoSchemaFetcher}. */
export interface DenoSchemaFetcherOptions {
  /** The git executable (default `git`). */
  git?: string;
  /** Longest a git command or HTTP request may run (default 120 s). */
  timeoutMs?: number;
  /** How long a clone is reused (default: for the fetcher's lifetime, one CLI run). */
  cacheMs?: number;
}

/**
 * A fetcher for every remote location kind. Git repositories are cloned once per fetcher
 * (shallow, default branch) into a temporary directory that is removed afterwards.
 *
 * @example
 * ```ts ignore
 * const fetcher = denoSchemaFetcher();
 * const text = await fetcher({ kind: "git", url: "file:///srv/schemas.git", path: "a.schema.json" });
 * ```
 */
export function denoSchemaFetcher(options: DenoSchemaFetcherOptions = {}): SchemaFetcher {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const clones = new Map<string, { at: number; dir: Promise<string> }>();
  const clone = (url: string) => {
    const cached = clones.get(url);
    const fresh = cached &&
      (options.cacheMs === undefined || Date.now() - cached.at < options.cacheMs);
    let p = fresh ? cached.dir : undefined;
    if (cached && !fresh) {
      // An expired clone is replaced; its directory goes.
      cached.dir.then((d) => Deno.remove(d, { recursive: true })).catch(() => {});
    }
    if (!p) {
      p = (async () => {
        const dir = await Deno.makeTempDir({ prefix: "graphsvc-schema-" });
        globalThis.addEventListener("unload", () => {
          try {
            Deno.removeSync(dir, { recursive: true });
          } catch { /* already gone */ }
        });
        const out = await new Deno.Command(options.git ?? "git", {
          args: ["clone", "-q", "--depth", "1", "--", url, dir],
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          env: { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true", LC_ALL: "C" },
          signal: AbortSignal.timeout(timeoutMs),
        }).output();
        if (!out.success) {
          const err = new TextDecoder().decode(out.stderr).trim().split("\n").pop() ?? "";
          throw new Error(`git clone ${redactUrl(url)} failed: ${redactUrl(err)}`);
        }
        return dir;
      })();
      clones.set(url, { at: Date.now(), dir: p });
      p.catch(() => clones.delete(url));
    }
    return p;
  };
  return async (location: RemoteSchemaLocation) => {
    switch (location.kind) {
      case "file":
        if (location.root.startsWith("memory:")) throw new Error(`'${location.path}' not found`);
        return await Deno.readTextFile(`${location.root}/${location.path}`);
      case "http": {
        const res = await fetch(location.url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`HTTP ${res.status} from ${redactUrl(location.url)}`);
        return await res.text();
      }
      case "git": {
        const dir = await clone(location.url);
        try {
          return await Deno.readTextFile(`${dir}/${location.path}`);
        } catch {
          throw new Error(`'${location.path}' not found in ${redactUrl(location.url)}`);
        }
      }
    }
  };
}

/**
 * The IO of the schema commands in a Deno process.
 *
 * @example
 * ```ts ignore
 * registerSchemaCommands(program, { edition, exit, engine, io: denoSchemaIO() });
 * ```
 */
export function denoSchemaIO(): SchemaCommandIO {
  const write = (fd: typeof Deno.stdout, text: string) => {
    const bytes = new TextEncoder().encode(text);
    for (let off = 0; off < bytes.length;) off += fd.writeSync(bytes.subarray(off));
  };
  return {
    readFile: (path) => Deno.readTextFile(path),
    writeFile: (path, text) => writeFileAtomic(path, text),
    stdout: (text) => write(Deno.stdout, text),
    stderr: (text) => write(Deno.stderr, text),
    fetcher: denoSchemaFetcher(),
    hostname: () => {
      try {
        return Deno.hostname();
      } catch {
        return "-";
      }
    },
    pid: Deno.pid,
    now: () => new Date(),
  };
}
