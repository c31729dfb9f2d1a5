/**
 * The file watcher leaves out the echo of the server's own writes (R3, issue 17's finding): a
 * write through the API publishes one generation, not a second one when the watcher sees the
 * written file; a change made on disk by someone else still rebuilds.
 */
import { assertEquals } from "../_assert.ts";
import { spawnServe, tempWorkspace } from "./_cli.ts";

async function generation(url: string): Promise<number> {
  return (await (await fetch(`${url}/api/engine-info`)).json()).generation;
}

async function until(check: () => Promise<boolean>, boundMs = 20_000): Promise<void> {
  const end = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("R3 a write through the API publishes one generation with the watcher on; an edit on disk rebuilds", async () => {
  const dir = await tempWorkspace({ "assets/host.csv": "name,port\nweb-1,80\n" });
  const server = await spawnServe(dir, [], { watch: true, waitForBuild: true });
  try {
    await until(async () => (await generation(server.url)) === 1);
    const res = await fetch(`${server.url}/api/mutations/host/web-1`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ port: 8080 }),
    });
    const written = (await res.json()).generation;
    assertEquals(res.status, 200);
    await until(async () => (await generation(server.url)) >= written);
    // Well past the watcher's 200 ms debounce: no second build for the same bytes.
    await new Promise((r) => setTimeout(r, 1500));
    assertEquals(await generation(server.url), written);

    await Deno.writeTextFile(`${dir}/assets/host.csv`, "name,port\nweb-1,8080\nweb-2,81\n");
    await until(async () => (await generation(server.url)) > written);
    const hosts = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ host { name } }" }),
    });
    assertEquals((await hosts.json()).data.host.length, 2);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
