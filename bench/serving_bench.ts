/**
 * The serving path against the runtime's floor (issue 26): autocannon (16 connections, best of
 * two runs of N seconds, default 4) against a bare `Deno.serve(() => new Response("ok"))` and
 * against `cli.ts serve` on testdata/example, both started in this run on 127.0.0.1. Every
 * figure is a ratio to the bare server measured here.
 *
 * `deno run -A bench/serving_bench.ts [seconds]` (also part of `deno task bench`).
 *
 * @module
 */
const root = new URL("..", import.meta.url).pathname;
const deno = Deno.execPath();
const seconds = Number(Deno.args[0] ?? "4");
const autocannon = `${root}node_modules/.bin/autocannon`;

const QUERY = "{ host { name cpu zone { node { name } } } }";

interface Server {
  port: number;
  stop(): Promise<void>;
}

/** Starts a process and resolves once its stderr names the port it listens on. */
async function start(args: string[]): Promise<Server> {
  const child = new Deno.Command(deno, {
    args,
    cwd: root,
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let port = 0;
  const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (port === 0) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`server exited before listening:\n${text}`);
    text += value;
    const m = /listening on http:\/\/[^:]+:(\d+)\//.exec(text);
    if (m) port = Number(m[1]);
  }
  clearTimeout(deadline);
  // Keep draining stderr so that the server never blocks on a full pipe.
  (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  return {
    port,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      const t = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 5_000);
      await child.status;
      clearTimeout(t);
    },
  };
}

interface Load {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function cannon(url: string, extra: string[] = []): Promise<Load> {
  let best: Load | undefined;
  for (let round = 0; round < 2; round++) {
    const out = await new Deno.Command(autocannon, {
      args: ["-c", "16", "-d", String(seconds), "-j", ...extra, url],
      stdout: "piped",
      stderr: "null",
    }).output();
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    const load = {
      rps: r.requests.average,
      p99: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
    };
    if (!best || load.rps > best.rps) best = load;
  }
  return best!;
}

async function ready(port: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server never became ready");
}

const bare = await start([
  "eval",
  `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: (a) => ` +
  `console.error("listening on http://127.0.0.1:" + a.port + "/") }, () => new Response("ok"));`,
]);
const graphsvc = await start([
  "run",
  "-A",
  `${root}cli.ts`,
  "--data-dir",
  `${root}testdata/example`,
  "serve",
  "--host",
  "127.0.0.1",
  "--port",
  "0",
  "--no-watch",
]);
const rows: [string, Load][] = [];
try {
  await ready(graphsvc.port);
  const base = `http://127.0.0.1:${graphsvc.port}`;
  const json = ["-H", "content-type=application/json", "-m", "POST"];
  rows.push(["bare `Deno.serve`", await cannon(`http://127.0.0.1:${bare.port}/`)]);
  rows.push(["`GET /healthz` through `serve`", await cannon(`${base}/healthz`)]);
  rows.push([
    "small query, `GET /graphql?query=` (the same each time)",
    await cannon(`${base}/graphql?query=${encodeURIComponent(QUERY)}`),
  ]);
  rows.push([
    "small query, `POST /graphql` (the same each time)",
    await cannon(`${base}/graphql`, [...json, "-b", JSON.stringify({ query: QUERY })]),
  ]);
  rows.push([
    "small query, `POST`, distinct variables each time (executed, cached document)",
    await cannon(`${base}/graphql`, [
      ...json,
      "-I",
      "-b",
      JSON.stringify({
        query: `query($x: String) { host { name cpu zone { node { name } } } } `,
        variables: { x: "[<id>]" },
      }),
    ]),
  ]);
  rows.push([
    "small query, `POST`, distinct text each time (parsed, validated, executed)",
    await cannon(`${base}/graphql`, [
      ...json,
      "-I",
      "-b",
      JSON.stringify({ query: `${QUERY} # [<id>]` }),
    ]),
  ]);
} finally {
  await graphsvc.stop();
  await bare.stop();
}

const floor = rows[0][1].rps;
console.log(`autocannon -c 16 -d ${seconds}, best of two, 127.0.0.1, testdata/example\n`);
console.log("| request | req/s | × bare | p99 ms | errors / non-2xx |");
console.log("| --- | --- | --- | --- | --- |");
for (const [name, l] of rows) {
  console.log(
    `| ${name} | ${Math.round(l.rps)} | ${
      (l.rps / floor).toFixed(2)
    }× | ${l.p99} | ${l.errors} / ${l.non2xx} |`,
  );
}
