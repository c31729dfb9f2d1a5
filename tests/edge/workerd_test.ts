// Issue 28 points 1, 2, 4 and 5, in a real edge runtime: the example worker (examples/edge),
// bundled with testdata/example by scripts/edge-bundle.ts, runs in Cloudflare's workerd
// (npm `workerd`) on loopback. Reads answer; a write becomes visible to the next read that asks
// for its generation; the bundle stays ≤ 1 MiB gzip; with the workspace in a Durable Object the
// write survives a restart of workerd, and in memory it does not; a snapshot written by
// `build --snapshot` is served by a worker that never builds.
import { assert, assertEquals } from "../_assert.ts";
import { bundleEdgeWorker } from "../../scripts/edge-bundle.ts";

const root = new URL("../../", import.meta.url);
const workerd = new URL("node_modules/.bin/workerd", root).pathname;

/** `n` distinct free ports (all held open while choosing, so none is chosen twice). */
function freePorts(n: number): number[] {
  const listeners = Array.from(
    { length: n },
    () => Deno.listen({ hostname: "127.0.0.1", port: 0 }),
  );
  const ports = listeners.map((l) => (l.addr as Deno.NetAddr).port);
  for (const l of listeners) l.close();
  return ports;
}

/** Starts workerd on `config` and waits until both sockets answer. */
async function start(config: string, ports: number[]): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(workerd, {
    args: ["serve", config],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const deadline = Date.now() + 20_000;
  for (const port of ports) {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        await res.body?.cancel();
        break;
      } catch {
        if (exited || Date.now() > deadline) {
          if (!exited) child.kill("SIGKILL");
          await status;
          const err = await new Response(child.stderr).text();
          throw new Error(`workerd did not start: ${err}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  return child;
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await child.stderr.cancel();
  await child.status;
}

async function cpuOfWeb2(port: number, minGeneration?: number): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(minGeneration ? { "graphsvc-min-generation": String(minGeneration) } : {}),
    },
    body: JSON.stringify({ query: '{ host(filter: {name: "web-2"}) { name cpu } }' }),
  });
  assertEquals(res.status, 200);
  const body = await res.json();
  return body.data.host[0].cpu;
}

/**
 * The same document executed `times` times (distinct variable values defeat the answer cache):
 * past `COMPILE_AFTER` runs the server would compile it, which workerd refuses (no eval); the
 * answers must stay right.
 */
async function hotQueryAnswers(port: number, times: number): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (let i = 0; i < times; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "query($n: String!) { host(filter: {name: {eq: $n}}) { cpu } }",
        variables: { n: "web-2", request: i },
      }),
    });
    assertEquals(res.status, 200);
    answers.push(JSON.stringify(await res.json()));
  }
  return answers;
}

Deno.test({
  name: "the edge worker runs in workerd: reads, a write made visible, ≤ 1 MiB gzip, durable",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "graphsvc-edge-" });
    try {
      // A snapshot built by the CLI, served by a third worker without building.
      const deno = new URL("node_modules/.bin/deno", root).pathname;
      const built = await new Deno.Command(deno, {
        args: [
          "run",
          "-A",
          new URL("cli.ts", root).pathname,
          "--data-dir",
          new URL("testdata/example", root).pathname,
          "build",
          "--snapshot",
          `${dir}/graph.snapshot`,
        ],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert(built.success, new TextDecoder().decode(built.stderr));
      const sizes = await bundleEdgeWorker(
        new URL("testdata/example", root).pathname,
        dir,
        await Deno.readFile(`${dir}/graph.snapshot`),
      );
      assert(sizes.gzipBytes <= 1024 * 1024, `bundle is ${sizes.gzipBytes} bytes gzip`);
      const [memory, durable, snapshot] = freePorts(3);
      await Deno.mkdir(`${dir}/storage`);
      const template = await Deno.readTextFile(`${dir}/workerd.capnp.template`);
      await Deno.writeTextFile(
        `${dir}/workerd.capnp`,
        template.replaceAll("{{PORT}}", String(memory)).replaceAll("{{PORT2}}", String(durable))
          .replaceAll("{{PORT3}}", String(snapshot))
          .replaceAll("{{STORAGE}}", `${dir}/storage`),
      );
      let child = await start(`${dir}/workerd.capnp`, [memory, durable, snapshot]);
      try {
        // The snapshot worker answers like the built graph, and refuses writes.
        assertEquals(await cpuOfWeb2(snapshot), 4);
        assertEquals(
          await hotQueryAnswers(snapshot, 6),
          Array(6).fill(JSON.stringify({ data: { host: [{ cpu: 4 }] } })),
        );
        const refused = await fetch(`http://127.0.0.1:${snapshot}/api/mutations/host/web-2`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "web-2", cpu: "32" }),
        });
        assertEquals(refused.status, 403);
        await refused.body?.cancel();
        for (const port of [memory, durable]) {
          // GraphQL and REST reads, the OpenAPI document; no UI in this bundle.
          assertEquals(await cpuOfWeb2(port), 4);
          const rest = await fetch(`http://127.0.0.1:${port}/api/resources/host/web-1`);
          assertEquals(rest.status, 200);
          assertEquals((await rest.json()).name, "web-1");
          const doc = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
          assertEquals(doc.status, 200);
          await doc.body?.cancel();
          const ui = await fetch(`http://127.0.0.1:${port}/graphiql`);
          assertEquals(ui.status, 404);
          await ui.body?.cancel();
          // A write, then a read asking for its generation.
          const put = await fetch(`http://127.0.0.1:${port}/api/mutations/host/web-2`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ name: "web-2", cpu: "32" }),
          });
          assertEquals(put.status, 200, await put.clone().text());
          const generation = Number(put.headers.get("graphsvc-generation"));
          assertEquals(generation, 2);
          await put.body?.cancel();
          assertEquals(await cpuOfWeb2(port, generation), 32);
        }
      } finally {
        await stop(child);
      }
      // A new isolate: the Durable Object's storage kept the write, the memory one did not.
      child = await start(`${dir}/workerd.capnp`, [memory, durable, snapshot]);
      try {
        assertEquals(await cpuOfWeb2(durable), 32);
        assertEquals(await cpuOfWeb2(memory), 4);
      } finally {
        await stop(child);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
