import { cli, ROOT, spawnServe, tempWorkspace } from "./_cli.ts";
import { assert, assertEquals } from "../_assert.ts";

Deno.test("CL18 build writes graph JSON in the documented shape and prints a summary", async () => {
  const dir = await tempWorkspace({
    "assets/service.csv": "name,database\napi,orders\n",
    "assets/database.csv": "name\norders\n",
  });
  const out = `${dir}/graph.json`;
  const r = await cli(["--data-dir", dir, "build", "--graph-json", out]);
  assertEquals(r.code, 0, r.stderr);
  assert(r.stdout.includes("resources: 2"), r.stdout);
  assert(r.stdout.includes("relations: 1"), r.stdout);
  const graph = JSON.parse(await Deno.readTextFile(out));
  assertEquals(graph.edges, [{
    source: { type: "service", name: "api" },
    target: { type: "database", name: "orders" },
    type: "database",
    properties: {},
  }]);
  assertEquals(graph.nodes.map((n: { type: string }) => n.type), ["database", "service"]);
});

Deno.test("CL18 build --graph-format rescile writes the original's export shape (vertices/edges)", async () => {
  const dir = await tempWorkspace({
    "assets/identity.csv": "name,user\nalice,al\n",
    "models/login.toml": 'origin_resource = "identity"\n[[create_resource]]\n' +
      'resource_type = "login"\nname = "{{ origin_resource.user }}"\n' +
      '[create_resource.properties]\nidentity = "{{ origin_resource.name }}"\n',
    "models/global.toml": '[[create_resource]]\nresource_type = "tenant"\nname = "t1"\n',
  });
  const r = await cli([
    "--data-dir",
    dir,
    "build",
    "--graph-json",
    "-",
    "--graph-format",
    "rescile",
  ]);
  assertEquals(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const id = (label: string) => out.vertices.find((v: { label: string }) => v.label === label).id;
  assertEquals(out.edges.map((e: Record<string, string>) => [e.start_id, e.label, e.end_id]), [
    [id("identity"), "", id("login")],
    [id("login"), "identity", id("identity")], // the convention relation of the property
    ["00000000-0000-0000-0000-000000000000", "", id("tenant")],
  ]);
  const login = out.vertices.find((v: { label: string }) => v.label === "login");
  assertEquals(login.properties.identity, [{ id: id("identity"), name: "alice", user: "al" }]);
  const bad = await cli(["--data-dir", dir, "build", "--graph-format", "neo4j"]);
  assertEquals(bad.code, 2);
});

Deno.test("CL21 a broken CSV: exit 1 and the error names file and line", async () => {
  const dir = await tempWorkspace({ "assets/h.csv": "name,v\nx,1\ny\n" });
  const r = await cli(["--data-dir", dir, "build"]);
  assertEquals(r.code, 1);
  assert(r.stderr.includes("assets/h.csv:3"), r.stderr);
  assert(r.stderr.includes("csv_ragged_row"), r.stderr);
  assert(!r.stderr.includes("    at "), "no stack trace");
});

Deno.test("O12 a degraded build (rule errors only) writes the graph and exits 1", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name,size\nweb-1,2\nweb-2,x\n",
    "models/host.toml": 'origin_resource = "host"\n[[create_resource]]\nresource_type = "disk"\n' +
      'name = "{{ origin_resource.name }}-disk"\n' +
      "[create_resource.properties]\ngb = \"{% if origin_resource.name == 'web-2' %}{{ nope }}{% endif %}10\"\n",
  });
  const out = `${dir}/graph.json`;
  const r = await cli(["--data-dir", dir, "build", "--graph-json", out]);
  assertEquals(r.code, 1);
  assert(r.stdout.includes("build degraded"), r.stdout);
  assert(r.stderr.includes("models/host.toml"), r.stderr);
  const graph = JSON.parse(await Deno.readTextFile(out));
  assert(graph.nodes.some((n: { name: string }) => n.name === "web-1-disk"));
});

Deno.test("CL21/CL22 usage errors exit 2: unknown option, unknown command, missing data dir, bad params", async () => {
  assertEquals((await cli(["--nope", "build"])).code, 2);
  assertEquals((await cli(["frobnicate"])).code, 2);
  assertEquals((await cli(["--data-dir", "/definitely/not/here", "build"])).code, 2);
  const dir = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  assertEquals((await cli(["--data-dir", dir, "--module-params", "{bad", "build"])).code, 2);
});

Deno.test("CL21 serve refuses --header-timeout/--idle-timeout (no effect without a TCP front) and names the proxy setting; their variables stay the proxy's", async () => {
  const dir = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  for (
    const [flag, directive] of [["--header-timeout", "timeout http-request"], [
      "--idle-timeout",
      "timeout http-keep-alive",
    ]]
  ) {
    const r = await cli(["--data-dir", dir, "serve", flag, "5000"]);
    assertEquals(r.code, 2, r.stderr);
    assert(r.stderr.includes(directive) && r.stderr.includes("docs/deploy/haproxy.cfg"), r.stderr);
  }
  // The proxy and serve can share one environment: the variables do not stop serve.
  const server = await spawnServe(dir, [], {
    env: { GRAPHSVC_HEADER_TIMEOUT: "300ms", GRAPHSVC_IDLE_TIMEOUT: "300ms" },
  });
  const status = await server.stop("SIGTERM");
  assertEquals(status.code, 0, server.stderr());
  const help = await cli(["serve", "--help"]);
  assert(
    !help.stdout.includes("--header-timeout") && !help.stdout.includes("--idle-timeout"),
    help.stdout,
  );
});

Deno.test("--version names the edition; GRAPHSVC_EDITION=ee selects graphsvc-ee", async () => {
  const ce = await cli(["--version"]);
  assertEquals(ce.code, 0);
  assert(ce.stdout.startsWith("graphsvc-ce "), ce.stdout);
  const ee = await cli(["--version"], { GRAPHSVC_EDITION: "ee" });
  assert(ee.stdout.startsWith("graphsvc-ee "), ee.stdout);
});

Deno.test("CL10 serve answers GraphQL on the given port, then stops on SIGTERM", async () => {
  const dir = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  const port = 17000 + Math.floor(Math.random() * 2000);
  const server = await spawnServe(dir, [], { port });
  try {
    let body: { data?: { countNodes: number } } | undefined;
    for (let i = 0; i < 100 && body?.data?.countNodes !== 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        const res = await fetch(`http://127.0.0.1:${port}/graphql?query=%7BcountNodes%7D`);
        body = await res.json();
      } catch { /* not up yet */ }
    }
    assertEquals(body?.data?.countNodes, 1);
  } finally {
    const status = await server.stop("SIGTERM");
    assertEquals(status.code, 0);
  }
});

Deno.test("README: `deno task ce -- --data-dir DIR build` works as shown (the leading -- is dropped)", async () => {
  const dir = await tempWorkspace({ "assets/service.csv": "name\napi\n" });
  try {
    for (const args of [["--"], []]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "ce", ...args, "--data-dir", dir, "build"],
        cwd: ROOT,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
      assert(stdout.includes("resources: 1"), stdout);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
