/**
 * The serving path against the runtime's floor (issue 26): autocannon (16 connections, best of
 * two runs of N seconds, default 4) against a bare `Deno.serve(() => new Response("ok"))` and
 * against `cli.ts serve` on testdata/example, both started in this run on 127.0.0.1. Every
 * figure is a ratio to the bare server measured here.
 *
 * Each row is measured right after a run of the bare server, so the ratio compares two runs
 * under the same conditions (load on this machine drifts by ±25 % over a minute).
 *
 * `deno run -A bench/serving_bench.ts [seconds] [checkout]` (also part of `deno task bench`);
 * `checkout` measures another working copy's `cli.ts` (e.g. a `git worktree` of an older commit).
 *
 * @module
 */
const root = new URL("..", import.meta.url).pathname;
const deno = Deno.execPath();
const seconds = Number(Deno.args[0] ?? "4");
/** The checkout whose `cli.ts serve` is measured (default this one): before/after in one run. */
const checkout = Deno.args[1] ? `${Deno.args[1].replace(/\/$/, "")}/` : root;
const autocannon = `${root}node_modules/.bin/autocannon`;

const QUERY = "{ host { name cpu zone { node { name } } } }";
/** The same selection with a used variable (an unused one is a validation error, not executed). */
const VARIABLE_QUERY =
  "query($x: String!) { host { name cpu zone { node { name } } } __type(name: $x) { name } }";

interface Server {
  port: number;
  stop(): Promise<void>;
}

/** Starts a process and resolves once its stderr names the port it listens on. */
async function start(args: string[]): Promise<Server> {
  const child = new Deno.Command(deno, {
    args,
    cwd: checkout,
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

/** A row's load and the bare server's req/s measured just before it. */
interface Row extends Load {
  floor: number;
}

async function once(url: string, extra: string[] = []): Promise<Load> {
  const out = await new Deno.Command(autocannon, {
    args: ["-c", "16", "-d", String(seconds), "-j", ...extra, url],
    stdout: "piped",
    stderr: "null",
  }).output();
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** Best of two runs of the row, each right after a run of the bare server (same conditions). */
async function cannon(url: string, extra: string[] = []): Promise<Row> {
  let best: Row | undefined;
  for (let round = 0; round < 2; round++) {
    const floor = await once(bareUrl);
    const load = await once(url, extra);
    const row = { ...load, floor: floor.rps };
    if (!best || row.rps / row.floor > best.rps / best.floor) best = row;
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
  `${checkout}cli.ts`,
  "--data-dir",
  `${checkout}testdata/example`,
  "serve",
  "--host",
  "127.0.0.1",
  "--port",
  "0",
  "--no-watch",
]);
const bareUrl = `http://127.0.0.1:${bare.port}/`;
const rows: [string, Row][] = [];
try {
  await ready(graphsvc.port);
  // Every GraphQL row must be executed, not refused: an answer with `errors` stops the bench.
  for (
    const body of [
      { query: QUERY },
      { query: VARIABLE_QUERY, variables: { x: "[1]" } },
      { query: `${QUERY} # [1]` },
    ]
  ) {
    const res = await fetch(`http://127.0.0.1:${graphsvc.port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (answer.errors || !answer.data) throw new Error(`${body.query}: ${JSON.stringify(answer)}`);
  }
  const base = `http://127.0.0.1:${graphsvc.port}`;
  const json = ["-H", "content-type=application/json", "-m", "POST"];
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
        // $x is used (an unused variable is a validation error, which would not execute).
        query:
          `query($x: String!) { host { name cpu zone { node { name } } } __type(name: $x) { name } }`,
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

console.log(
  `autocannon -c 16 -d ${seconds}, 127.0.0.1, ${checkout}testdata/example; each row is the best ` +
    `of two runs, each right after a run of the bare \`Deno.serve\` (its req/s in the last column)\n`,
);
console.log("| request | req/s | × bare | p99 ms | errors / non-2xx | bare req/s |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const [name, l] of rows) {
  console.log(
    `| ${name} | ${Math.round(l.rps)} | ${(l.rps / l.floor).toFixed(2)}× | ${l.p99} | ` +
      `${l.errors} / ${l.non2xx} | ${Math.round(l.floor)} |`,
  );
}
