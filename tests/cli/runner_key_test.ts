// AC23: the local runner's key pair lives in `<data-dir>/.graphsvc/runner.key` (mode 0600) —
// also when `--data-dir` is relative (the default) — and is the same across restarts.
import { assert, assertEquals } from "../_assert.ts";
import { ROOT, spawnServe, tempWorkspace } from "./_cli.ts";
import { runnerKeyDir } from "../../server.ts";
import { unpackBundle } from "../../lib/actions/bundle.ts";

Deno.test("AC23 runnerKeyDir makes a relative data directory absolute; memory: stays in memory", () => {
  assertEquals(runnerKeyDir("./data", "/srv/app"), "/srv/app/data");
  assertEquals(runnerKeyDir("data/", "/srv/app/"), "/srv/app/data");
  assertEquals(runnerKeyDir("../x/./y", "/srv/app"), "/srv/x/y");
  assertEquals(runnerKeyDir(".", "/srv/app"), "/srv/app");
  assertEquals(runnerKeyDir("/abs/dir", "/srv/app"), "/abs/dir");
  assertEquals(runnerKeyDir("memory:", "/srv/app"), undefined);
});

/** `dir` relative to the project root (the working directory of `spawnServe`). */
function relativeToRoot(dir: string): string {
  const up = ROOT.replace(/\/+$/, "").split("/").filter((p) => p !== "").length;
  return `${"../".repeat(up)}${dir.replace(/^\/+/, "")}`;
}

async function bundleKey(url: string): Promise<string | null> {
  const res = await fetch(`${url}/api/actions/data/ping?download=true`, { method: "POST" });
  assertEquals(res.status, 200, await res.clone().text());
  return unpackBundle(new Uint8Array(await res.arrayBuffer())).manifest.runner_key;
}

Deno.test("AC23 serve with a relative --data-dir writes the runner key once and keeps it across restarts", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name\nh1\n",
    "actions/ping.toml": 'name = "ping"\nexec = [["true"]]\n',
  }, "graphsvc-runner-key-");
  const relative = relativeToRoot(dir);
  assert(!relative.startsWith("/"), relative);
  const keyFile = `${dir}/.graphsvc/runner.key`;
  try {
    let server = await spawnServe(relative, [], { waitForBuild: true });
    let first: string | null;
    try {
      first = await bundleKey(server.url);
    } finally {
      await server.stop();
    }
    const stored = JSON.parse(await Deno.readTextFile(keyFile));
    assertEquals(stored.public, first);
    assertEquals((await Deno.stat(keyFile)).mode! & 0o777, 0o600);
    server = await spawnServe(relative, [], { waitForBuild: true });
    try {
      assertEquals(await bundleKey(server.url), first, "the same key after a restart");
    } finally {
      await server.stop();
    }
    assertEquals(JSON.parse(await Deno.readTextFile(keyFile)), stored);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
