// Request logs (issue 18 item 5): one `info` line per request with method, path, status and
// duration — never the query string, headers or bodies (they may carry tokens).
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";

async function setup(options: AppOptions = {}) {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({ "assets/service.csv": "name,port\napi,8080\n" }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const lines: [string, string][] = [];
  const app = createApp(engine, { log: (level, text) => lines.push([level, text]), ...options });
  const fetch = async (url: string, init?: RequestInit) => {
    const res = await app.fetch(new Request(url, init));
    await res.body?.cancel();
    return res;
  };
  return { lines, fetch };
}

Deno.test("one info line per request: method, path, status, duration", async () => {
  const { lines, fetch } = await setup();
  await fetch("http://test/healthz");
  await fetch("http://test/api/assets/nope.csv");
  assertEquals(lines.length, 2);
  assertEquals(lines.map(([level]) => level), ["info", "info"]);
  assertMatch(lines[0][1], /^GET \/healthz 200 \d+(\.\d+)?ms$/);
  assertMatch(lines[1][1], /^GET \/api\/assets\/nope\.csv 404 \d+(\.\d+)?ms$/);
});

Deno.test("no query string, headers or body in the log line", async () => {
  const { lines, fetch } = await setup();
  await fetch("http://test/graphql?token=s3cret-query", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-token": "s3cret-header",
      authorization: "Bearer s3cret-auth",
    },
    body: JSON.stringify({ query: "{ countNodes }", variables: { password: "s3cret-body" } }),
  });
  assertEquals(lines.length, 1);
  assertMatch(lines[0][1], /^POST \/graphql 200 /);
  assert(!lines[0][1].includes("s3cret"), lines[0][1]);
  assert(!lines[0][1].includes("?"), lines[0][1]);
});

Deno.test("requests refused by the security middleware are logged with their status", async () => {
  const { lines, fetch } = await setup({ allowedHosts: ["localhost"] });
  await fetch("http://evil.example/healthz");
  await fetch("http://localhost/healthz", { method: "DELETE" });
  assertMatch(lines[0][1], /^GET \/healthz 403 /);
  assertMatch(lines[1][1], /^DELETE \/healthz 405 /);
});

Deno.test("control characters in the path cannot forge log lines", async () => {
  const { lines, fetch } = await setup();
  await fetch("http://test/api/assets/a%0AINFO%20forged.csv");
  assertEquals(lines.length, 1);
  assert(!lines[0][1].includes("\n"), lines[0][1]);
});

Deno.test("without a log option nothing is logged and requests still work", async () => {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({}),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const res = await createApp(engine).fetch(new Request("http://test/healthz"));
  assertEquals(res.status, 200);
  await res.body?.cancel();
});
