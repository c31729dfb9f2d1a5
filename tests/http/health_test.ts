// Operational probes: `/healthz` (liveness) and `/readyz` (readiness once a first build is
// published), both behind the same security middleware as every other route (issue 18 item 5).
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";

function setup(files: Record<string, string>, options: AppOptions = {}) {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(files),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const app = createApp(engine, { edition: "ce", version: "9.9.9", ...options });
  const get = (path: string, init?: RequestInit, host = "test") =>
    Promise.resolve(app.fetch(new Request(`http://${host}${path}`, init)));
  return { engine, get };
}

const GOOD = { "assets/service.csv": "name,port\napi,8080\n" };

Deno.test("/healthz answers 200 {status: ok} before and after the first build", async () => {
  const { engine, get } = setup(GOOD);
  const before = await get("/healthz");
  assertEquals(before.status, 200);
  assertEquals(await before.json(), { status: "ok" });
  await engine.rebuild();
  assertEquals(await (await get("/healthz")).json(), { status: "ok" });
});

Deno.test("/readyz: 503 problem before the first published build, then 200 with the generation", async () => {
  const { engine, get } = setup(GOOD);
  const before = await get("/readyz");
  assertEquals(before.status, 503);
  assertEquals(before.headers.get("content-type"), "application/problem+json");
  const problem = await before.json();
  assertEquals([problem.type, problem.status], ["urn:graphsvc:problem:service-unavailable", 503]);
  await engine.rebuild();
  const after = await get("/readyz");
  assertEquals(after.status, 200);
  assertEquals(await after.json(), { status: "ready", generation: 1 });
});

Deno.test("/readyz stays 503 while the only build attempt failed (nothing published)", async () => {
  const { engine, get } = setup({ "assets/service.csv": "name,port\napi,8080,extra\n" });
  await engine.rebuild();
  assertEquals(engine.status?.status, "failed");
  const res = await get("/readyz");
  assertEquals(res.status, 503);
  await res.body?.cancel();
});

Deno.test("probes pass the Host allow-list and security headers like other routes", async () => {
  const { get } = setup(GOOD, { allowedHosts: ["localhost"] });
  const ok = await get("/healthz", undefined, "localhost:7600");
  assertEquals(ok.status, 200);
  assertEquals(ok.headers.get("x-content-type-options"), "nosniff");
  await ok.body?.cancel();
  for (const path of ["/healthz", "/readyz"]) {
    const refused = await get(path, undefined, "evil.example");
    assertEquals(refused.status, 403, path);
    await refused.body?.cancel();
  }
  const post = await get("/healthz", { method: "POST" }, "localhost");
  assertEquals(post.status, 405);
  assert(post.headers.get("allow")?.includes("GET"));
  await post.body?.cancel();
});
