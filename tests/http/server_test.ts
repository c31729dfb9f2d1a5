// Hardening of server.ts (issue 16 item 5, the Host check of item 6, issue 26): the per-client
// cap of requests in flight and the body deadline, against a real server on 127.0.0.1 port 0.
// Every wait is bounded; no assertion is about durations.
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type ConnectionLimits, defaultAllowedHosts, serve } from "../../server.ts";
import { spawnServe } from "../cli/_cli.ts";

async function startServer(limits: Partial<ConnectionLimits>, allowedHosts?: string[]) {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({ "assets/zone.csv": "name\na.org\n" }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const controller = new AbortController();
  let port = 0;
  let stopped: Promise<void> = Promise.resolve();
  const listening = new Promise<void>((resolve) => {
    const done = serve(engine, {
      port: 0,
      hostname: "127.0.0.1",
      edition: "ce",
      log: () => {},
      signal: controller.signal,
      allowedHosts,
      limits,
      onListen: (addr) => {
        port = addr.port;
        resolve();
      },
    });
    stopped = done;
  });
  await listening;
  await engine.waitFor(engine.requestRebuild());
  return {
    port,
    stop: async () => {
      controller.abort();
      await stopped;
    },
  };
}

/** Sends `text` on a new connection; resolves with what came back once the server closes it. */
async function exchange(port: number, text: string, boundMs = 10_000, until?: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(text));
  let received = "";
  let closedByServer = false;
  const buf = new Uint8Array(4096);
  const giveUp = setTimeout(() => conn.close(), boundMs);
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      received += new TextDecoder().decode(buf.subarray(0, n));
      if (until !== undefined && received.includes(until)) break;
    }
    closedByServer = until === undefined || !received.includes(until);
  } catch { /* closed by the bound */ }
  clearTimeout(giveUp);
  try {
    conn.close();
  } catch { /* closed */ }
  return { received, closedByServer };
}

// Header and idle time-outs and caps on open connections are the reverse proxy's since serve has
// no TCP front of its own: tests/http/haproxy_test.ts proves them with docs/deploy/haproxy.cfg.

Deno.test("requests in flight per client address are capped: the next one gets a 503", async () => {
  const server = await startServer({ maxConnectionsPerClient: 2, bodyTimeoutMs: 60_000 });
  const held: Deno.Conn[] = [];
  try {
    const host = `127.0.0.1:${server.port}`;
    // Two requests whose bodies never finish stay in flight.
    for (let i = 0; i < 2; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
      await conn.write(
        new TextEncoder().encode(
          `POST /graphql HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
            'content-length: 100\r\n\r\n{"query":',
        ),
      );
      held.push(conn);
    }
    let third = { received: "", closedByServer: false };
    for (let i = 0; i < 50 && !third.received.startsWith("HTTP/1.1 503"); i++) {
      third = await exchange(
        server.port,
        `GET /api/engine-info HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
    }
    assert(third.received.startsWith("HTTP/1.1 503"), third.received);
    assert(third.received.includes("too many requests in flight"), third.received);
    assert(/retry-after: 1/i.test(third.received), third.received);
    for (const c of held.splice(0)) c.close();
    // Slots are released when the requests end.
    let ok = "";
    for (let i = 0; i < 50 && !ok.startsWith("HTTP/1.1 200"); i++) {
      ok = (await exchange(
        server.port,
        `GET /api/engine-info HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      )).received;
    }
    assert(ok.startsWith("HTTP/1.1 200"), ok);
  } finally {
    for (const c of held) c.close();
    await server.stop();
  }
});

Deno.test("a slow request body is answered 408 with Connection: close", async () => {
  const server = await startServer({ bodyTimeoutMs: 200 });
  try {
    const host = `127.0.0.1:${server.port}`;
    // The answer comes without the body ever finishing; closing the half-sent connection is
    // the proxy's (haproxy_test.ts), Deno.serve waits for the rest of the body.
    const r = await exchange(
      server.port,
      `POST /graphql HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
        'content-length: 100\r\n\r\n{"query":',
      3_000,
      "\r\n\r\n{",
    );
    assert(r.received.startsWith("HTTP/1.1 408"), r.received);
    assert(/connection: close/i.test(r.received), r.received);
  } finally {
    await server.stop();
  }
});

Deno.test("DNS rebinding: the default allow-list of a loopback bind refuses other hosts", async () => {
  assertEquals(defaultAllowedHosts("127.0.0.1", 7600), [
    "127.0.0.1:7600",
    "localhost:7600",
    "[::1]:7600",
  ]);
  assertEquals(defaultAllowedHosts("0.0.0.0", 7600), undefined);
  assertEquals(defaultAllowedHosts("10.0.0.5", 80), ["10.0.0.5:80"]);
  const server = await startServer({});
  try {
    const ask = (host: string) =>
      exchange(
        server.port,
        `GET /api/engine-info HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
    const ok = await ask(`localhost:${server.port}`);
    assert(ok.received.startsWith("HTTP/1.1 200"), ok.received);
    const evil = await ask(`rebound.example:${server.port}`);
    assert(evil.received.startsWith("HTTP/1.1 403"), evil.received);
  } finally {
    await server.stop();
  }
});

Deno.test("CLI serve --allowed-host replaces the default allow-list", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/assets`);
  await Deno.writeTextFile(`${dir}/assets/h.csv`, "name\nx\n");
  const server = await spawnServe(dir, [
    "--allowed-host",
    "graph.example",
    "--allowed-host",
    "other.example:1",
  ]);
  try {
    const port = server.port;
    const ask = (host: string) =>
      exchange(port, `GET /api/engine-info HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    assert((await ask("graph.example:9")).received.startsWith("HTTP/1.1 200"));
    assert((await ask(`127.0.0.1:${port}`)).received.startsWith("HTTP/1.1 403"));
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
