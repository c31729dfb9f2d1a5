// GRAPHSVC_* environment variables for the global and `serve` options (issue 18 item 5): the
// variable fills an option the command line leaves out; the command line wins.
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";

function workspace() {
  return tempWorkspace({ "assets/h.csv": "name\nx\n" });
}

Deno.test("GRAPHSVC_DATA_DIR and GRAPHSVC_LOG_FORMAT stand in for --data-dir and --log-format", async () => {
  const dir = await workspace();
  const r = await cli(["build"], { GRAPHSVC_DATA_DIR: dir, GRAPHSVC_LOG_FORMAT: "json" });
  assertEquals(r.code, 0, r.stderr);
  assert(r.stdout.includes("resources: 1"), r.stdout);
  const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
  assert(lines.length > 0, r.stderr);
  for (const line of lines) {
    assertEquals(Object.keys(JSON.parse(line)), ["time", "level", "message"]);
  }
});

Deno.test("the command line wins over GRAPHSVC_* variables", async () => {
  const dir = await workspace();
  const r = await cli(["--data-dir", dir, "--log-format", "text", "build"], {
    GRAPHSVC_DATA_DIR: `${dir}/does-not-exist`,
    GRAPHSVC_LOG_FORMAT: "json",
  });
  assertEquals(r.code, 0, r.stderr);
  assert(!r.stderr.trimStart().startsWith("{"), r.stderr);
});

Deno.test("CL21 an invalid variable value is a usage error (exit 2)", async () => {
  const r = await cli(["build"], { GRAPHSVC_LOG_LEVEL: "loud" });
  assertEquals(r.code, 2, r.stderr);
  assert(r.stderr.includes("loud"), r.stderr);
});

Deno.test("a false-looking value of a flag variable is refused instead of turning the flag on", async () => {
  const r = await cli(["build"], { GRAPHSVC_READ_ONLY: "false" });
  assertEquals(r.code, 2, r.stderr);
  assert(r.stderr.includes("GRAPHSVC_READ_ONLY"), r.stderr);
});

Deno.test("help names the variable of each global and serve option", async () => {
  const global = await cli(["--help"]);
  assert(global.stdout.includes("GRAPHSVC_DATA_DIR"), global.stdout);
  assert(global.stdout.includes("GRAPHSVC_LOG_LEVEL"), global.stdout);
  const serve = await cli(["serve", "--help"]);
  assert(serve.stdout.includes("GRAPHSVC_PORT"), serve.stdout);
  assert(serve.stdout.includes("GRAPHSVC_NO_WATCH"), serve.stdout);
});
