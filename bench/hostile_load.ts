// Hostile-load benchmark: serves a generated workspace on 127.0.0.1 (port 0) and attacks it with
// concurrent GraphQL requests, slow clients and hostile queries, while a probe measures the latency
// of a normal query. Bounded: fixed request counts, per-request time-outs, a global deadline; it
// stops the server and removes its temporary workspace by itself. Talks only to 127.0.0.1.
//
//   deno run -A bench/hostile_load.ts [--root <checkout>] [--resources 60000] [--concurrent 2000]
//                                     [--slow 200] [--slow-seconds 35] [--json]
//                                     [--serve-arg <arg>]...
//
// `--root` serves another checkout of graphsvc (e.g. a worktree at an older commit) with this
// script, so that before/after numbers come from the same load.
import { generateWorkspace } from "./generate.ts";

interface Args {
  root: string;
  resources: number;
  concurrent: number;
  slow: number;
  slowSeconds: number;
  json: boolean;
  serveArgs: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    root: new URL("../", import.meta.url).pathname,
    resources: 60_000,
    concurrent: 2_000,
    slow: 200,
    slowSeconds: 35,
    json: false,
    serveArgs: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case "--root":
        args.root = v.endsWith("/") ? v : v + "/";
        i++;
        break;
      case "--resources":
        args.resources = Math.min(Number(v), 200_000);
        i++;
        break;
      case "--concurrent":
        args.concurrent = Math.min(Number(v), 5_000);
        i++;
        break;
      case "--slow":
        args.slow = Math.min(Number(v), 1_000);
        i++;
        break;
      case "--slow-seconds":
        args.slowSeconds = Math.min(Number(v), 120);
        i++;
        break;
      case "--serve-arg": // passed to `serve`, e.g. --serve-arg=--max-connections-per-client=5000
        args.serveArgs.push(v);
        i++;
        break;
      case "--json":
        args.json = true;
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return args;
}

const HOST = "127.0.0.1";
const REQUEST_TIMEOUT_MS = 30_000;
const GLOBAL_DEADLINE_MS = 300_000;
const NORMAL_QUERY =
  '{ countNodes t3(filter: { name: "t3-42" }) { name env t4 { node { name } } } }';

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

function rssOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
    return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

async function startServer(root: string, dir: string, serveArgs: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${root}cli.ts`,
      "--data-dir",
      dir,
      "serve",
      "--host",
      HOST,
      "--port",
      "0",
      "--no-watch",
      ...serveArgs,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let port = 0;
  let log = "";
  const found = new Promise<number>((resolve) => {
    for (const stream of [child.stdout, child.stderr]) {
      (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of stream) {
          if (log.length < 20_000) log += decoder.decode(chunk);
          const m = log.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
          if (m && port === 0) resolve(port = Number(m[1]));
        }
      })().catch(() => {});
    }
  });
  const timeout = new Promise<number>((r) => setTimeout(() => r(0), 60_000));
  port = await Promise.race([found, timeout]);
  if (port === 0) {
    child.kill("SIGKILL");
    throw new Error(`server did not start:\n${log}`);
  }
  return { child, port, log: () => log };
}

/** Network error messages (status 0) and how often they occurred. */
const networkErrors = new Map<string, number>();

interface Outcome {
  status: number; // 0 = network error / time-out
  ms: number;
  graphqlErrors: boolean;
  bytes: number;
}

async function post(
  client: Deno.HttpClient,
  url: string,
  query: string,
): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      client,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let graphqlErrors = false;
    if (res.status === 200 && text.length < 1_000_000) {
      try {
        graphqlErrors = Array.isArray(JSON.parse(text).errors);
      } catch { /* not JSON */ }
    }
    return { status: res.status, ms: performance.now() - t0, graphqlErrors, bytes: text.length };
  } catch (e) {
    const message = String((e as Error)?.message ?? e).slice(0, 120);
    networkErrors.set(message, (networkErrors.get(message) ?? 0) + 1);
    return { status: 0, ms: performance.now() - t0, graphqlErrors: false, bytes: 0 };
  }
}

function summarise(outcomes: Outcome[]) {
  const byStatus: Record<string, number> = {};
  let failed = 0;
  let bytes = 0;
  for (const o of outcomes) {
    byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    if (o.status !== 200 || o.graphqlErrors) failed++;
    bytes += o.bytes;
  }
  return {
    count: outcomes.length,
    errorRate: outcomes.length ? +(failed / outcomes.length).toFixed(3) : 0,
    byStatus,
    totalMB: +(bytes / 1e6).toFixed(1),
    p50ms: +percentile(outcomes.map((o) => o.ms), 50).toFixed(1),
    p99ms: +percentile(outcomes.map((o) => o.ms), 99).toFixed(1),
  };
}

/** A slow client: half send headers one byte at a time, half a declared body one byte at a time. */
async function slowClient(port: number, index: number, seconds: number, stop: AbortSignal) {
  const t0 = performance.now();
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname: HOST, port });
  } catch {
    return { kind: "refused", ms: 0 };
  }
  const encoder = new TextEncoder();
  const slowBody = index % 2 === 1;
  const head = slowBody
    ? `POST /graphql HTTP/1.1\r\nHost: ${HOST}:${port}\r\ncontent-type: application/json\r\n` +
      "content-length: 4096\r\n\r\n"
    : `GET /graphql?query=%7BcountNodes%7D HTTP/1.1\r\nHost: ${HOST}:${port}\r\n`;
  let closed = false;
  const reader = (async () => {
    const buf = new Uint8Array(1024);
    try {
      while ((await conn.read(buf)) !== null) { /* a 408/4xx answer may come first */ }
    } catch { /* reset */ }
    closed = true;
  })();
  try {
    await conn.write(encoder.encode(head));
    const deadline = t0 + seconds * 1000;
    while (!closed && !stop.aborted && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1_000));
      await conn.write(encoder.encode(slowBody ? " " : "x"));
    }
  } catch {
    closed = true;
  }
  const ms = performance.now() - t0;
  const result = { kind: closed ? "closed-by-server" : "still-open", ms };
  try {
    conn.close();
  } catch { /* already closed */ }
  await reader;
  return result;
}

async function main() {
  const args = parseArgs(Deno.args);
  const started = performance.now();
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-hostile-" });
  for (const [path, text] of Object.entries(generateWorkspace(args.resources, 10))) {
    await Deno.mkdir(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  const { child, port, log } = await startServer(args.root, dir, args.serveArgs);
  const url = `http://${HOST}:${port}/graphql`;
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(), GLOBAL_DEADLINE_MS);
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(child.pid).rss);
  }, 100);
  const probeClient = Deno.createHttpClient({});
  const attackClient = Deno.createHttpClient({});
  const report: Record<string, unknown> = {
    root: args.root,
    serveArgs: args.serveArgs,
    resources: args.resources,
  };
  try {
    // Wait for the first build to publish the whole graph.
    const readyBy = performance.now() + 240_000;
    let ready = false;
    while (!ready && performance.now() < readyBy) {
      const r = await post(probeClient, url, "{ countNodes }");
      if (r.status === 200) {
        const res = await fetch(url, {
          client: probeClient,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ countNodes }" }),
        });
        ready = (await res.json())?.data?.countNodes === args.resources;
      }
      if (!ready) await new Promise((r) => setTimeout(r, 500));
    }
    if (!ready) throw new Error("graph was not built in time");
    report.buildSeconds = +((performance.now() - started) / 1000).toFixed(1);
    report.rssAfterBuildMB = +(rssOf(child.pid).rss / 1e6).toFixed(0);

    const baseline: Outcome[] = [];
    for (let i = 0; i < 50; i++) baseline.push(await post(probeClient, url, NORMAL_QUERY));
    report.baseline = summarise(baseline);

    // The attack, with a probe measuring a normal query all along.
    const probe: Outcome[] = [];
    let attacking = true;
    const probing = (async () => {
      while (attacking && !stop.signal.aborted) {
        probe.push(await post(probeClient, url, NORMAL_QUERY));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const listNodes100 = `{ ${
      Array.from({ length: 100 }, (_, i) => `a${i}: listNodes`).join(" ")
    } }`;
    const graphJson100 = `{ ${
      Array.from({ length: 100 }, (_, i) => `a${i}: graphJson`).join(" ")
    } }`;
    const deepLiteral = `{ listNodes(label: ${"[".repeat(9_000)}"x"${"]".repeat(9_000)}) }`;
    const slow = Promise.all(
      Array.from(
        { length: args.slow },
        (_, i) => slowClient(port, i, args.slowSeconds, stop.signal),
      ),
    );
    const flood = Promise.all(
      Array.from({ length: args.concurrent }, () => post(attackClient, url, NORMAL_QUERY)),
    );
    const aliases = Promise.all(
      Array.from({ length: 16 }, () => post(attackClient, url, listNodes100)),
    );
    const graphJsons = Promise.all(
      Array.from({ length: 4 }, () => post(attackClient, url, graphJson100)),
    );
    const deep = Promise.all(
      Array.from({ length: 10 }, () => post(attackClient, url, deepLiteral)),
    );
    const [floodOut, aliasOut, graphJsonOut, deepOut] = await Promise.all([
      flood,
      aliases,
      graphJsons,
      deep,
    ]);
    const slowOut = await slow;
    attacking = false;
    await probing;
    report.flood = summarise(floodOut);
    report.listNodes100 = summarise(aliasOut);
    report.graphJson100 = summarise(graphJsonOut);
    report.deepLiteral = summarise(deepOut);
    const kinds: Record<string, number> = {};
    for (const s of slowOut) kinds[s.kind] = (kinds[s.kind] ?? 0) + 1;
    const closedAfter = (slowBody: boolean) =>
      slowOut.filter((s, i) => s.kind === "closed-by-server" && i % 2 === Number(slowBody))
        .map((s) => s.ms);
    report.slowClients = {
      count: slowOut.length,
      ...kinds,
      slowHeadersClosedAfterP50s: +(percentile(closedAfter(false), 50) / 1000).toFixed(1),
      slowBodyClosedAfterP50s: +(percentile(closedAfter(true), 50) / 1000).toFixed(1),
      watchedSeconds: args.slowSeconds,
    };
    report.probeDuringAttack = summarise(probe);
    const all = [...floodOut, ...aliasOut, ...graphJsonOut, ...deepOut];
    report.attackErrorRate = summarise(all).errorRate;
    report.networkErrors = Object.fromEntries([...networkErrors].slice(0, 5));
    report.peakRssMB = +(Math.max(peakRss, rssOf(child.pid).hwm) / 1e6).toFixed(0);
    report.serverAlive = (await post(probeClient, url, "{ countNodes }")).status === 200;
  } finally {
    clearInterval(sampler);
    clearTimeout(deadline);
    probeClient.close();
    attackClient.close();
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    const killer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 10_000);
    const status = await child.status;
    clearTimeout(killer);
    report.serverExit = status.code;
    if (status.code !== 0 && status.signal !== "SIGTERM") report.serverLog = log().slice(-2000);
    await Deno.remove(dir, { recursive: true });
    report.totalSeconds = +((performance.now() - started) / 1000).toFixed(1);
  }
  console.log(JSON.stringify(report, null, args.json ? 0 : 2));
}

await main();
