// The file watcher of `serve` (issue 15 point 2): an edit of a data-directory CSV made outside
// graphsvc is picked up, and the watcher names the changed file so the rebuild can be
// incremental; a change it cannot relate to the data directory still rebuilds (fully).
import { assert, assertEquals } from "../_assert.ts";
import { ROOT, tempWorkspace } from "./_cli.ts";

Deno.test("serve --watch: an outside edit of an asset CSV rebuilds incrementally (named path)", async () => {
  const dir = await tempWorkspace(
    { "assets/host.csv": "name,port\na,1\nb,2\n" },
    "graphsvc-watch-",
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}cli.ts`,
      "--data-dir",
      dir,
      "--log-level",
      "debug",
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const waiters: (() => void)[] = [];
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      for (const w of waiters.splice(0)) w();
    }
  })();
  const logged = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no log line ${pattern} in:\n${text}`)),
        30_000,
      );
      const check = () => {
        const m = pattern.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        } else waiters.push(check);
      };
      check();
    });
  try {
    const listening = await logged(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const port = Number(listening[1]);
    await logged(/build 1: \d+ resources/);
    await Deno.writeTextFile(`${dir}/assets/host.csv`, "name,port\na,1\nb,3\n");
    await logged(/build 2: assets build/);
    const answer = await fetch(`http://127.0.0.1:${port}/api/resources/host/b?min_generation=2`);
    const body = await answer.text();
    assertEquals(answer.status, 200, body);
    assert(body.includes('"3"') || body.includes(":3"), body);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reading;
    await Deno.remove(dir, { recursive: true });
  }
});
