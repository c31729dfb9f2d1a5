// Issue 18 point 6: the OpenAPI document describes every route the app registers, and nothing
// else; it is served at /api/openapi.json and rendered offline at /api/docs. Real answers of the
// described endpoints match their documented schemas (R1, R20, R30, R60, R61, OU20).
import { Value } from "typebox/value";
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";
import { ROUTES, UNDESCRIBED_ROUTES } from "../../lib/api/openapi/routes.ts";
import { openApiPath } from "../../lib/api/openapi/document.ts";
import { registeredRoutes } from "../../lib/api/openapi/registered.ts";
import { VaultServer } from "../../lib/vault/server.ts";
import { MemoryVaultStore } from "../../lib/vault/state.ts";
import { uiAssets } from "../../ui.ts";

async function makeApp() {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({
      "assets/service.csv": "name,database\napi,orders\n",
      "assets/database.csv": "name,engine\norders,postgres\n",
    }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  // Every optional feature on, so every route is registered.
  const app = createApp(engine, {
    ui: uiAssets,
    edition: "ee",
    version: "9.9.9",
    writes: true,
    apiToken: "t",
    mcp: { write: true },
    vault: await VaultServer.open(new MemoryVaultStore()),
  });
  return { engine, app };
}

const key = (method: string, route: string) => `${method} ${route}`;

Deno.test("every registered route is described or listed as undescribed, and no entry is stale", async () => {
  const { app } = await makeApp();
  const registered = new Set(registeredRoutes(app).map((r) => key(r.method, r.route)));
  const described = new Set(ROUTES.map((r) => key(r.method, r.route)));
  const undescribed = new Set(UNDESCRIBED_ROUTES.map((r) => key(r.method, r.route)));
  const missing = [...registered].filter((k) => !described.has(k) && !undescribed.has(k));
  assertEquals(missing, [], "routes missing from lib/api/openapi/routes.ts");
  const stale = [...described, ...undescribed].filter((k) => !registered.has(k));
  assertEquals(stale, [], "entries of lib/api/openapi/routes.ts with no registered route");
  const both = [...described].filter((k) => undescribed.has(k));
  assertEquals(both, [], "described and listed as undescribed");
});

Deno.test("GET /api/openapi.json: an OpenAPI 3.1 document with every described operation", async () => {
  const { app } = await makeApp();
  const res = await app.fetch(new Request("http://x/api/openapi.json"));
  assertEquals(res.status, 200);
  assert(res.headers.get("content-type")?.startsWith("application/json"));
  const doc = await res.json();
  assertEquals(doc.openapi, "3.1.0");
  assertEquals(doc.info.version, "9.9.9");
  const ids = new Set<string>();
  for (const route of ROUTES) {
    const path = route.path ?? openApiPath(route.route);
    const op = doc.paths[path]?.[route.method.toLowerCase()];
    assert(op, `${route.method} ${path} is not in the document`);
    assert(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    assert(Object.keys(op.responses).length > 0, `${route.method} ${path} has no response`);
    // Every {param} of the path is declared as a path parameter.
    for (const m of path.matchAll(/\{(\w+)\}/g)) {
      assert(
        op.parameters.some((p: { in: string; name: string }) => p.in === "path" && p.name === m[1]),
        `${path}: path parameter ${m[1]} is not declared`,
      );
    }
  }
  assertEquals(doc.paths["/api/mutations/{asset}/{name}"].put.security, [{}, { apiToken: [] }]);
  assertEquals(doc.paths["/api/webhook/reload"].post.security, [{ apiToken: [] }]);
});

Deno.test("no documented GET path without path parameters answers 404 (a missing query is a 400)", async () => {
  const { app } = await makeApp();
  const doc = await (await app.fetch(new Request("http://x/api/openapi.json"))).json();
  const notFound: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    if (!ops.get || path.includes("{")) continue;
    const res = await app.fetch(new Request(`http://x${path}`, { headers: { accept: "*/*" } }));
    await res.body?.cancel();
    if (res.status === 404) notFound.push(path);
  }
  assertEquals(notFound, []);
  const res = await app.fetch(new Request("http://x/api/neighbourhood?type=service"));
  assertEquals(res.status, 400);
  assert((await res.json()).detail.includes("'type' and 'name' are required"));
});

Deno.test("GET /api/docs renders the document with the embedded Swagger UI, no other origin", async () => {
  const { app } = await makeApp();
  const page = await app.fetch(new Request("http://x/api/docs"));
  assertEquals(page.status, 200);
  const csp = page.headers.get("content-security-policy") ?? "";
  assert(csp.includes("script-src 'self'") && !csp.includes("unsafe-eval"), csp);
  const html = await page.text();
  assert(!/https?:\/\//.test(html), "the page loads nothing from another origin");
  const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assertEquals(urls.length, 3, html);
  for (const url of urls) {
    const res = await app.fetch(new Request(`http://x${url}`));
    assertEquals(res.status, 200, url);
    const body = await res.text();
    assert(body.length > 100, url);
    if (url.endsWith("init.js")) assert(body.includes("/api/openapi.json"));
  }
  const missing = await app.fetch(new Request("http://x/api/docs/assets/index.html"));
  assertEquals(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("answers of described endpoints match their documented schemas", async () => {
  const { app, engine } = await makeApp();
  await engine.rebuild();
  const checked: string[] = [];
  for (const route of ROUTES) {
    if (route.method !== "GET" || route.route.includes(":") || route.route.includes("*")) continue;
    const schema = route.responses[200]?.schema;
    if (!schema || route.parameters?.some((p) => p.required)) continue;
    const res = await app.fetch(new Request(`http://x${route.route}`));
    assertEquals(res.status, 200, route.route);
    const body = await res.json();
    const errors = [...Value.Errors(schema, body)].map((e) => `${e.instancePath} ${e.message}`);
    assertEquals(errors, [], `${route.route}: ${JSON.stringify(body).slice(0, 300)}`);
    checked.push(route.route);
  }
  for (const path of ["/api/features", "/api/engine-info", "/api/module-params", "/healthz"]) {
    assert(checked.includes(path), `${path} was not checked`);
  }
});

Deno.test("R13/R21 JSON bodies are checked against their documented schemas (TypeBox)", async () => {
  const { app, engine } = await makeApp();
  await engine.rebuild();
  const send = (method: string, path: string, body: unknown) =>
    app.fetch(
      new Request(`http://localhost${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  const cases: [string, string, unknown, string, string | undefined][] = [
    ["POST", "/api/mutations/service", [], "the body must be a JSON object", undefined],
    ["POST", "/api/mutations/service", { name: "x", db: { a: 1 } }, "field 'db' must be", "db"],
    ["POST", "/api/mutations/service", { name: "x", t: [{}] }, "field 't' must be", "t"],
    ["POST", "/api/module-params", "x", "the body must be a JSON object", undefined],
    ["PUT", "/api/module-params", { stage: ["DEV"] }, "field 'stage' must be", "stage"],
  ];
  for (const [method, path, body, detail, field] of cases) {
    const res = await send(method, path, body);
    assertEquals(res.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
    assertEquals(res.headers.get("content-type"), "application/problem+json");
    const doc = await res.json();
    assert(doc.detail.startsWith(detail), doc.detail);
    assertEquals(doc.field, field);
  }
  const ok = await send("POST", "/api/mutations/service", { name: "web", tags: ["a", 1, null] });
  assertEquals(ok.status, 201, await ok.clone().text());
  await ok.body?.cancel();
});

Deno.test("read-your-writes: every GET that honours min_generation documents Graphsvc-Min-Generation, and only those", async () => {
  const { app, engine } = await makeApp();
  await engine.rebuild();
  const values: Record<string, string> = { file: "service.csv", type: "service", name: "api" };
  const honours: string[] = [];
  for (const route of ROUTES) {
    if (route.method !== "GET") continue;
    const path = (route.path ?? openApiPath(route.route)).replace(
      /\{(\w+)\}/g,
      (_, p: string) => values[p] ?? "x",
    );
    // An invalid value is refused by the consistency middleware before any handler runs.
    const res = await app.fetch(new Request(`http://localhost${path}?min_generation=no`));
    const text = res.status === 400 ? await res.text() : (await res.body?.cancel(), "");
    const honoured = text.includes("Graphsvc-Min-Generation must be");
    if (honoured) honours.push(path);
    const documented = route.parameters?.some((p) => p.name === "Graphsvc-Min-Generation") ??
      false;
    assertEquals(documented, honoured, `GET ${path}: documented ${documented}`);
  }
  for (const path of ["/api/resources", "/api/neighbourhood", "/api/search"]) {
    assert(honours.includes(path), `${path} was not checked`);
  }
});
