/**
 * A fleet member around the HTTP app (issue 29), as a `wrapFetch` hook: a **primary** commits
 * every acknowledged write to the data directory's branch and pushes it (`sync`: before the
 * answer; `async`: within a stated bound); a **replica** fetches the branch on the webhook and at
 * an interval, rebuilds from the changed files, and forwards writes to the primary. Both name the
 * commit of every answer (`Graphsvc-Commit`) and honour `Graphsvc-Min-Commit`.
 *
 * Git is reached through a {@link GitRun} port only; this module uses web-standard APIs.
 *
 * @module
 */
import type { GraphEngine } from "../engine.ts";
import { GENERATION_HEADER, withHeader } from "../api/consistency.ts";
import { checkApiToken } from "../api/auth.ts";
import {
  COMMIT_HEADER,
  CommitLedger,
  fleetProblem,
  forwardDecision,
  FORWARDED_HEADER,
  type GitRun,
  isWriteRequest,
  MIN_COMMIT_HEADER,
  parseMinCommit,
  SerialLock,
} from "./mod.ts";

/** Options of {@link startFleetNode}. */
export interface FleetNodeOptions {
  /** The engine serving the data directory. */
  engine: GraphEngine;
  /** Runs git in the data directory (a clone of the remote `origin`). */
  git: GitRun;
  /** `primary` (commits and pushes writes) or `replica` (follows, forwards writes). */
  role: "primary" | "replica";
  /** The primary's base URL (replicas forward writes there). */
  primaryUrl?: string;
  /** `sync` pushes before the answer; `async` within `pushBoundMs` (primary only). */
  push?: "sync" | "async";
  /** Longest an `async` write waits to be pushed (default 1000 ms). */
  pushBoundMs?: number;
  /** Replica fetch interval in ms (default 1000). */
  fetchIntervalMs?: number;
  /** Longest a `Graphsvc-Min-Commit` read waits (default 10 s), then 504. */
  minCommitWaitMs?: number;
  /** Commit author `Name <email>` (default `graphsvc <graphsvc@localhost>`). */
  author?: { name: string; email: string };
  /** The API token guarding the reload webhook. */
  apiToken?: string;
  /** This node's own address, named in forwarded writes. */
  self?: string;
  /** Log sink. */
  log: (level: string, text: string) => void;
  /** The fetch a replica forwards with (default `fetch`). */
  fetch?: typeof fetch;
}

/** A started fleet member. */
export interface FleetNode {
  /** Wraps the app's fetch handler (pass as `ServeOptions.wrapFetch`). */
  wrapFetch(
    inner: (request: Request) => Promise<Response>,
  ): (request: Request) => Promise<Response>;
  /** The commit of the published build. */
  publishedCommit(): string | undefined;
  /** Stops the timers (an async primary pushes what is pending first). */
  close(): Promise<void>;
}

type Handler = (request: Request) => Promise<Response>;

/** A write could not be pushed: another push changed the same lines. */
interface Conflict {
  files: string[];
  commits: string[];
}

/**
 * Starts a fleet member over a data directory that is already a checkout of the remote's branch
 * (the CLI syncs it first). Records the checkout's commit for the first build.
 *
 * @example
 * ```ts ignore
 * const node = await startFleetNode({ engine, git, role: "replica", primaryUrl, log });
 * await serve(engine, { ...options, wrapFetch: node.wrapFetch });
 * ```
 */
export async function startFleetNode(options: FleetNodeOptions): Promise<FleetNode> {
  const { engine, log } = options;
  const ledger = new CommitLedger();
  const lock = new SerialLock();
  const author = options.author ?? { name: "graphsvc", email: "graphsvc@localhost" };
  const waitMs = options.minCommitWaitMs ?? 10_000;
  const git = async (args: readonly string[]): Promise<string> => {
    const r = await options.git(args);
    if (r.code !== 0) {
      throw new Error(`git ${args[0]} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout}`);
    }
    return r.stdout.trim();
  };
  const branch = await git(["rev-parse", "--abbrev-ref", "HEAD"]);
  const remote = `refs/remotes/origin/${branch}`;
  const head = () => git(["rev-parse", "HEAD"]);
  ledger.record(await head(), engine.requestRebuild());
  const contained = new Set<string>();
  const publishedCommit = () => ledger.at(engine.current.generation);

  /** Whether the published build holds `id` (the commit or a descendant of it). */
  const holds = async (id: string): Promise<boolean> => {
    const published = publishedCommit();
    if (!published) return false;
    if (published.startsWith(id) || contained.has(id)) return true;
    const r = await options.git(["merge-base", "--is-ancestor", id, published]);
    if (r.code === 0) contained.add(id);
    return r.code === 0;
  };

  const fetchRemote = () =>
    git(["fetch", "-q", "--no-tags", "origin", `+refs/heads/${branch}:${remote}`]);
  const changedBetween = async (a: string, b: string) =>
    (await git(["diff", "--name-only", a, b])).split("\n").filter((p) => p !== "");

  // ---- replica: follow the branch ----
  let following: Promise<void> | undefined;
  let again = false;
  const follow = async (): Promise<void> => {
    await fetchRemote();
    const before = await head();
    const after = await git(["rev-parse", remote]);
    if (before === after) return;
    const changed = await changedBetween(before, after);
    await git(["reset", "-q", "--hard", after]);
    const generation = engine.requestRebuild({ changed });
    ledger.record(after, generation);
    log("info", `fleet: at ${after.slice(0, 12)} (${changed.length} file(s) changed)`);
  };
  /** Fetches now (coalescing: a kick during a fetch runs one more after it). */
  const kick = (): Promise<void> => {
    if (following) {
      again = true;
      return following;
    }
    following = (async () => {
      try {
        do {
          again = false;
          await lock.run(follow).catch((e) => log("warn", `fleet: fetch failed: ${e.message}`));
        } while (again);
      } finally {
        following = undefined;
      }
    })();
    return following;
  };

  // ---- primary: commit and push ----
  const commitWrite = async (message: string): Promise<string | undefined> => {
    await git(["add", "-A", "--", ".", ":(exclude).graphsvc"]);
    const committed = await options.git([
      "-c",
      `user.name=${author.name}`,
      "-c",
      `user.email=${author.email}`,
      "commit",
      "-q",
      "--no-verify",
      "-m",
      message,
    ]);
    // Exit 1 with "nothing to commit": the write changed no file (one process fewer than a
    // status check first).
    if (committed.code === 1 && /nothing to commit|no changes added/.test(committed.stdout)) {
      return undefined;
    }
    if (committed.code !== 0) {
      throw new Error(`git commit failed: ${committed.stderr.trim() || committed.stdout.trim()}`);
    }
    return await head();
  };
  let merged = false; // whether the last pushHead merged remote commits in
  /**
   * Pushes HEAD; a rejected push is fetched and merged (Git's line merge: a CSV row is a line,
   * so writes to other rows merge) and pushed again. A conflict aborts the merge and returns what
   * the remote changed.
   */
  const pushHead = async (): Promise<Conflict | undefined> => {
    merged = false;
    for (let attempt = 0;; attempt++) {
      const r = await options.git(["push", "-q", "origin", `HEAD:refs/heads/${branch}`]);
      // A successful push also moves the remote-tracking ref (origin's fetch refspec).
      if (r.code === 0) return undefined;
      const rejected = /rejected|fetch first|non-fast-forward/i.test(r.stderr);
      if (!rejected || attempt >= 8) {
        throw new Error(`git push failed: ${r.stderr.trim().split("\n").slice(-2).join(" | ")}`);
      }
      await fetchRemote();
      const before = await head();
      const merge = await options.git([
        "-c",
        `user.name=${author.name}`,
        "-c",
        `user.email=${author.email}`,
        "merge",
        "-q",
        "--no-edit",
        remote,
      ]);
      if (merge.code !== 0) {
        const files = (await options.git(["diff", "--name-only", "--diff-filter=U"])).stdout
          .split("\n").filter((f) => f !== "");
        await options.git(["merge", "--abort"]);
        const commits = (await git(["log", "--format=%H %an: %s", `HEAD..${remote}`]))
          .split("\n").filter((l) => l !== "");
        return { files, commits };
      }
      merged = true;
      const changed = await changedBetween(before, "HEAD");
      if (changed.length > 0) ledger.record(await head(), engine.requestRebuild({ changed }));
    }
  };
  /** Drops local commits after `base`, back to the remote's state, and rebuilds what changed. */
  const resetTo = async (target: string) => {
    const before = await head();
    const changed = await changedBetween(before, target);
    await git(["reset", "-q", "--hard", target]);
    const generation = engine.requestRebuild({ changed });
    ledger.record(target, generation);
  };

  // async mode: writes are committed at once and pushed by a timer within the bound
  let pending = false;
  let pushTimer: ReturnType<typeof setTimeout> | undefined;
  const pushPending = () =>
    lock.run(async () => {
      pushTimer = undefined;
      if (!pending) return;
      pending = false;
      try {
        const conflict = await pushHead();
        if (conflict) {
          // Acknowledged writes are never dropped: they are kept on a conflict branch of the
          // remote, the primary follows the remote, and the log says where they are.
          const local = await head();
          const ref = `graphsvc/conflict-${local.slice(0, 12)}`;
          await git(["push", "-q", "origin", `HEAD:refs/heads/${ref}`]);
          await resetTo(await git(["rev-parse", remote]));
          log(
            "error",
            `fleet: async writes conflict with ${conflict.commits.length} remote commit(s) on ` +
              `${conflict.files.join(", ")}; kept on branch ${ref}, data directory at the remote`,
          );
        }
      } catch (e) {
        pending = true; // retried at the next write or tick
        log("warn", `fleet: ${(e as Error).message}; retrying`);
        pushTimer ??= setTimeout(pushPending, options.pushBoundMs ?? 1000);
      }
    });

  const primaryWrite = (request: Request, inner: Handler): Promise<Response> =>
    lock.run(async () => {
      const before = await head();
      const response = await inner(request);
      const path = new URL(request.url).pathname;
      let commit: string | undefined;
      try {
        commit = await commitWrite(`${request.method} ${path} (HTTP ${response.status})`);
      } catch (e) {
        log("error", `fleet: cannot commit the write: ${(e as Error).message}`);
        await resetTo(before).catch(() => {});
        return fleetProblem(
          503,
          "service-unavailable",
          "Service Unavailable",
          `the write could not be committed: ${(e as Error).message}`,
        );
      }
      if (!commit) return withHeader(response, COMMIT_HEADER, publishedCommit() ?? before);
      const generation = Number(response.headers.get(GENERATION_HEADER)) ||
        engine.latestGeneration;
      if (options.push === "async") {
        ledger.record(commit, generation);
        pending = true;
        pushTimer ??= setTimeout(pushPending, options.pushBoundMs ?? 1000);
        return withHeader(response, COMMIT_HEADER, commit);
      }
      let conflict: Conflict | undefined;
      try {
        conflict = await pushHead();
      } catch (e) {
        await resetTo(before).catch(() => {});
        return fleetProblem(
          503,
          "service-unavailable",
          "Service Unavailable",
          `the write was not acknowledged: ${(e as Error).message}; it was undone here, retry`,
          {},
          { "retry-after": "1" },
        );
      }
      if (conflict) {
        await resetTo(await git(["rev-parse", remote]));
        return fleetProblem(
          409,
          "write-conflict",
          "Conflict",
          `another server changed the same rows of ${conflict.files.join(", ")} first; ` +
            `the write was not applied: read again and retry`,
          { files: conflict.files, commits: conflict.commits },
          { [COMMIT_HEADER]: publishedCommit() ?? "" },
        );
      }
      const final = merged ? await head() : commit;
      ledger.record(commit, generation);
      if (final !== commit) ledger.record(final, engine.latestGeneration);
      return withHeader(response, COMMIT_HEADER, final);
    });

  // ---- replica: forward writes ----
  const forward = async (request: Request): Promise<Response> => {
    const decision = forwardDecision(request, options.primaryUrl);
    if (!decision.forward) {
      return fleetProblem(421, "misdirected", "Misdirected Request", decision.reason, {
        primary: options.primaryUrl,
      });
    }
    const headers = new Headers(request.headers);
    headers.delete("host");
    headers.set(FORWARDED_HEADER, options.self ?? "replica");
    let answer: Response;
    try {
      answer = await (options.fetch ?? fetch)(decision.target, {
        method: request.method,
        headers,
        body: request.body ? await request.arrayBuffer() : undefined,
        redirect: "manual",
      });
    } catch (e) {
      return fleetProblem(
        503,
        "service-unavailable",
        "Service Unavailable",
        `writes go to the primary ${options.primaryUrl}, which cannot be reached ` +
          `(${(e as Error).message}); reads are still served here`,
        { primary: options.primaryUrl },
        { "retry-after": "1" },
      );
    }
    // Read-your-writes on this replica too: wait (bounded) until its build holds the commit.
    const commit = answer.headers.get(COMMIT_HEADER);
    if (commit && answer.ok) await waitForCommit(commit.toLowerCase(), waitMs);
    return answer;
  };

  const waitForCommit = async (id: string, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    for (;;) {
      if (await holds(id)) return true;
      if (Date.now() >= deadline) return false;
      if (options.role === "replica") {
        await Promise.race([kick(), sleep(200)]);
      }
      if (await holds(id)) return true;
      await sleep(20);
    }
  };

  const timer = options.role === "replica"
    ? setInterval(() => void kick(), options.fetchIntervalMs ?? 1000)
    : undefined;

  const webhook = async (request: Request): Promise<Response> => {
    const refused = await checkApiToken(request, options.apiToken, "the reload webhook");
    if (refused) return refused;
    if (options.role === "replica") {
      // The webhook's contract (R42): the sync runs before a full rebuild, and a failed sync
      // fails that build (build stream, /api/engine-info) while the previous graph stays live.
      let generation = 0;
      generation = engine.requestRebuild({
        before: () =>
          lock.run(async () => {
            await fetchRemote();
            const after = await git(["rev-parse", remote]);
            if (after !== await head()) await git(["reset", "-q", "--hard", after]);
            ledger.record(after, generation);
          }),
      });
      return new Response(JSON.stringify({ status: "reload-scheduled", generation }), {
        status: 202,
        headers: { "content-type": "application/json", [GENERATION_HEADER]: String(generation) },
      });
    } else {
      void lock.run(async () => {
        await fetchRemote();
        const r = await options.git(["merge", "-q", "--ff-only", remote]);
        if (r.code !== 0) log("warn", `fleet: reload: cannot fast-forward: ${r.stderr.trim()}`);
        else ledger.record(await head(), engine.requestRebuild());
      }).catch((e) => log("warn", `fleet: reload failed: ${e.message}`));
    }
    return new Response(JSON.stringify({ status: "reload-scheduled" }), {
      status: 202,
      headers: { "content-type": "application/json" },
    });
  };

  return {
    publishedCommit,
    wrapFetch(inner) {
      return async (request) => {
        const path = new URL(request.url).pathname;
        if (request.method === "POST" && path === "/api/webhook/reload") return webhook(request);
        if (isWriteRequest(request.method, path)) {
          // A GraphQL POST may be a query: only mutations are writes (a cheap textual check;
          // a query forwarded or committed would be correct, only slower).
          if (path === "/graphql" && !(await mayMutate(request))) {
            return answerRead(request, inner);
          }
          return options.role === "replica" ? forward(request) : primaryWrite(request, inner);
        }
        return answerRead(request, inner);
      };
    },
    async close() {
      if (timer) clearInterval(timer);
      clearTimeout(pushTimer);
      if (pending) await pushPending();
      await lock.run(() => Promise.resolve());
    },
  };

  async function answerRead(request: Request, inner: Handler): Promise<Response> {
    const want = parseMinCommit(request.headers.get(MIN_COMMIT_HEADER));
    if (want instanceof Error) {
      return fleetProblem(400, "bad-request", "Bad Request", want.message);
    }
    if (want && !(await waitForCommit(want, waitMs))) {
      return fleetProblem(
        504,
        "timeout",
        "Timeout",
        `no build holding commit ${want} was published within ${waitMs} ms ` +
          `(this server is at ${publishedCommit() ?? "no commit"})`,
        {},
        { [COMMIT_HEADER]: publishedCommit() ?? "" },
      );
    }
    // The commit of the build that answered (its generation header), else the one published
    // before the answer (the build answering is at least that new).
    const before = publishedCommit();
    const response = await inner(request);
    const generation = Number(response.headers.get(GENERATION_HEADER));
    const commit = (generation > 0 ? ledger.at(generation) : undefined) ?? before;
    return commit ? withHeader(response, COMMIT_HEADER, commit) : response;
  }
}

async function mayMutate(request: Request): Promise<boolean> {
  try {
    const text = await request.clone().text();
    return /\bmutation\b/.test(text);
  } catch {
    return true;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
