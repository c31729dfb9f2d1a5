// The file watcher of `serve` (issue 15 point 2): an edit of a data-directory CSV made outside
// graphsvc is picked up, and the watcher names the changed file so the rebuild can be
// incremental; a change it cannot relate to the data directory still rebuilds (fully).
import { assert, assertEquals } from "../_assert.ts";
import { spawnServe, tempWorkspace } from "./_cli.ts";

Deno.test("serve --watch: an outside edit of an asset CSV rebuilds incrementally (named path)", async () => {
  const dir = await tempWorkspace(
    { "assets/host.csv": "name,port\na,1\nb,2\n" },
    "graphsvc-watch-",
  );
  const server = await spawnServe(dir, [], {
    globalArgs: ["--log-level", "debug"],
    watch: true,
    waitForBuild: true,
  });
  try {
    await Deno.writeTextFile(`${dir}/assets/host.csv`, "name,port\na,1\nb,3\n");
    // A changed port only: the graph is derived from the previous one (an incremental mode).
    await server.logged(/build 2: properties build/);
    const answer = await fetch(`${server.url}/api/resources/host/b?min_generation=2`);
    const body = await answer.text();
    assertEquals(answer.status, 200, body);
    assert(body.includes('"3"') || body.includes(":3"), body);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
