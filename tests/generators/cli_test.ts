/** CLI behaviour of generators (GN7 exit 2, GN3 config errors, GN8 masked lines). */
import { assert, assertEquals } from "../_assert.ts";
import { startServer } from "./_helpers.ts";
import { cli as runCli, spawnServe } from "../cli/_cli.ts";

/** `cli.ts --data-dir <dir> …args` as a real process. */
function cli(dir: string, args: string[], env: Record<string, string> = {}) {
  return runCli(["--data-dir", dir, ...args], env);
}

async function dataDir(manifest: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-gen-cli-" });
  await Deno.mkdir(`${dir}/assets`);
  await Deno.writeTextFile(`${dir}/assets/host.csv`, "name\nweb-1\n");
  await Deno.writeTextFile(`${dir}/module.toml`, manifest);
  return dir;
}

Deno.test("GN7 build: an abort_on_failure generator exits 2 with masked secrets in the log", async () => {
  const srv = startServer(() => new Response("down", { status: 502 }));
  const dir = await dataDir(
    `[generator.feed]\nurl = "${srv.base}/feed?key=\${vault:ops#key}"\ntarget_input = "feed.json"\nabort_on_failure = true\n`,
  );
  try {
    const r = await cli(dir, ["build"], { GRAPHSVC_SECRET_OPS_KEY: "sup3rsecret" });
    assertEquals(r.code, 2, r.stderr);
    assert(r.stdout.includes("build failed: aborted by generator failure"), r.stdout);
    assert(r.stdout.includes("generators: 0 run, 0 skipped, 1 failed"), r.stdout);
    assert(r.stderr.includes(`GET ${srv.base}/feed?key=***): HTTP 502`), r.stderr);
    assert(!(r.stdout + r.stderr).includes("sup3rsecret"));
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GN3 an invalid generator table is a configuration error (exit 2) before any build", async () => {
  const dir = await dataDir(`[generators.feed]\nurl = "http://127.0.0.1:9/x"\n`);
  try {
    const r = await cli(dir, ["build"]);
    assertEquals(r.code, 2);
    assert(
      r.stderr.includes(
        "module.toml: generator_target: generator 'feed': declare exactly one of target_input and target_asset",
      ),
      r.stderr,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GN1 a generator declared under both spellings is generator_duplicate (exit 2)", async () => {
  const dir = await dataDir(
    `[generator.feed]\nurl = "http://127.0.0.1:9/x"\ntarget_input = "a.json"\n` +
      `[generators.feed]\nurl = "http://127.0.0.1:9/y"\ntarget_input = "b.json"\n`,
  );
  try {
    const r = await cli(dir, ["build"]);
    assertEquals(r.code, 2);
    assert(r.stderr.includes("module.toml: generator_duplicate: generator 'feed'"), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GN4 serve: the first build runs generators, a reload webhook runs them again", async () => {
  const srv = startServer(() => new Response(`name\nweb-${srv.seen.length}\n`));
  const dir = await dataDir(
    `[generator.hosts]\nurl = "${srv.base}/hosts.csv"\ntarget_asset = "host.csv"\n`,
  );
  const server = await spawnServe(dir, [], { env: { GRAPHSVC_API_TOKEN: "tok" } });
  const port = server.port;
  const names = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/graphql?query=%7Bhost%7Bname%7D%7D`);
    return ((await res.json()).data?.host ?? []).map((h: { name: string }) => h.name);
  };
  const until = async (want: string) => {
    for (let i = 0; i < 150; i++) {
      try {
        if ((await names()).includes(want)) return true;
      } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };
  try {
    assert(await until("web-1"), "the first build used the fetched file");
    const res = await fetch(`http://127.0.0.1:${port}/api/webhook/reload`, {
      method: "POST",
      headers: { "x-api-token": "tok" },
    });
    assertEquals(res.status, 202);
    await res.body?.cancel();
    assert(await until("web-2"), "the reload refetched");
    assertEquals(srv.seen.length, 2);
  } finally {
    await server.stop();
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GN4 bootstrap runs the generators: the target is fetched and written", async () => {
  const srv = startServer(() => new Response("name\nweb-9\n"));
  const dir = await dataDir(
    `[generator.hosts]\nurl = "${srv.base}/hosts.csv"\ntarget_asset = "fetched.csv"\n`,
  );
  try {
    const r = await cli(dir, ["bootstrap"]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(srv.seen.length, 1);
    assertEquals(await Deno.readTextFile(`${dir}/assets/fetched.csv`), "name\nweb-9\n");
    assert(r.stderr.includes("generator hosts: 1 page(s), 1 item(s), wrote assets/fetched.csv"));
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GN4 --offline: no generator fetches, the build uses the last fetched target and warns", async () => {
  const srv = startServer(() => new Response("name\nweb-new\n"));
  const dir = await dataDir(
    `[generator.hosts]\nurl = "${srv.base}/hosts.csv"\ntarget_asset = "fetched.csv"\n` +
      `[generator.never]\nurl = "${srv.base}/never.json"\ntarget_input = "never.json"\n`,
  );
  await Deno.writeTextFile(`${dir}/assets/fetched.csv`, "name\nweb-old\n");
  try {
    const r = await cli(dir, ["--offline", "build", "--graph-json", "-"]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(srv.seen.length, 0, "nothing was fetched");
    const names = JSON.parse(r.stdout).nodes.map((n: { name: string }) => n.name);
    assert(names.includes("web-old") && !names.includes("web-new"), names.join());
    assert(
      r.stderr.includes("generators: offline, none run; using the last fetched assets/fetched.csv"),
      r.stderr,
    );
    assert(r.stderr.includes("generator never: offline and input/never.json was never fetched"));
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GN3 bootstrap: an invalid generator table is a configuration error (exit 2)", async () => {
  const dir = await dataDir(`[generator.feed]\nurl = "http://127.0.0.1:9/x"\n`);
  try {
    const r = await cli(dir, ["bootstrap"]);
    assertEquals(r.code, 2);
    assert(r.stderr.includes("module.toml: generator_target: generator 'feed'"), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
