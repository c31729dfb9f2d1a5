import { assertEquals } from "../_assert.ts";
import { setupApps } from "./_setup.ts";
import { createUnixFetch } from "../../lib/runtime/deno/unix_fetch.ts";

Deno.test("AP16 action:// targets go to the running action's Unix socket; not running → 503", async () => {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/action.sock`;
  const seen: string[] = [];
  const server = Deno.serve({ path: socket, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}${url.search} ${await req.text()}`);
    return Response.json({ ok: true });
  });
  const unix = createUnixFetch();
  const asked: string[] = [];
  try {
    const { get } = await setupApps(
      {
        "app/index.html": "x",
        "app/proxy.toml": `
[[route]]
path = "/api/runner"
target = "action://runner"
[[route]]
path = "/api/other"
target = "action://tools/deploy"
[[route]]
path = "/api/stopped"
target = "action://stopped"
`,
      },
      {},
      {
        apps: {
          unixFetch: unix.fetch,
          actions: {
            socketFor: (app, module, action) => {
              asked.push(`${app}:${module ?? ""}:${action}`);
              return action === "stopped" ? undefined : socket;
            },
          },
        },
      },
    );
    const res = await get("/apps/data/api/runner/execute?x=1", { method: "POST", body: "in" });
    assertEquals(res.status, 200);
    assertEquals(await res.json(), { ok: true });
    assertEquals(seen, ["POST /execute?x=1 in"]);
    const other = await get("/apps/data/api/other");
    await other.body?.cancel();
    const stopped = await get("/apps/data/api/stopped/x");
    assertEquals(stopped.status, 503);
    assertEquals(stopped.headers.get("content-type"), "application/problem+json");
    await stopped.body?.cancel();
    assertEquals(asked, ["data::runner", "data:tools:deploy", "data::stopped"]);
  } finally {
    unix.close();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AP16 without an action runtime every action:// target answers 503", async () => {
  const { get } = await setupApps({
    "app/index.html": "x",
    "app/proxy.toml": '[[route]]\npath = "/api/run"\ntarget = "action://run"\n',
  });
  const res = await get("/apps/data/api/run");
  assertEquals(res.status, 503);
  await res.body?.cancel();
});
