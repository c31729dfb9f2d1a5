/**
 * `GIT_SYNC_URL` without `--git-push` (issue 29): the server is a read replica. It starts from
 * the remote, answers writes 421 (it knows no primary), and the reload webhook fetches the new
 * commit before a full rebuild whose generation it answers (R42).
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
  name: "fleet: GIT_SYNC_URL alone makes a replica; the webhook fetches and rebuilds",
  ignore: !(await has("git")) && Deno.env.get("CI") !== "true",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const remote = await startRemote(seedHosts(5));
    const dir = await Deno.makeTempDir({ prefix: "fleet-" });
    const work = await Deno.makeTempDir({ prefix: "fleet-work-" });
    // No interval fetch during the test: only the webhook brings the commit.
    const server = await startMember(
      dir,
      freePort(),
      ["--git-fetch-interval", "600000"],
      undefined,
      {
        GIT_SYNC_URL: remote.url,
        GRAPHSVC_API_TOKEN: "s3cret-token",
      },
    );
    try {
      assertEquals((await readHosts(server.url)).rows.h1, "0");
      const w = await writeRev(server.url, "h1", "local");
      assertEquals(w.status, 421);
      assert(String(w.body.detail).includes("--replica-of"), JSON.stringify(w.body));

      await git(["clone", "-q", remote.url, work]);
      const path = `${work}/assets/host.csv`;
      await Deno.writeTextFile(
        path,
        (await Deno.readTextFile(path)).replace("h1,linux,0", "h1,linux,pushed"),
      );
      await git(["-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qam", "edit h1"], work);
      await git(["push", "-q", "origin", "HEAD:main"], work);
      const head = (await git(["rev-parse", "HEAD"], work)).trim();

      const refused = await fetch(`${server.url}/api/webhook/reload`, { method: "POST" });
      await refused.body?.cancel();
      assertEquals(refused.status, 401);
      const hook = await fetch(`${server.url}/api/webhook/reload`, {
        method: "POST",
        headers: { "x-api-token": "s3cret-token" },
      });
      assertEquals(hook.status, 202);
      const { generation } = await hook.json();
      assert(generation > 0);
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "graphsvc-min-generation": String(generation),
        },
        body: JSON.stringify({ query: "{ host { name rev } }" }),
      });
      assertEquals(res.headers.get("graphsvc-commit"), head);
      const body = await res.json();
      assertEquals(body.data.host.find((h: { name: string }) => h.name === "h1").rev, "pushed");
    } finally {
      await server.stop();
      await remote.stop();
      for (const d of [dir, work]) await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  },
});
