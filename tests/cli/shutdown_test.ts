// Issue 18 point 5: graceful shutdown of `serve` on SIGINT/SIGTERM — no new connections, the
// requests in flight are answered, then the process exits 0; a request that outlasts the grace
// period is cut so the process still exits. Every wait is bounded; nothing asserts durations.
import { assert, assertEquals } from "../_assert.ts";
import { ROOT, type ServeProcess, spawnServe, tempWorkspace } from "./_cli.ts";

const FILES = {
  "assets/service.csv": "name,database\napi,orders\n",
  "assets/database.csv": "name,engine\norders,postgres\n",
};

/** `serve` on a fresh copy of FILES, once its first build is done. */
async function startServer(extra: string[] = []): Promise<ServeProcess> {
  const dir = await tempWorkspace(FILES, "graphsvc-shutdown-");
  return await spawnServe(dir, extra, { waitForBuild: true });
}

async function readAll(conn: Deno.Conn): Promise<string> {
  let text = "";
  const buf = new Uint8Array(4096);
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      text += new TextDecoder().decode(buf.subarray(0, n));
      if (/\r\n\r\n[\s\S]*\}$/.test(text)) break; // the JSON answer is complete
    }
  } catch { /* closed */ }
  return text;
}

/** True when a new request is refused or its connection closed without an answer. */
async function notServed(port: number): Promise<boolean> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return true; // refused: the listener is closed
  }
  try {
    await conn.write(
      new TextEncoder().encode(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
    );
    const n = await conn.read(new Uint8Array(64));
    return n === null;
  } catch {
    return true; // reset
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/** Resolves with the exit status, or kills the process and fails after `boundMs`. */
async function exited(child: Deno.ChildProcess, boundMs = 30_000): Promise<Deno.CommandStatus> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("the server did not exit by itself"));
    }, boundMs);
  });
  try {
    return await Promise.race([child.status, bound]);
  } finally {
    clearTimeout(timer);
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`${signal}: new connections refused, the request in flight answered, exit 0`, async () => {
    const server = await startServer();
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    // A request whose body is not complete yet: in flight when the signal comes.
    await conn.write(new TextEncoder().encode(
      "POST /api/module-params HTTP/1.1\r\n" +
        `Host: 127.0.0.1:${server.port}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{",
    ));
    await server.logged(/POST \/api\/module-params|listening/); // (the head is on its way)
    await new Promise((r) => setTimeout(r, 300)); // let the server start reading the body
    server.child.kill(signal);
    await server.logged(/shutting down: no new connections/);
    assert(await notServed(server.port), "a new connection was served after the signal");
    await conn.write(new TextEncoder().encode("}"));
    const answer = await readAll(conn);
    conn.close();
    assert(
      answer.startsWith("HTTP/1.1 202"),
      `answer: ${JSON.stringify(answer)}\n${server.stderr()}`,
    );
    const status = await exited(server.child);
    await server.stop(); // (exited: waits for the end of its log)
    assertEquals(status.code, 0, server.stderr());
    assert(server.stderr().includes("server stopped"), server.stderr());
  });
}

Deno.test("a request outlasting --shutdown-grace (an event stream) is cut and the server exits", async () => {
  const server = await startServer(["--shutdown-grace", "300"]);
  const res = await fetch(`http://127.0.0.1:${server.port}/api/build/stream`);
  const reader = res.body!.getReader();
  await reader.read(); // the last build's sentinel: the stream is open
  server.child.kill("SIGINT");
  const status = await exited(server.child);
  await server.stop(); // (exited: waits for the end of its log)
  assertEquals(status.code, 0, server.stderr());
  // The stream ends (closed by the server) instead of hanging.
  try {
    while (!(await reader.read()).done) { /* drain */ }
  } catch { /* reset */ }
  assert(server.stderr().includes("server stopped"), server.stderr());
});

const npm = await new Deno.Command("npm", { args: ["--version"], stdout: "null", stderr: "null" })
  .output().then((o) => o.success, () => false);
if (!npm) console.log("shutdown_test: skipping the npm start test: npm is not on PATH");

Deno.test({
  name: "npm start stops its server when npm alone is interrupted (SIGINT)",
  ignore: !npm,
  async fn() {
    // `npm start` runs `exec deno task start`: npm forwards the signal to deno task, which
    // forwards it to the server (a `sh -c` in between would leave the server running).
    const child = new Deno.Command("npm", {
      args: ["start", "--silent", "--", "--port", "0", "--no-watch"],
      cwd: ROOT,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let text = "";
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    const until = async (pattern: RegExp, boundMs = 30_000) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reader.cancel().catch(() => {}); // the server may still hold the pipe: stop reading
      }, boundMs);
      try {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`npm start ended before ${pattern}:\n${text}`);
          text += value;
        }
      } finally {
        clearTimeout(timer);
      }
    };
    await until(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(text)![1]);
    child.kill("SIGINT"); // to npm only, not to its process group
    await until(/server stopped/);
    const status = await exited(child);
    assert(status.code === 0 || status.signal === "SIGINT", JSON.stringify(status));
    let refused = false;
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    } catch {
      refused = true;
    }
    assert(refused, "the server still listens after npm start was interrupted");
    await reader.cancel().catch(() => {});
  },
});
