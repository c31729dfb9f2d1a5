// CLI log lines (issue 18 item 5): CE text lines carry an ISO timestamp; `--log-format json`
// writes one `{"time","level","message"}` object per line for log shippers. CL20: the lines of
// module resolution and fetching, of `bootstrap` and of the `mod` commands use the same logger
// (EE: RFC 5424 lines) and are in `/api/build/stream` of a serve build.
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { cli, spawnServe, tempWorkspace } from "./_cli.ts";
import { moduleToml } from "../workspace/_git.ts";
import { makeZip } from "../workspace/_archives.ts";
import { StartupLog } from "../../lib/cli/startup_log.ts";

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

Deno.test("CL20 a fatal error is a log line too: JSON with --log-format json, RFC 5424 in EE, `error:` in CE text", async () => {
  const missing = `${await Deno.makeTempDir()}/missing`;
  const json = await cli(["--data-dir", missing, "--log-format", "json", "build"]);
  assertEquals(json.code, 2, json.stderr);
  const lines = json.stderr.split("\n").filter((l) => l.trim() !== "");
  for (const line of lines) {
    assertEquals(Object.keys(JSON.parse(line)), ["time", "level", "message"]);
  }
  const last = JSON.parse(lines[lines.length - 1]);
  assertEquals(last.level, "error");
  assert(last.message.includes("does not exist"), json.stderr);
  const ee = await cli(["--edition", "ee", "--data-dir", missing, "build"]);
  assertEquals(ee.code, 2, ee.stderr);
  assertMatch(
    ee.stderr.trim().split("\n").pop()!,
    /^<11>1 \S+ - graphsvc-ee - - - .*does not exist/,
  );
  const ce = await cli(["--data-dir", missing, "build"]);
  assertEquals(ce.code, 2, ce.stderr);
  assertMatch(ce.stderr.trim().split("\n").pop()!, /^error: .*does not exist/);
});

Deno.test("CL21 --log-format with an unknown value is a usage error (exit 2)", async () => {
  const r = await cli(["--log-format", "xml", "build"]);
  assertEquals(r.code, 2, r.stderr);
  assert(r.stderr.includes("xml"), r.stderr);
});

/**
 * A data directory whose module.toml needs a Git module that is not in the (empty) cache: offline,
 * every run logs a `dependency_unavailable` warning naming it (issue 11 offline mode).
 */
async function offlineProject() {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-log-" });
  const data = await tempWorkspace({
    "module.toml": moduleToml(
      "Project",
      "1.0.0",
      `[dependencies]\nnet = "file://${root}/missing/net.git"\n`,
    ),
    "assets/host.csv": "name\nweb\n",
  });
  const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache`, GRAPHSVC_OFFLINE: "1" };
  return { root, data, env };
}

/** The stderr lines that mention `needle`. */
const linesWith = (stderr: string, needle: string) =>
  stderr.split("\n").filter((l) => l.includes(needle));

Deno.test("CL20 CE: a module resolution warning is a `TIMESTAMP WARN message` log line", async () => {
  const p = await offlineProject();
  const r = await cli(["--data-dir", p.data, "build"], p.env);
  assertEquals(r.code, 0, r.stderr);
  const lines = linesWith(r.stderr, "dependency_unavailable");
  assertEquals(lines.length, 1, r.stderr);
  const m = /^(\S+) WARN dependency_unavailable: .*'net'/.exec(lines[0]);
  assert(m, lines[0]);
  assertMatch(m[1], ISO, lines[0]);
  await Deno.remove(p.root, { recursive: true });
});

Deno.test("CL20 EE: resolution warnings of build, mod fetch and bootstrap are RFC 5424 lines", async () => {
  const p = await offlineProject();
  const rfc5424 = /^<12>1 (\S+) - graphsvc-ee - - - dependency_unavailable: .*'net'/;
  for (const args of [["build"], ["mod", "fetch"], ["bootstrap"]]) {
    const r = await cli(["--edition", "ee", "--data-dir", p.data, ...args], p.env);
    assertEquals(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    const lines = linesWith(r.stderr, "dependency_unavailable");
    assertEquals(lines.length, 1, `${args.join(" ")}: ${r.stderr}`);
    const m = rfc5424.exec(lines[0]);
    assert(m, `${args.join(" ")}: ${lines[0]}`);
    assertMatch(m[1], ISO, lines[0]);
    assert(!r.stderr.includes("WARN dependency_unavailable"), r.stderr);
  }
  await Deno.remove(p.root, { recursive: true });
});

Deno.test("CL20 --log-format json: module fetch progress and resolution warnings are JSON objects", async () => {
  const p = await offlineProject();
  const zip = makeZip({ "dns/module.toml": moduleToml("Dns") });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(zip as Uint8Array<ArrayBuffer>),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/dns.zip`;
    // Online with an archive module (a download line), then `mod lock` offline (a warning).
    const online = { GRAPHSVC_MODULE_CACHE: p.env.GRAPHSVC_MODULE_CACHE };
    const dir = await tempWorkspace({ "assets/host.csv": "name\nweb\n" });
    const built = await cli(
      ["--data-dir", dir, "--module", url, "--log-format", "json", "build"],
      online,
    );
    assertEquals(built.code, 0, built.stderr);
    const entries = built.stderr.split("\n").filter((l) => l.trim() !== "").map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        throw new Error(`not a JSON log line: ${l}`);
      }
    });
    const download = entries.find((e) => e.message === `module: downloading ${url}`);
    assert(download, built.stderr);
    assertEquals(Object.keys(download), ["time", "level", "message"]);
    assertEquals(download.level, "info");
    assertMatch(download.time, ISO);

    const locked = await cli(["--data-dir", p.data, "--log-format", "json", "mod", "lock"], p.env);
    assertEquals(locked.code, 0, locked.stderr);
    const warning = locked.stderr.split("\n").filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l))
      .find((e) => e.message.startsWith("dependency_unavailable: "));
    assert(warning, locked.stderr);
    assertEquals(warning.level, "warn");
  } finally {
    await server.shutdown();
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("CL20 serve: setup warnings are in /api/build/stream of its builds, printed once", async () => {
  const p = await offlineProject();
  const server = await spawnServe(p.data, [], {
    env: { ...p.env, GRAPHSVC_API_TOKEN: "t0ken" },
    waitForBuild: true,
  });
  const controller = new AbortController();
  try {
    const res = await fetch(`${server.url}/api/build/stream`, { signal: controller.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const completions = () => (text.match(/data: BUILD_COMPLETE/g) ?? []).length;
    // Idle: the last build's final line first; then a reload runs build 2 on the open stream.
    while (completions() < 1) text += (await reader.read()).value ?? "";
    const reload = await fetch(`${server.url}/api/webhook/reload`, {
      method: "POST",
      headers: { "X-API-Token": "t0ken" },
    });
    await reload.body?.cancel();
    assert(reload.ok, `reload: HTTP ${reload.status}`);
    while (completions() < 2) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    const events = text.split("\n").filter((l) => l.startsWith("data: "));
    assert(events.some((e) => /^data: dependency_unavailable: .*'net'/.test(e)), text);
    // Printed when it happened, not again when builds replay it into their log.
    assertEquals(linesWith(server.stderr(), "dependency_unavailable").length, 1, server.stderr());
  } finally {
    controller.abort();
    await server.stop();
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("CL20 StartupLog: setup lines are printed once and replayed into builds (warnings into each)", () => {
  const printed: string[] = [];
  const startup = new StartupLog((level, text) => printed.push(`${level} ${text}`));
  startup.log("info", "module: cloning file:///srv/net.git");
  startup.log("warn", "dependency_unavailable: dependency 'net'");
  const builds: string[][] = [];
  const build = () => {
    const lines: string[] = [];
    startup.replay((level, text) => {
      assert(startup.replaying, "replaying while replaying");
      lines.push(`${level} ${text}`);
    });
    assert(!startup.replaying);
    builds.push(lines);
  };
  build();
  // A line logged after the setup (during a build) is printed, not replayed into later builds.
  startup.log("warn", "vault: secret 'x' unavailable");
  build();
  assertEquals(builds, [
    ["info module: cloning file:///srv/net.git", "warn dependency_unavailable: dependency 'net'"],
    ["warn dependency_unavailable: dependency 'net'"],
  ]);
  assertEquals(printed.length, 3);
});
