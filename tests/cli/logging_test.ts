// CLI log lines (issue 18 item 5): CE text lines carry an ISO timestamp; `--log-format json`
// writes one `{"time","level","message"}` object per line for log shippers.
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function workspace() {
  return tempWorkspace({ "assets/h.csv": "name\nx\n" });
}

Deno.test("CE text log lines start with an ISO timestamp and the level", async () => {
  const dir = await workspace();
  const r = await cli(["--data-dir", dir, "build"]);
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stderr.split("\n").filter((l) => l.includes("build 1:"));
  assert(lines.length > 0, r.stderr);
  for (const line of lines) {
    const [time, level] = line.split(" ");
    assertMatch(time, ISO, line);
    assertEquals(level, "INFO", line);
  }
});

Deno.test("--log-format json: every log line is one object with time, level and message", async () => {
  const dir = await workspace();
  const r = await cli(["--data-dir", dir, "--log-format", "json", "build"]);
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
  assert(lines.length > 0, r.stderr);
  for (const line of lines) {
    const entry = JSON.parse(line);
    assertEquals(Object.keys(entry), ["time", "level", "message"], line);
    assertMatch(entry.time, ISO, line);
  }
  assert(lines.some((l) => JSON.parse(l).message.startsWith("build 1:")), r.stderr);
});

Deno.test("CL21 --log-format with an unknown value is a usage error (exit 2)", async () => {
  const r = await cli(["--log-format", "xml", "build"]);
  assertEquals(r.code, 2, r.stderr);
  assert(r.stderr.includes("xml"), r.stderr);
});
