/**
 * One graph, many machines (issue 29): the web-standard core of a fleet of graphsvc servers fed
 * by one Git repository. A primary turns every acknowledged write into a commit pushed to the
 * repository's branch; replicas fetch it and rebuild incrementally. This module holds what does
 * not need a process: the header names, the ledger of which commit each published build holds,
 * which requests are writes, and whether a replica forwards a write or answers `421`.
 *
 * The Git commands themselves are run through a {@link GitRun} port ({@link ./node.ts}); the Deno
 * adapter is `lib/runtime/deno/git_run.ts`.
 *
 * @module
 */

/** Response header: the commit a read was built from, or the commit a write became. */
export const COMMIT_HEADER = "Graphsvc-Commit";
/** Request header: answer only from a build containing this commit (bounded wait, then 504). */
export const MIN_COMMIT_HEADER = "Graphsvc-Min-Commit";
/** Request header a replica sets on a forwarded write (a second hop is answered 421). */
export const FORWARDED_HEADER = "Graphsvc-Forwarded-By";

/** The outcome of one git command, as a {@link GitRun} port returns it. */
export interface GitResult {
  /** Exit code (0: success). */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error (credentials removed). */
  stderr: string;
}

/** Runs `git <args>` in the data directory. */
export type GitRun = (args: readonly string[]) => Promise<GitResult>;

/**
 * Which commit each build generation holds: entries `(commit, generation)` in the order they were
 * recorded; the build of generation `g` holds the newest commit recorded at a generation `<= g`.
 *
 * @example
 * ```ts
 * import { CommitLedger } from "./mod.ts";
 * const ledger = new CommitLedger();
 * ledger.record("a1", 1);
 * ledger.record("b2", 3);
 * console.log(ledger.at(2), ledger.at(3)); // "a1" "b2"
 * ```
 */
export class CommitLedger {
  #entries: { commit: string; generation: number }[] = [];

  /** Records that builds of `generation` and later hold `commit`. */
  record(commit: string, generation: number): void {
    const last = this.#entries.at(-1);
    if (last && last.commit === commit && last.generation <= generation) return;
    this.#entries.push({ commit, generation });
    // Only the newest entry at or below any live generation matters; keep a bounded tail.
    if (this.#entries.length > 4096) this.#entries.splice(0, this.#entries.length - 2048);
  }

  /** The commit held by the build of `generation`, `undefined` before any was recorded. */
  at(generation: number): string | undefined {
    let best: { commit: string; generation: number } | undefined;
    for (const e of this.#entries) {
      if (e.generation <= generation && (!best || e.generation >= best.generation)) best = e;
    }
    return best?.commit;
  }
}

const WRITE_PATHS = [
  /^\/api\/assets\//,
  /^\/api\/mutations\//,
  /^\/api\/module-params$/,
  /^\/api\/contracts\//,
  /^\/api\/actions\//,
  /^\/graphql$/,
  /^\/mcp$/,
];

/**
 * Whether a request may change the data directory: a method other than GET/HEAD/OPTIONS on a
 * write endpoint (asset writes and uploads, REST and GraphQL mutations, module parameters,
 * contracts, actions, MCP). The reload webhook is handled by the fleet itself.
 *
 * @example
 * ```ts
 * import { isWriteRequest } from "./mod.ts";
 * console.log(isWriteRequest("POST", "/api/mutations/host")); // true
 * console.log(isWriteRequest("GET", "/api/assets/host")); // false
 * ```
 */
export function isWriteRequest(method: string, path: string): boolean {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  return WRITE_PATHS.some((p) => p.test(path));
}

/** What a replica does with a write: forward it to the primary, or answer 421 and why. */
export type ForwardDecision =
  | { forward: true; target: string }
  | { forward: false; status: 421; reason: string };

/**
 * Decides how a replica handles a write. It forwards (the client's token, body and headers pass
 * unchanged, and a balancer's client need not follow a redirect for a POST), except when the
 * request was already forwarded once (a replica configured with another replica as its primary:
 * a loop) or no primary is configured; then `421 Misdirected Request` names where writes go.
 *
 * @example
 * ```ts
 * import { forwardDecision } from "./mod.ts";
 * const req = new Request("http://r1/api/mutations/host", { method: "POST" });
 * console.log(forwardDecision(req, "http://primary:7600")); // { forward: true, target: "http://primary:7600/api/mutations/host" }
 * ```
 */
export function forwardDecision(request: Request, primary: string | undefined): ForwardDecision {
  if (!primary) {
    return {
      forward: false,
      status: 421,
      reason: "this server is a read replica and knows no primary (start it with --replica-of)",
    };
  }
  const hop = request.headers.get(FORWARDED_HEADER);
  if (hop) {
    return {
      forward: false,
      status: 421,
      reason: `this server is a read replica and the write was already forwarded by ${hop}: ` +
        `--replica-of must name the primary, ${primary} is not it`,
    };
  }
  const url = new URL(request.url);
  return { forward: true, target: primary.replace(/\/+$/, "") + url.pathname + url.search };
}

/**
 * Parses a `Graphsvc-Min-Commit` value: a commit id (4 to 64 hex digits), lower-cased; `null`
 * when absent; an Error naming the header when malformed.
 *
 * @example
 * ```ts
 * import { parseMinCommit } from "./mod.ts";
 * console.log(parseMinCommit("ABC123")); // "abc123"
 * ```
 */
export function parseMinCommit(value: string | null): string | null | Error {
  if (value === null || value.trim() === "") return null;
  const v = value.trim().toLowerCase();
  if (!/^[0-9a-f]{4,64}$/.test(v)) {
    return new Error(`${MIN_COMMIT_HEADER} must be a commit id (4 to 64 hex digits), got '${v}'`);
  }
  return v;
}

/**
 * Parses a Git author `Name <email>`; an Error saying what is wrong otherwise.
 *
 * @example
 * ```ts
 * import { parseAuthor } from "./mod.ts";
 * console.log(parseAuthor("Ops Bot <ops@example.org>")); // { name: "Ops Bot", email: "ops@example.org" }
 * ```
 */
export function parseAuthor(text: string): { name: string; email: string } | Error {
  const m = /^\s*([^<>]+?)\s*<([^<>\s]+)>\s*$/.exec(text);
  if (!m) return new Error(`a Git author is 'Name <email>', got '${text}'`);
  return { name: m[1], email: m[2] };
}

/** An `application/problem+json` answer of the fleet. */
export function fleetProblem(
  status: number,
  slug: string,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ type: `urn:graphsvc:problem:${slug}`, title, status, detail, ...extra }),
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );
}

/** A one-at-a-time lock: `run` calls `task` after every earlier task has settled. */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after the earlier ones; resolves with its result. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(task, task);
    this.#tail = next.catch(() => {});
    return next;
  }
}
