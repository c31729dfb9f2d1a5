import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { createApp } from "../../lib/api/app.ts";
import { parseProxyToml } from "../../lib/apps/proxy_config.ts";

const CORPUS = new URL("../../../shared/corpus/public_dns", import.meta.url).pathname;

Deno.test("AP10 the corpus public_dns proxy.toml parses; R62 lists its routes with ${env} expanded", async () => {
  const text = await Deno.readTextFile(`${CORPUS}/data/app/proxy.toml`);
  const routes = parseProxyToml(text, "public_dns/data/app/proxy.toml");
  assertEquals(routes.map((r) => [r.path, r.forwardHeaders, r.injectHeaders.length]), [
    ["/api/cloudflare/account/${env.CLOUDFLARE_ACCOUNT_ID}", [], 0],
    ["/api/cloudflare", ["content-type", "accept"], 1],
  ]);
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({}),
    modules: [{ id: "public-dns", workspace: new DenoFsWorkspace(CORPUS) }],
    createTemplates: createTemplateRenderer,
  });
  const app = createApp(engine, {
    apps: { env: (n) => n === "CLOUDFLARE_ACCOUNT_ID" ? "abc123" : undefined },
  });
  const res = await app.fetch(new Request("http://test/api/apps"));
  assertEquals(await res.json(), [{
    id: "public-dns",
    name: "public-dns",
    path: "/apps/public-dns/",
    proxies: [{ path: "/api/cloudflare/account/abc123" }, { path: "/api/cloudflare" }],
  }]);
});
