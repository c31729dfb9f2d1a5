import { assert, assertEquals } from "../_assert.ts";
import { setupApps } from "./_setup.ts";
import { APP_CSP } from "../../lib/apps/http.ts";
import { safeSegments } from "../../lib/apps/files.ts";

const DATA = {
  "module.toml": '[module]\nname = "My Data"\nversion = "1.0.0"\n',
  "assets/host.csv": "name\nweb-1\n",
  "app/index.html": "<html><script src='js/main.js'></script></html>",
  "app/js/main.js": "fetch('api/x')",
  "app/style.css": "body{}",
  "app/icon.svg": "<svg/>",
  "app/data.json": "{}",
  "app/blob.bin": "x",
  "app/proxy.toml": '[[route]]\npath = "/api/x"\ntarget = "http://127.0.0.1:9/secret-target"\n' +
    'inject_headers = { "Authorization" = "Bearer {{ env.TOKEN }}" }\n',
  "app/sub/proxy.toml": "never",
  "app/svgonly/index.svg": "<svg/>",
  "app/both/index.xml": "<x/>",
  "app/both/index.json": "{}",
  "app/none/readme.txt": "no entry",
};
const MODULES = {
  editor: { "module.toml": '[module]\nname = "Editor"\n', "app/index.js": "console.log(1)" },
  nested: { "data/module.toml": '[module]\nname = "Nested"\n', "data/app/index.html": "<p>n</p>" },
  plain: { "module.toml": '[module]\nname = "Plain"\n' },
};

Deno.test("AP2/R62 every module with app/ and the data directory are listed; no targets or headers", async () => {
  const { get } = await setupApps(DATA, MODULES);
  const res = await get("/api/apps");
  assertEquals(res.status, 200);
  const apps = await res.json();
  assertEquals(apps, [
    { id: "editor", name: "Editor", path: "/apps/editor/", proxies: [] },
    { id: "nested", name: "Nested", path: "/apps/nested/", proxies: [] },
    { id: "my-data", name: "My Data", path: "/apps/my-data/", proxies: [{ path: "/api/x" }] },
  ]);
  const text = JSON.stringify(apps);
  assert(!text.includes("secret-target") && !text.includes("Authorization"), text);
});

Deno.test("AP3 /apps/<id> redirects 308 to the trailing slash, query kept", async () => {
  const { get } = await setupApps(DATA, MODULES);
  const res = await get("/apps/editor?x=1");
  assertEquals(res.status, 308);
  assertEquals(res.headers.get("location"), "/apps/editor/?x=1");
});

Deno.test("AP4 entry files: index.html, index.xml, index.svg, index.json, index.js in that order", async () => {
  const { get } = await setupApps(DATA, MODULES);
  const cases: [string, string, string][] = [
    ["/apps/my-data/", "text/html; charset=utf-8", "<html>"],
    ["/apps/my-data/svgonly/", "image/svg+xml", "<svg/>"],
    ["/apps/my-data/both/", "application/xml", "<x/>"],
    ["/apps/editor/", "text/javascript; charset=utf-8", "console.log(1)"],
    ["/apps/nested/", "text/html; charset=utf-8", "<p>n</p>"],
  ];
  for (const [path, type, start] of cases) {
    const res = await get(path);
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("content-type"), type, path);
    assert((await res.text()).startsWith(start), path);
  }
  const none = await get("/apps/my-data/none/");
  assertEquals(none.status, 404);
  await none.body?.cancel();
  const dir = await get("/apps/my-data/svgonly");
  assertEquals(dir.status, 308);
  assertEquals(dir.headers.get("location"), "/apps/my-data/svgonly/");
});

Deno.test("AP5 content types, ETag with 304, no-cache, app CSP; no SPA fallback", async () => {
  const { get } = await setupApps(DATA, MODULES);
  const types: Record<string, string> = {
    "/apps/my-data/js/main.js": "text/javascript; charset=utf-8",
    "/apps/my-data/style.css": "text/css; charset=utf-8",
    "/apps/my-data/icon.svg": "image/svg+xml",
    "/apps/my-data/data.json": "application/json",
    "/apps/my-data/blob.bin": "application/octet-stream",
  };
  for (const [path, type] of Object.entries(types)) {
    const res = await get(path);
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("content-type"), type, path);
    assertEquals(res.headers.get("cache-control"), "no-cache", path);
    assertEquals(res.headers.get("content-security-policy"), APP_CSP, path);
    assertEquals(res.headers.get("x-content-type-options"), "nosniff", path);
    const etag = res.headers.get("etag")!;
    assert(/^"[0-9a-f]{32}"$/.test(etag), etag);
    await res.body?.cancel();
    const again = await get(path, { headers: { "if-none-match": etag } });
    assertEquals(again.status, 304, path);
    assertEquals(again.headers.get("etag"), etag);
  }
  for (const path of ["/apps/my-data/missing.html", "/apps/my-data/js/", "/apps/nope/"]) {
    const res = await get(path);
    assertEquals(res.status, 404, path);
    assertEquals(res.headers.get("content-type"), "application/problem+json");
    await res.body?.cancel();
  }
});

Deno.test("AP6 proxy.toml is never served, at any depth or spelling", async () => {
  const { get } = await setupApps(DATA, MODULES);
  for (
    const path of [
      "/apps/my-data/proxy.toml",
      "/apps/my-data/sub/proxy.toml",
      "/apps/my-data/PROXY.TOML",
      "/apps/my-data/%70roxy.toml",
      "/proxy.toml",
    ]
  ) {
    const res = await get(path);
    assertEquals(res.status, 404, path);
    assert(!(await res.text()).includes("never"), path);
  }
});

Deno.test("AP5 path traversal, encoded or not, answers 404", async () => {
  const { get } = await setupApps(DATA, MODULES);
  for (
    const path of [
      "/apps/my-data/%2e%2e/module.toml",
      "/apps/my-data/..%2fmodule.toml",
      "/apps/my-data/js/..%2f..%2fmodule.toml",
      "/apps/my-data/%2E%2E%2Fassets%2Fhost.csv",
      "/apps/my-data/js%5c..%5c..%5cmodule.toml",
      "/apps/my-data/%00",
      "/apps/my-data/%zz",
      "/apps/editor/../my-data/../../module.toml",
    ]
  ) {
    const res = await get(path);
    assertEquals(res.status, 404, path);
    assert(!(await res.text()).includes("[module]"), path);
  }
  assertEquals(safeSegments("/a/../b"), undefined);
  assertEquals(safeSegments("/a/b/"), ["a", "b"]);
});

Deno.test("AP2 the data directory's app is also mounted at /; relative files resolve there", async () => {
  const { get } = await setupApps(DATA, MODULES);
  const root = await get("/");
  assertEquals(root.status, 200);
  assert((await root.text()).startsWith("<html>"));
  const js = await get("/js/main.js");
  assertEquals(js.status, 200);
  assertEquals(await js.text(), "fetch('api/x')");
  const api = await get("/api/engine-info");
  assertEquals(api.status, 200, "API routes win over the root mount");
  await api.body?.cancel();
});

Deno.test("AP2 without a data directory app, / is a page linking every app, GraphiQL and the API", async () => {
  const { get } = await setupApps({ "assets/host.csv": "name\nweb-1\n" }, MODULES);
  const res = await get("/");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  for (const link of ['href="/apps/editor/"', 'href="/apps/nested/"', 'href="/graphiql"']) {
    assert(html.includes(link), link);
  }
  assert(!html.includes("/apps/plain/"), "a module without app/ serves no app");
  const unknown = await get("/nowhere");
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();
});
