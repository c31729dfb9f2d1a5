/**
 * `--git-push async` (issue 29): a write is answered with its local commit at once and pushed
 * within the bound, so a replica's `Graphsvc-Min-Commit` read sees it; when two async primaries
 * change the same row, the acknowledged write that can no longer be pushed is kept on a
 * `graphsvc/conflict-*` branch of the remote (never dropped) and the primary follows the remote.
 */
import { assert, assertEquals } from "../_assert.ts";
import {
  freePort,
  git,
  has,
  readHosts,
  seedHosts,
  startMember,
  startRemote,
  writeRev,
} from "./_fleet.ts";

Deno.test({
  name: "fleet: async primary pushes within the bound; a conflict is kept on a branch",
  ignore: !(await has("git")) && Deno.env.get("CI") !== "true",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const remote = await startRemote(seedHosts(10));
    const dirs = await Promise.all([0, 1, 2].map(() => Deno.makeTempDir({ prefix: "fleet-" })));
    const asyncArgs = [
      "--git-push",
      "async",
      "--git-push-bound",
      "300",
      "--git-sync-url",
      remote.url,
    ];
    const a = await startMember(dirs[0], freePort(), asyncArgs);
    const b = await startMember(dirs[1], freePort(), asyncArgs);
    const r = await startMember(dirs[2], freePort(), [
      "--replica-of",
      a.url,
      "--git-sync-url",
      remote.url,
      "--git-fetch-interval",
      "200",
    ]);
    try {
      const w = await writeRev(a.url, "h1", "async-1");
      assertEquals(w.status, 200);
      const read = await readHosts(r.url, w.commit!);
      assertEquals(read.status, 200, r.stderr());
      assertEquals(read.rows.h1, "async-1");
      // Both primaries acknowledge a change of the same row; one of them loses the push race.
      const [x, y] = await Promise.all([
        writeRev(a.url, "h5", "from-a"),
        writeRev(b.url, "h5", "from-b"),
      ]);
      assertEquals([x.status, y.status], [200, 200], JSON.stringify([x.body, y.body]));
      let branches = "";
      for (let i = 0; i < 300 && !branches.includes("graphsvc/conflict-"); i++) {
        await new Promise((res) => setTimeout(res, 100));
        branches = await git(["--git-dir", remote.bare, "branch", "--list"]);
      }
      const conflict = /graphsvc\/conflict-[0-9a-f]+/.exec(branches)?.[0];
      assert(conflict, `no conflict branch in ${branches}:\n${a.stderr()}\n${b.stderr()}`);
      const main = await remote.show("assets/host.csv");
      const kept = await git(["--git-dir", remote.bare, "show", `${conflict}:assets/host.csv`]);
      const onMain = /^h5,linux,(.*)$/m.exec(main)?.[1];
      const onBranch = /^h5,linux,(.*)$/m.exec(kept)?.[1];
      // Neither acknowledged value is lost: one is on main, the other on the conflict branch.
      assertEquals([onMain, onBranch].sort(), ["from-a", "from-b"]);
      // The primary logs the branch after pushing it: the line may trail the push a little.
      let logs = a.stderr() + b.stderr();
      for (let i = 0; i < 100 && !logs.includes(conflict); i++) {
        await new Promise((res) => setTimeout(res, 100));
        logs = a.stderr() + b.stderr();
      }
      assert(logs.includes(conflict), logs);
    } finally {
      await Promise.all([a.stop(), b.stop(), r.stop()]);
      await remote.stop();
      for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  },
});
