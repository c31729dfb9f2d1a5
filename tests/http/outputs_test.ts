import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

const files = {
  "assets/zone.csv": "name,owner\nexample.org,team-a\nlab/internal zone,team-b\n",
  "output/zone_file.toml": `origin_resource = "zone"

[[output]]
resource_type = "zone_file"
name = "{{ origin_resource.name }}"
filename = "db.{{ origin_resource.owner }}.zone"
mimetype = "text/plain"
template = '''$ORIGIN {{ origin_resource.name }}.
@ IN SOA ns1 hostmaster 1 3600 600 86400 60
'''

[[output]]
resource_type = "zone_meta"
name = "{{ origin_resource.name }}-meta"
template = '''{ "owner": "{{ origin_resource.owner }}" }'''
`,
};

async function setup() {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(files),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  assertEquals(engine.status?.status, "ok", JSON.stringify(engine.status?.issues));
  const app = createApp(engine);
  return (path: string) => app.fetch(new Request(`http://test${path}`));
}

Deno.test("OU20/OU21 index lists downloadable outputs with hash, url and origin", async () => {
  const get = await setup();
  const res = await get("/api/outputs/index");
  assertEquals(res.status, 200);
  const index = await res.json();
  assertEquals(index.length, 2, "graph-only outputs (no filename/mimetype) are not listed");
  const entry = index.find((e: { name: string }) => e.name === "lab/internal zone");
  assertEquals(entry.download_url, "/api/outputs/zone_file/lab%2Finternal%20zone/db.team-b.zone");
  assertEquals(entry.origin, { type: "zone", name: "lab/internal zone" });
  assertEquals([entry.type, entry.filename, entry.mimetype], [
    "zone_file",
    "db.team-b.zone",
    "text/plain",
  ]);
  const body = await (await get(entry.download_url)).text();
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)),
  );
  assertEquals(
    entry.hash,
    "sha256-" + [...digest].map((b) => b.toString(16).padStart(2, "0")).join(""),
  );
});

Deno.test("OU22 index filters: origin_type, origin_name, type", async () => {
  const get = await setup();
  const names = async (q: string) =>
    (await (await get(`/api/outputs/index${q}`)).json()).map((e: { name: string }) => e.name);
  assertEquals(await names("?origin_name=example.org"), ["example.org"]);
  assertEquals(await names("?origin_type=host"), []);
  assertEquals(await names("?type=zone_file&origin_type=zone"), [
    "example.org",
    "lab/internal zone",
  ]);
});

Deno.test("OU30/OU33 download returns the body with the MIME type; /download as attachment", async () => {
  const get = await setup();
  const res = await get("/api/outputs/zone_file/example.org/db.team-a.zone");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/plain; charset=utf-8");
  assert((await res.text()).startsWith("$ORIGIN example.org.\n@ IN SOA"));
  const dl = await get("/api/outputs/zone_file/example.org/db.team-a.zone/download");
  assertEquals(dl.headers.get("content-disposition"), 'attachment; filename="db.team-a.zone"');
  await dl.body?.cancel();
});

Deno.test("OU31 404: wrong filename, unknown resource, graph-only output; hostile names", async () => {
  const get = await setup();
  for (
    const path of [
      "/api/outputs/zone_file/example.org/other.zone",
      "/api/outputs/zone_file/nope.org/db.team-a.zone",
      "/api/outputs/zone_meta/example.org-meta/x.json",
      "/api/outputs/zone_file/lab/internal%20zone/db.team-b.zone",
      "/api/outputs/zone_file/..%2F..%2Fetc/passwd",
      "/api/outputs/..%2Fzone_file/example.org/db.team-a.zone",
      "/api/outputs/zone_file/%ZZ/db.zone",
    ]
  ) {
    const res = await get(path);
    assert(res.status === 404 || res.status === 400, `${path} → ${res.status}`);
    assertEquals(res.headers.get("content-type"), "application/problem+json");
    await res.body?.cancel();
  }
});
