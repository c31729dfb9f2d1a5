// HTTP hardening (issue 16 item 6, R90/R92/G1): security headers, sandboxed artifacts (stored XSS),
// CSRF-safe GraphQL content types, Host allow-list (DNS rebinding), 405/OPTIONS with Allow, and
// the reading deadline of request bodies.
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { API_CSP, GRAPHIQL_CSP, hostAllowed } from "../../lib/api/security.ts";
import { uiAssets } from "../../ui.ts";

const files = {
  "assets/zone.csv": "name\nexample.org\n",
  "output/page.toml": `origin_resource = "zone"

[[output]]
resource_type = "page"
name = "{{ origin_resource.name }}"
filename = "index.html"
mimetype = "text/html"
template = '''<script>fetch("/api/engine-info")</script>'''

[[output]]
resource_type = "note"
name = "{{ origin_resource.name }}"
filename = "note.txt"
mimetype = "text/plain"
template = '''plain'''
`,
};

async function setup(options: AppOptions = {}) {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(files),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { ui: uiAssets, ...options });
  return (path: string, init?: RequestInit, host = "localhost:7600") =>
    Promise.resolve(app.fetch(new Request(`http://${host}${path}`, init)));
}

Deno.test("security headers on API responses, errors and GraphiQL", async () => {
  const get = await setup();
  for (const path of ["/api/engine-info", "/api/nothing", "/graphql?query=%7BcountNodes%7D"]) {
    const res = await get(path);
    await res.body?.cancel();
    assertEquals(res.headers.get("x-content-type-options"), "nosniff", path);
    assertEquals(res.headers.get("referrer-policy"), "no-referrer", path);
    assertEquals(res.headers.get("x-frame-options"), "DENY", path);
    assertEquals(res.headers.get("content-security-policy"), API_CSP, path);
  }
  const page = await get("/graphiql");
  const html = await page.text();
  const csp = page.headers.get("content-security-policy") ?? "";
  assertEquals(csp, GRAPHIQL_CSP);
  assert(csp.includes("script-src 'self' 'sha256-"), csp);
  assert(csp.includes("frame-ancestors 'none'"), csp);
  assert(html.includes("<script>"), "the inline bootstrap script is allowed by its hash");
  const redirect = await get("/");
  assertEquals(redirect.headers.get("x-content-type-options"), "nosniff");
});

Deno.test("stored XSS: an HTML artifact is an attachment in a sandbox, text stays inline", async () => {
  const get = await setup();
  const html = await get("/api/outputs/page/example.org/index.html");
  assertEquals(html.status, 200);
  assert(html.headers.get("content-disposition")!.startsWith("attachment;"));
  assert(html.headers.get("content-security-policy")!.includes("sandbox"));
  assertEquals(html.headers.get("x-content-type-options"), "nosniff");
  await html.body?.cancel();
  const text = await get("/api/outputs/note/example.org/note.txt");
  assertEquals(text.headers.get("content-disposition"), 'inline; filename="note.txt"');
  assert(text.headers.get("content-security-policy")!.includes("sandbox"));
  assertEquals(await text.text(), "plain");
});

Deno.test("CSRF: GraphQL POSTs without a JSON content type are 415 problems (G1)", async () => {
  const get = await setup();
  const query = "query=%7BcountNodes%7D";
  const cases: [string | undefined, BodyInit][] = [
    ["application/x-www-form-urlencoded", query],
    ["text/plain", JSON.stringify({ query: "{ countNodes }" })],
    ["multipart/form-data; boundary=x", "--x\r\n\r\n--x--"],
    [undefined, new Blob([JSON.stringify({ query: "{ countNodes }" })])],
  ];
  for (const [type, body] of cases) {
    const headers = new Headers();
    if (type) headers.set("content-type", type);
    const res = await get("/graphql", { method: "POST", headers, body });
    assertEquals(res.status, 415, type);
    assertEquals(res.headers.get("content-type"), "application/problem+json");
    await res.body?.cancel();
  }
  const ok = await get("/graphql", {
    method: "POST",
    headers: { "content-type": "application/graphql-response+json" },
    body: JSON.stringify({ query: "{ countNodes }" }),
  });
  assertEquals(ok.status, 200);
  assertEquals(typeof (await ok.json()).data.countNodes, "number");
});

Deno.test("DNS rebinding: a Host outside allowedHosts is refused with a 403 problem", async () => {
  const get = await setup({ allowedHosts: ["localhost", "127.0.0.1:7600", "[::1]:7600"] });
  for (const host of ["localhost:7600", "localhost:1", "127.0.0.1:7600", "[::1]:7600"]) {
    const res = await get("/api/engine-info", {}, host);
    assertEquals(res.status, 200, host);
    await res.body?.cancel();
  }
  for (const host of ["evil.example:7600", "127.0.0.1:8000", "[::1]:1", "localhost.evil"]) {
    const res = await get("/api/engine-info", {}, host);
    assertEquals(res.status, 403, host);
    assertEquals((await res.json()).type, "urn:graphsvc:problem:forbidden");
  }
  const open = await setup();
  assertEquals((await open("/api/engine-info", {}, "anything.example")).status, 200);
  assert(hostAllowed("LOCALHOST:9", ["localhost"]));
});

Deno.test("R92 PUT /graphql is 405 with Allow; OPTIONS answers 204 with Allow on every route", async () => {
  const get = await setup();
  const put = await get("/graphql", { method: "PUT", body: "{}" });
  assertEquals(put.status, 405);
  assertEquals(put.headers.get("allow"), "GET, HEAD, OPTIONS, POST");
  await put.body?.cancel();
  for (const path of ["/graphql", "/graphiql", "/api/engine-info", "/api/outputs/index", "/"]) {
    const res = await get(path, { method: "OPTIONS" });
    assertEquals(res.status, 204, path);
    assert(res.headers.get("allow")!.includes("OPTIONS"), path);
  }
  const unknown = await get("/nowhere", { method: "OPTIONS" });
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("a request body slower than the reading deadline gets a 408 (slow clients)", async () => {
  const get = await setup({ bodyTimeoutMs: 50 });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"query":'));
    }, // never closes
  });
  const res = await get("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    // @ts-ignore: needed for stream bodies
    duplex: "half",
  });
  assertEquals(res.status, 408);
  assertEquals(res.headers.get("connection"), "close");
  await res.body?.cancel();
});
