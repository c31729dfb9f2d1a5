/**
 * The fleet (issue 29) on this machine: a bare repository behind `git daemon`, a `sync` primary,
 * two replicas and haproxy, all on loopback. Measures, each against a peer of the same run:
 *
 * - a `sync` write's latency (commit + push before the answer) against the same write on a
 *   single server without Git;
 * - write → visible on another replica (the replica answers a `Graphsvc-Min-Commit` read);
 * - GraphQL read throughput of one member against three behind haproxy;
 * - catch-up of a replica 1,000 commits behind, running (one fetch) and restarted, against a
 *   replica starting from nothing.
 *
 * `deno run -A bench/fleet_bench.ts` (needs git and haproxy; run by `deno task bench`).
 *
 * @module
 */
import {
  freePort,
  git,
  has,
  readHosts,
  seedHosts,
  startBalancer,
  startMember,
  startRemote,
  writeRev,
} from "../tests/fleet/_fleet.ts";

if (!(await has("haproxy")) || !(await has("git"))) {
  console.log("\n## fleet (fleet_bench.ts)\n\nskipped: needs git and haproxy");
  Deno.exit(0);
}

const WRITES = 60;
const READ_SECONDS = 4;
const CONCURRENCY = 32;
const BEHIND = 1_000;

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10;
}

async function throughput(url: string): Promise<number> {
  const body = JSON.stringify({ query: "{ host { name rev } }" });
  const end = performance.now() + READ_SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const r = await fetch(`${url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await r.arrayBuffer();
        if (r.status === 200) done++;
      }
    }),
  );
  return Math.round(done / READ_SECONDS);
}

const remote = await startRemote(seedHosts(200));
const [pp, r1p, r2p, sp, hp] = [freePort(), freePort(), freePort(), freePort(), freePort()];
const dirs = await Promise.all([0, 1, 2, 3, 4].map(() => Deno.makeTempDir({ prefix: "fleetb-" })));
const replicaArgs = [
  "--replica-of",
  `http://127.0.0.1:${pp}`,
  "--git-sync-url",
  remote.url,
  "--min-commit-wait",
  "30000",
];
const primary = await startMember(
  dirs[0],
  pp,
  ["--git-push", "sync", "--git-sync-url", remote.url],
  hp,
);
const r1 = await startMember(dirs[1], r1p, replicaArgs, hp);
let r2 = await startMember(dirs[2], r2p, replicaArgs, hp);
// The peer: a single server over a plain copy of the same data, no Git.
await Deno.mkdir(`${dirs[3]}/assets`, { recursive: true });
await Deno.writeTextFile(`${dirs[3]}/assets/host.csv`, seedHosts(200)["assets/host.csv"]);
const single = await startMember(dirs[3], sp, []);
const lb = await startBalancer(hp, { primary: pp, r1: r1p, r2: r2p });
const rows: string[] = [];
try {
  const plain: number[] = [];
  const synced: number[] = [];
  const visible: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    let t = performance.now();
    await writeRev(single.url, `h${i % 200}`, `w${i}`);
    plain.push(performance.now() - t);
    t = performance.now();
    const w = await writeRev(primary.url, `h${i % 200}`, `w${i}`);
    synced.push(performance.now() - t);
    const read = await readHosts(r1.url, w.commit!);
    visible.push(performance.now() - t);
    if (read.rows[`h${i % 200}`] !== `w${i}`) throw new Error("replica did not show the write");
  }
  rows.push(
    `| write, single server without Git (peer) | p50 ${pct(plain, 0.5)} ms, p95 ${
      pct(plain, 0.95)
    } ms | 1× |`,
    `| write, sync primary (commit + push before the answer) | p50 ${pct(synced, 0.5)} ms, p95 ${
      pct(synced, 0.95)
    } ms | ${(pct(synced, 0.5) / pct(plain, 0.5)).toFixed(1)}× |`,
    `| write → visible on another replica (Min-Commit read) | p50 ${pct(visible, 0.5)} ms, p95 ${
      pct(visible, 0.95)
    } ms | ${(pct(visible, 0.5) / pct(plain, 0.5)).toFixed(1)}× |`,
  );

  const one = await throughput(r1.url);
  const three = await throughput(lb.url);
  rows.push(
    `| GraphQL reads, one replica (peer), ${CONCURRENCY} clients | ${one} req/s | 1× |`,
    `| GraphQL reads, three members behind haproxy | ${three} req/s | ${
      (three / one).toFixed(2)
    }× |`,
  );

  // 1,000 commits made elsewhere, pushed at once: a clone commits one row change each.
  const work = dirs[4];
  await git(["clone", "-q", remote.url, work]);
  const commitBatch = async (tag: string) => {
    for (let i = 0; i < BEHIND; i++) {
      const path = `${work}/assets/host.csv`;
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(
        path,
        text.replace(new RegExp(`^h${i % 200},linux,.*$`, "m"), `h${i % 200},linux,${tag}${i}`),
      );
      await git(["-c", "user.name=b", "-c", "user.email=b@x", "commit", "-qam", `c${i}`], work);
    }
    await git(["pull", "-q", "--no-rebase", "--no-edit"], work).catch(() => {});
    await git(["push", "-q", "origin", "HEAD:main"], work);
    return (await git(["rev-parse", "HEAD"], work)).trim();
  };
  let head = await commitBatch("run");
  let t = performance.now();
  let read = await readHosts(r1.url, head);
  const running = performance.now() - t;
  if (read.status !== 200) throw new Error(`catch-up read ${read.status}`);

  await r2.stop("SIGKILL");
  head = await commitBatch("off");
  t = performance.now();
  r2 = await startMember(dirs[2], r2p, replicaArgs, hp);
  read = await readHosts(r2.url, head);
  const restarted = performance.now() - t;
  if (read.status !== 200) throw new Error(`restart catch-up read ${read.status}`);

  const fresh = await Deno.makeTempDir({ prefix: "fleetb-" });
  t = performance.now();
  const r3 = await startMember(fresh, freePort(), replicaArgs);
  read = await readHosts(r3.url, head);
  const fromNothing = performance.now() - t;
  await r3.stop();
  await Deno.remove(fresh, { recursive: true }).catch(() => {});
  rows.push(
    `| new replica from nothing (peer: clone + first build) | ${Math.round(fromNothing)} ms | 1× |`,
    `| running replica ${BEHIND} commits behind → holds the head | ${Math.round(running)} ms | ${
      (running / fromNothing).toFixed(2)
    }× |`,
    `| restarted replica ${BEHIND} commits behind → holds the head | ${
      Math.round(restarted)
    } ms | ${(restarted / fromNothing).toFixed(2)}× |`,
  );
} finally {
  await lb.stop();
  await Promise.all([primary.stop(), r1.stop(), r2.stop(), single.stop()]);
  await remote.stop();
  for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
}
console.log("\n## fleet (fleet_bench.ts: git daemon, sync primary, two replicas, haproxy)\n");
console.log("| measure | value | vs peer |");
console.log("| --- | --- | --- |");
for (const r of rows) console.log(r);
console.log(
  `\n(${navigator.hardwareConcurrency} cores for every process of the fleet and the load)`,
);
