/**
 * A fleet on loopback (issue 29): a bare repository served by `git daemon`, one `sync` primary,
 * two replicas and Debian's haproxy balancing over the three with `/readyz` health checks.
 * Proves: a write through the balancer is visible on every member with `Graphsvc-Min-Commit`;
 * two primaries racing on one row end with both writes or one 409 (never a silent loss), and on
 * far-apart rows both land; `kill -9` of the primary loses no acknowledged write, replicas keep
 * serving reads and writes fail clearly until it is back; a killed replica catches up.
 */
import { assert, assertEquals } from "../_assert.ts";
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
} from "./_fleet.ts";

const haproxy = await has("haproxy");
const gitThere = await has("git");

Deno.test({
  name: "fleet: primary, two replicas and haproxy fed by git daemon",
  ignore: (!haproxy || !gitThere) && Deno.env.get("CI") !== "true",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const remote = await startRemote(seedHosts(20));
    const [pp, r1p, r2p, p2p, hp] = [freePort(), freePort(), freePort(), freePort(), freePort()];
    const dirs = await Promise.all([0, 1, 2, 3].map(() => Deno.makeTempDir({ prefix: "fleet-" })));
    const primaryArgs = ["--git-push", "sync", "--git-sync-url", remote.url];
    const replicaArgs = (primary: number) => [
      "--replica-of",
      `http://127.0.0.1:${primary}`,
      "--git-sync-url",
      remote.url,
      "--git-fetch-interval",
      "300",
      "--min-commit-wait",
      "2000",
    ];
    let primary = await startMember(dirs[0], pp, primaryArgs, hp);
    const r1 = await startMember(dirs[1], r1p, replicaArgs(pp), hp);
    let r2 = await startMember(dirs[2], r2p, replicaArgs(pp), hp);
    const lb = await startBalancer(hp, { primary: pp, r1: r1p, r2: r2p });
    const members = () => [primary.url, r1.url, r2.url];
    try {
      await t.step(
        "every answer names a commit; a write via the balancer is seen everywhere",
        async () => {
          for (const base of members()) {
            const read = await readHosts(base);
            assertEquals(read.status, 200);
            assert(/^[0-9a-f]{40}$/.test(read.commit ?? ""), `no commit on ${base}`);
          }
          // Round robin: three writes through the balancer reach the primary and both replicas.
          for (const [i, name] of ["h1", "h2", "h3"].entries()) {
            const w = await writeRev(lb.url, name, `lb${i}`);
            assertEquals(w.status, 200, JSON.stringify(w.body));
            assert(w.commit && /^[0-9a-f]{40}$/.test(w.commit));
            for (const base of members()) {
              const read = await readHosts(base, w.commit);
              assertEquals(read.status, 200);
              assertEquals(read.rows[name], `lb${i}`, `${base} lacks ${name}`);
            }
          }
          assert((await remote.show("assets/host.csv")).includes("h3,linux,lb2"));
        },
      );

      await t.step(
        "an unknown Min-Commit is answered 504 after the bound; a bad one 400",
        async () => {
          const res = await fetch(`${r1.url}/api/engine-info`, {
            headers: { "graphsvc-min-commit": "zz" },
          });
          assertEquals(res.status, 400);
          assert((await res.text()).includes("Graphsvc-Min-Commit"));
          const never = await fetch(`${r1.url}/api/engine-info`, {
            headers: { "graphsvc-min-commit": "0123456789abcdef0123456789abcdef01234567" },
          });
          assertEquals(never.status, 504);
          assert((await never.text()).includes("0123456789abcdef"));
        },
      );

      await t.step("two primaries racing: one row → both or one 409; far rows → both", async () => {
        const p2 = await startMember(dirs[3], p2p, primaryArgs);
        try {
          for (let round = 0; round < 3; round++) {
            const [a, b] = await Promise.all([
              writeRev(primary.url, "h5", `A${round}`),
              writeRev(p2.url, "h5", `B${round}`),
            ]);
            const statuses = [a.status, b.status].sort();
            assert(
              (statuses[0] === 200 && statuses[1] === 200) ||
                (statuses[0] === 200 && statuses[1] === 409),
              `statuses ${statuses}`,
            );
            const final = await remote.show("assets/host.csv");
            const ok = [a, b].filter((w) => w.status === 200);
            const rev = /^h5,linux,(.*)$/m.exec(final)?.[1];
            // The final value is an acknowledged write's, and every acknowledged commit is in
            // the history (both writes happened, one after the other).
            const values = ok.map((w) => (w === a ? `A${round}` : `B${round}`));
            assert(rev !== undefined && values.includes(rev), `h5 is ${rev}, acked ${values}`);
            for (const w of ok) {
              await git([
                "--git-dir",
                remote.bare,
                "merge-base",
                "--is-ancestor",
                w.commit!,
                "main",
              ]);
            }
            const lost = [a, b].find((w) => w.status === 409);
            if (lost) {
              assert(JSON.stringify(lost.body).includes("assets/host.csv"));
              assertEquals((lost.body.files as string[])[0], "assets/host.csv");
            }
          }
          const [a, b] = await Promise.all([
            writeRev(primary.url, "h2", "far-A"),
            writeRev(p2.url, "h17", "far-B"),
          ]);
          assertEquals([a.status, b.status], [200, 200]);
          const final = await remote.show("assets/host.csv");
          assert(final.includes("h2,linux,far-A") && final.includes("h17,linux,far-B"), final);
        } finally {
          await p2.stop();
        }
      });

      await t.step("kill -9 of the primary loses no acknowledged write", async () => {
        const acked: Record<string, string> = {};
        let n = 0;
        const storm = (async () => {
          for (;;) {
            const name = `h${10 + (n % 8)}`;
            const rev = `k${n++}`;
            let w;
            try {
              w = await writeRev(primary.url, name, rev);
            } catch {
              return;
            }
            if (w.status !== 200) return;
            acked[name] = rev;
          }
        })();
        while (Object.keys(acked).length < 8) await new Promise((r) => setTimeout(r, 10));
        await primary.stop("SIGKILL");
        await storm;
        const final = await remote.show("assets/host.csv");
        for (const [name, rev] of Object.entries(acked)) {
          const have = new RegExp(`^${name},linux,k(\\d+)$`, "m").exec(final)?.[1];
          // The remote holds the acknowledged value or the one write in flight after it.
          assert(have !== undefined && Number(have) >= Number(rev.slice(1)), `${name}: ${final}`);
        }
        // Replicas keep serving reads, through the balancer too.
        for (const base of [r1.url, r2.url, lb.url]) {
          assertEquals((await readHosts(base)).status, 200);
        }
        // Writes fail clearly: a replica names the unreachable primary.
        const w = await writeRev(r1.url, "h1", "while-down");
        assertEquals(w.status, 503);
        assert(String(w.body.detail).includes(`127.0.0.1:${pp}`), JSON.stringify(w.body));
        for (let i = 0; i < 3; i++) {
          assert((await writeRev(lb.url, "h1", "while-down")).status >= 500);
        }
        primary = await startMember(dirs[0], pp, primaryArgs, hp);
        const back = await writeRev(r2.url, "h1", "back");
        assertEquals(back.status, 200, JSON.stringify(back.body));
      });

      await t.step("a replica killed and restarted catches up", async () => {
        await r2.stop("SIGKILL");
        let last = "";
        for (let i = 0; i < 5; i++) last = (await writeRev(primary.url, "h4", `gone${i}`)).commit!;
        r2 = await startMember(dirs[2], r2p, replicaArgs(pp), hp);
        const read = await readHosts(r2.url, last);
        assertEquals(read.status, 200);
        assertEquals(read.rows.h4, "gone4");
        assertEquals(read.commit, last);
      });
    } finally {
      await lb.stop();
      await Promise.all([primary.stop(), r1.stop(), r2.stop()]);
      await remote.stop();
      for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  },
});
