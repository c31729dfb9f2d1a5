// G2 (GraphiQL served by the program) and issue 18 point 3: the embedded browser files are the
// files of node_modules, byte for byte, and are served without reading node_modules; GraphiQL,
// the explorer and the API docs all work for a program that imports mod.ts with no file access.
import { assert, assertEquals } from "../../_assert.ts";
import { assetBytes, embeddedResponse, gzipBytes } from "../../../lib/api/assets/embedded.ts";
import { EMBEDDED_GRAPHIQL } from "../../../lib/api/assets/graphiql.ts";
import { EMBEDDED_SWAGGER_UI } from "../../../lib/api/assets/swagger_ui.ts";
import { GRAPHIQL_ASSETS } from "../../../lib/api/graphql/graphiql.ts";
import { EXPLORER_ASSETS } from "../../../lib/explorer/assets/mod.gen.ts";

const all = [...EMBEDDED_GRAPHIQL.values(), ...EMBEDDED_SWAGGER_UI.values()];
const modules = new URL("../../../node_modules/", import.meta.url);
const canRead = Deno.permissions.querySync({ name: "read", path: modules }).state === "granted";

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("G2 every GraphiQL asset of the page has an embedded copy", () => {
  for (const { path } of Object.values(GRAPHIQL_ASSETS)) {
    assert(EMBEDDED_GRAPHIQL.has(path), path);
  }
  assertEquals([...EMBEDDED_SWAGGER_UI.keys()].sort(), ["swagger-ui-bundle.js", "swagger-ui.css"]);
});

Deno.test("embedded assets decode to their recorded size and SHA-256", async () => {
  for (const asset of all) {
    const bytes = await assetBytes(asset);
    assertEquals(bytes.length, asset.size, asset.path);
    assertEquals(await sha256(bytes), asset.sha256, asset.path);
  }
});

Deno.test({
  name: "embedded assets match node_modules (run scripts/embed-assets.ts after an upgrade)",
  ignore: !canRead,
  async fn() {
    for (const asset of all) {
      const file = await Deno.readFile(new URL(asset.path, modules));
      assertEquals(
        await sha256(file),
        asset.sha256,
        `lib/api/assets is stale for ${asset.path}: deno run -A scripts/embed-assets.ts`,
      );
    }
  },
});

Deno.test("embedded answers: gzip when accepted, plain otherwise, 304 on a matching ETag", async () => {
  const asset = EMBEDDED_GRAPHIQL.get("react/umd/react.production.min.js")!;
  const gz = await embeddedResponse(
    asset,
    new Request("http://x/", { headers: { "accept-encoding": "gzip, deflate, br" } }),
  );
  assertEquals(gz.headers.get("content-encoding"), "gzip");
  assertEquals(new Uint8Array(await gz.arrayBuffer()), gzipBytes(asset));
  const plain = await embeddedResponse(
    asset,
    new Request("http://x/", { headers: { "accept-encoding": "identity, gzip;q=0" } }),
  );
  assertEquals(plain.headers.get("content-encoding"), null);
  assertEquals((await plain.arrayBuffer()).byteLength, asset.size);
  const etag = plain.headers.get("etag")!;
  const cached = await embeddedResponse(
    asset,
    new Request("http://x/", { headers: { "if-none-match": etag } }),
  );
  assertEquals(cached.status, 304);
});

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";

/**
 * Runs `program` in a child `deno run -` (the program comes from stdin; no permission at all, so
 * any read of node_modules or of any other file would fail) and returns its stdout.
 */
async function runWithoutPermissions(program: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--quiet", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(program));
  await writer.close();
  const out = await child.output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

// The child crawls each HTML page: the files its `src`/`href` name under `…/assets/`, then, for the
// explorer's ES modules, the files they import (statically or with `import()`), and prints one
// JSON line `{path, status, bytes}` per response.
const CRAWL = `
  import { createApp, createTemplateRenderer, defaultPhases, GraphEngine, MemoryWorkspace }
    from ${JSON.stringify(new URL("../../../mod.ts", import.meta.url).href)};
  import { uiAssets } from ${JSON.stringify(new URL("../../../ui.ts", import.meta.url).href)};
  const engine = new GraphEngine({ workspace: new MemoryWorkspace({}),
    createTemplates: createTemplateRenderer, phases: defaultPhases });
  const app = createApp(engine, { ui: uiAssets });
  const seen = new Set();
  async function crawl(path) {
    if (seen.has(path)) return;
    seen.add(path);
    const res = await app.fetch(new Request("http://x" + path));
    const body = await res.text();
    console.log(JSON.stringify({ path, status: res.status, bytes: body.length }));
    const html = (res.headers.get("content-type") ?? "").startsWith("text/html");
    const refs = html ? [...body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]) : [];
    if (path.startsWith("/explorer/assets/") && path.endsWith(".js")) {
      for (const m of body.matchAll(/(?:from\\s*|import\\s*\\(\\s*)"(\\.\\/[^"]+)"/g)) refs.push(m[1]);
    }
    for (const ref of refs) {
      const url = new URL(ref, "http://x" + path);
      if (url.origin === "http://x" && url.pathname.includes("/assets/")) await crawl(url.pathname);
    }
  }
  for (const page of ["/graphiql", "/explorer", "/api/docs"]) await crawl(page);
`;

Deno.test({
  name:
    "G2 createApp from mod.ts with ui.ts serves /graphiql, /explorer, /api/docs and all their assets " +
    "with no permission to read files",
  ignore: !canRun,
  async fn() {
    const text = await runWithoutPermissions(CRAWL);
    const lines = text.trim().split("\n").map((l) =>
      JSON.parse(l) as { path: string; status: number; bytes: number }
    );
    for (const l of lines) {
      assertEquals(l.status, 200, l.path);
      assert(l.bytes > 0, l.path);
    }
    const served = (prefix: string) =>
      lines.filter((l) => l.path.startsWith(prefix)).map((l) => l.path.slice(prefix.length))
        .sort();
    assertEquals(
      served("/graphiql/assets/").map((f) => `/graphiql/assets/${f}`),
      Object.keys(GRAPHIQL_ASSETS).sort(),
    );
    // Every explorer file but the page itself is reached from the page, cytoscape included.
    assertEquals(
      served("/explorer/assets/"),
      Object.keys(EXPLORER_ASSETS).filter((f) => f !== "index.html").sort(),
    );
    assertEquals(served("/api/docs/assets/"), [...EMBEDDED_SWAGGER_UI.keys(), "init.js"].sort());
    for (const page of ["/graphiql", "/explorer", "/api/docs"]) {
      assert(lines.some((l) => l.path === page), page);
    }
  },
});
