/**
 * An action file that does not parse is an error of the build (AC2, O12): located at file, line
 * and column, the build is degraded (everything else is built and published), `build` exits 1.
 */
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "../cli/_cli.ts";

Deno.test("AC2 O12 build: an action file that does not parse degrades the build, located, exit 1", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name\nweb-1\n",
    "actions/ok.toml": 'name = "ping"\norigin_resource = "host"\nexec = [["true"]]\n',
    "actions/broken.toml": 'name = "restart"\nexec = [["sh", "-c"\n',
  });
  try {
    const r = await cli(["--data-dir", dir, "build", "--graph-json", "-"]);
    assertEquals(r.code, 1, r.stderr);
    assert(/actions\/broken\.toml:\d+:\d+: error\[toml_syntax\]/.test(r.stderr), r.stderr);
    assert(r.stderr.includes("build degraded"), r.stderr);
    const graph = JSON.parse(r.stdout);
    assertEquals(graph.nodes.map((n: { name: string }) => n.name), ["web-1"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
