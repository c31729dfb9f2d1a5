// G2 (GraphiQL served by the program) and issue 18 point 3: the embedded browser files are the
// files of node_modules, byte for byte, and are served without reading node_modules.
import { assert, assertEquals } from "../../_assert.ts";
import { assetBytes, embeddedResponse, gzipBytes } from "../../../lib/api/assets/embedded.ts";
import { EMBEDDED_GRAPHIQL } from "../../../lib/api/assets/graphiql.ts";
import { EMBEDDED_SWAGGER_UI } from "../../../lib/api/assets/swagger_ui.ts";
import { GRAPHIQL_ASSETS } from "../../../lib/api/graphql/graphiql.ts";

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

Deno.test({
  name: "G2 createApp from mod.ts serves /graphiql and its assets with no permission to read files",
  ignore: !canRun,
  async fn() {
    const program = `
      import { createApp, createTemplateRenderer, defaultPhases, GraphEngine, MemoryWorkspace }
        from ${JSON.stringify(new URL("../../../mod.ts", import.meta.url).href)};
      const engine = new GraphEngine({ workspace: new MemoryWorkspace({}),
        createTemplates: createTemplateRenderer, phases: defaultPhases });
      const app = createApp(engine);
      const page = await (await app.fetch(new Request("http://x/graphiql"))).text();
      for (const m of page.matchAll(/(?:src|href)="(\\/graphiql\\/assets\\/[^"]+)"/g)) {
        const res = await app.fetch(new Request("http://x" + m[1]));
        console.log(res.status, m[1], (await res.arrayBuffer()).byteLength);
      }`;
    // `deno run -` reads the program from stdin and grants no permission at all.
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
    const text = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    const lines = text.trim().split("\n");
    assertEquals(lines.length, 4, text);
    for (const line of lines) assert(/^200 \/graphiql\/assets\/\S+ \d{4,}$/.test(line), line);
  },
});
