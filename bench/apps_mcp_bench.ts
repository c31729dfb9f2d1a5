// Apps and MCP benchmark (issue 14):
//  1. proxy overhead: requests/s and latency of a proxy route against calling the same local
//     upstream directly, in the same run (both over HTTP on 127.0.0.1);
//  2. MCP tool-call latency on the 100k-resource synthetic graph (bench/generate.ts), through the
//     SDK client over Streamable HTTP with its fetch pointed at the app (no sockets).
//
//   deno run -A bench/apps_mcp_bench.ts [resources=100000]
//
// Bounded: a fixed number of requests per measurement, local addresses only.
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { GraphEngine } from "../lib/engine.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { createApp } from "../lib/api/app.ts";
import { generateWorkspace } from "./generate.ts";

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

async function latency(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { accept: "application/json" } });
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

async function throughput(url: string, total: number, concurrency: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < total) {
      const res = await fetch(url);
      await res.arrayBuffer();
    }
  }));
  return total / ((performance.now() - t0) / 1000);
}

const BODY = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i })) });

/** Child process modes: the upstream, or the app with a proxy route to it. */
async function serveChild(mode: string, upstreamBase?: string): Promise<void> {
  let handler: (req: Request) => Response | Promise<Response>;
  if (mode === "--upstream") {
    handler = () => new Response(BODY, { headers: { "content-type": "application/json" } });
  } else {
    const engine = new GraphEngine({
      workspace: new MemoryWorkspace({
        "app/index.html": "<p>bench</p>",
        "app/proxy.toml": `[[route]]\npath = "/api/up"\ntarget = "${upstreamBase}/v1"\n` +
          `forward_headers = ["Accept"]\n` +
          `inject_headers = { "Authorization" = "Bearer {{ env.BENCH_TOKEN }}" }\n`,
      }),
      createTemplates: createTemplateRenderer,
    });
    await engine.rebuild();
    handler = createApp(engine, { apps: { env: () => "bench-secret" } }).fetch;
  }
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  console.log(server.addr.port);
  // Stops when the parent closes stdin.
  for await (const _ of Deno.stdin.readable) { /* wait */ }
  await server.shutdown();
}

async function spawn(args: string[]): Promise<{ port: number; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("child exited");
    text += value;
  }
  return {
    port: Number(text.trim()),
    stop: async () => {
      await child.stdin.close();
      await reader.cancel();
      await child.status;
    },
  };
}

async function proxyOverhead(): Promise<void> {
  // Upstream and app each in their own process, as in production (own event loops).
  const upstream = await spawn(["--upstream"]);
  const base = `http://127.0.0.1:${upstream.port}`;
  const app = await spawn(["--app", base]);
  const direct = `${base}/v1/items`;
  const proxied = `http://127.0.0.1:${app.port}/apps/data/api/up/items`;
  await latency(direct, 200); // warm-up
  await latency(proxied, 200);
  const d = await latency(direct, 2000);
  const p = await latency(proxied, 2000);
  const dRps = await throughput(direct, 5000, 16);
  const pRps = await throughput(proxied, 5000, 16);
  console.log("| path | median ms | p90 ms | req/s (16 concurrent) |");
  console.log("| --- | --- | --- | --- |");
  console.log(
    `| upstream directly | ${pct(d, 0.5).toFixed(3)} | ${pct(d, 0.9).toFixed(3)} | ${
      dRps.toFixed(0)
    } |`,
  );
  console.log(
    `| through the proxy route | ${pct(p, 0.5).toFixed(3)} | ${pct(p, 0.9).toFixed(3)} | ${
      pRps.toFixed(0)
    } |`,
  );
  console.log(
    `\nadded latency (median): ${(pct(p, 0.5) - pct(d, 0.5)).toFixed(3)} ms; ` +
      `throughput ratio: ${(pRps / dRps).toFixed(2)}\n`,
  );
  await app.stop();
  await upstream.stop();
}

async function mcpLatency(resources: number): Promise<void> {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(generateWorkspace(resources, 10)),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const t0 = performance.now();
  await engine.rebuild();
  const g = engine.current.graph;
  console.log(
    `graph: ${g.resourceCount} resources, ${g.relationCount} relations ` +
      `(built in ${(performance.now() - t0).toFixed(0)} ms)\n`,
  );
  const app = createApp(engine);
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://bench/mcp"), {
      fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
    }),
  );
  const calls: [string, Record<string, unknown>, number][] = [
    ["listResourceTypes", {}, 21],
    ["getResource", { type: "t3", name: "t3-42" }, 51],
    ["listResources", { type: "t5", filter: { env: "prod" }, limit: 50 }, 21],
    ["getNeighbors", { type: "t3", name: "t3-42" }, 51],
    ["findPath", { from_type: "t0", from_name: "t0-1", to_type: "t4", to_name: "t4-1" }, 21],
    ["localSearch", { type: "t3", name: "t3-42" }, 21],
    ["semanticSearch", { query: "t7-999" }, 5],
    ["globalSearch", {}, 5],
    ["globalSearch", { query: "team-3" }, 3],
  ];
  console.log("| tool | arguments | first call ms | median ms | p90 ms |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name, args, runs] of calls) {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const res = await client.callTool({ name, arguments: args });
      samples.push(performance.now() - t);
      if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.content)}`);
    }
    console.log(
      `| ${name} | \`${JSON.stringify(args)}\` | ${samples[0].toFixed(1)} | ${
        pct(samples, 0.5).toFixed(2)
      } | ${pct(samples, 0.9).toFixed(2)} |`,
    );
  }
  await client.close();
}

if (Deno.args[0]?.startsWith("--")) {
  await serveChild(Deno.args[0], Deno.args[1]);
  Deno.exit(0);
}
const resources = Number(Deno.args[0] ?? 100_000);
console.log("### proxy overhead (127.0.0.1, 2000 sequential + 5000 concurrent requests)\n");
await proxyOverhead();
console.log(`### MCP tool-call latency (${resources.toLocaleString("en-US")} resources)\n`);
await mcpLatency(resources);
