// The explorer's routes and REST reads (issue 17): `/explorer`, `/` as the explorer when no app
// is mounted (AP2), `/api/resources…` and `/api/neighbourhood`.
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";
import { uiAssets } from "../../ui.ts";

const FILES = {
  "assets/host.csv": "name,os,cpu\nweb-1,ubuntu,4\nweb-2,rhel,16\na/b,debian,2\n",
  "assets/app.csv": "name,host\nshop,web-1\n",
  "compliance/c.toml": `audit_id = "A-1"
[[control]]
id = "C-1"
name = "Ubuntu hosts"
[[control.target]]
origin_resource_types = ["host"]
description = "on ubuntu"
match_on = [{ property = "os", value = "ubuntu" }]
[control.target.resource.properties]
checked = true
`,
  "output/o.toml": `origin_resource = "host"
[[output]]
resource_type = "host_report"
name = "{{ origin_resource.name }}-report"
filename = "{{ origin_resource.name }}.txt"
mimetype = "text/plain"
template = "{{ origin_resource.name }}"
`,
};

async function setup(files: Record<string, string> = FILES) {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(files),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { ui: uiAssets, features: ["admin_assets"] });
  return (path: string, init?: RequestInit) => app.fetch(new Request(`http://test${path}`, init));
}

Deno.test("AP2 / and /explorer serve the explorer page; its files come from the embedded modules", async () => {
  const get = await setup();
  for (const path of ["/", "/explorer", "/explorer/"]) {
    const res = await get(path);
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    assert(csp.includes("script-src 'self'") && !csp.includes("http"), csp);
    const html = await res.text();
    assert(html.includes('src="/explorer/assets/app.js"') && html.includes('href="/graphiql"'));
  }
  for (const file of ["app.js", "app.css", "cytoscape.js", "graph.js"]) {
    const res = await get(`/explorer/assets/${file}`);
    assertEquals(res.status, 200, file);
    assert((await res.text()).length > 100);
  }
  for (const file of ["index.html", "nothing.js", "..%2Fhttp.ts"]) {
    const res = await get(`/explorer/assets/${file}`);
    assertEquals(res.status, 404, file);
    await res.body?.cancel();
  }
});

Deno.test("GET /api/resources: types with counts and editability, relation labels, totals", async () => {
  const get = await setup();
  const body = await (await get("/api/resources")).json();
  assertEquals(body.generation, 1);
  const host = body.types.find((t: { type: string }) => t.type === "host");
  assertEquals(host, { type: "host", count: 3, editable: true });
  assertEquals(
    body.types.find((t: { type: string }) => t.type === "host_report").editable,
    false,
  );
  assertEquals(body.relation_types, [{ type: "DESCRIBED_BY", count: 3 }, {
    type: "host",
    count: 1,
  }]);
  assertEquals(body.artifacts, 3);
});

Deno.test("GET /api/resources/{type}: sorted (numeric text by value), filtered pages; unknown type is a 404", async () => {
  const get = await setup();
  const page = await (await get("/api/resources/host?sort=cpu&desc=1&limit=2")).json();
  assertEquals(page.columns.slice(0, 3), ["name", "os", "cpu"]);
  assertEquals(page.rows.map((r: { name: string }) => r.name), ["web-2", "web-1"]);
  assertEquals(page.total, 3);
  const filtered = await (await get("/api/resources/host?f.os=UNTU")).json();
  assertEquals(filtered.rows.map((r: { name: string }) => r.name), ["web-1"]);
  const missing = await get("/api/resources/nothing");
  assertEquals(missing.status, 404);
  await missing.body?.cancel();
  const bad = await get("/api/resources/host?limit=5000");
  assertEquals(bad.status, 400);
  await bad.body?.cancel();
});

Deno.test("C41 GET /api/resources/{type}/{name}: relations, artifacts, controls, edit target", async () => {
  const get = await setup();
  const web = await (await get("/api/resources/host/web-1")).json();
  assertEquals(web.properties.checked, true);
  assertEquals(web.incoming, [{ label: "host", type: "app", name: "shop", properties: {} }]);
  assertEquals(web.artifacts.map((a: { filename: string }) => a.filename), ["web-1.txt"]);
  assertEquals(web.controls.length, 1);
  assertEquals(web.controls[0].entry.control_id, "C-1");
  assertEquals(web.controls[0].on, "resource");
  assertEquals(web.sources, ["assets/host.csv"]);
  assertEquals(web.editable, { asset: "host", columns: ["name", "os", "cpu"] });
  const slash = await get("/api/resources/host/a%2Fb");
  assertEquals((await slash.json()).name, "a/b", "a %2F stays inside the name");
  const report = await (await get("/api/resources/host_report/web-2-report")).json();
  assertEquals(report.editable, null);
  assertEquals(report.artifacts.length, 1, "an output resource lists its own artifact");
  const none = await get("/api/resources/host/nope");
  assertEquals(none.status, 404);
  await none.body?.cancel();
});

Deno.test("M10/C10 GET /api/resources/{type}/{name}: provenance lists the files that created or changed it", async () => {
  const get = await setup({
    ...FILES,
    "models/m.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "backup"
name = "bk-{{ origin_resource.name }}"
relation_type = "backed_up_by"
`,
  });
  const web = await (await get("/api/resources/host/web-1")).json();
  assertEquals(web.provenance, [
    { rule: "assets/host.csv", kind: "created" },
    { rule: "models/m.toml", kind: "linked" },
    { rule: "compliance/c.toml", kind: "compliance" },
  ]);
  const backup = await (await get("/api/resources/backup/bk-web-2")).json();
  assertEquals(backup.provenance, [
    { rule: "models/m.toml", kind: "created" },
    { rule: "models/m.toml", kind: "linked" },
  ]);
  const app = await (await get("/api/resources/app/shop")).json();
  assertEquals(app.provenance, [{ rule: "assets/app.csv", kind: "created" }]);
});

Deno.test("GET /api/neighbourhood: depth, label filter, 404 and depth bounds", async () => {
  const get = await setup();
  const one = await (await get("/api/neighbourhood?type=app&name=shop&depth=1")).json();
  assertEquals(one.nodes.map((n: { id: string }) => n.id), ["app/shop", "host/web-1"]);
  assertEquals(one.edges.length, 1);
  assertEquals(one.labels, ["host"]);
  const none = await (await get("/api/neighbourhood?type=app&name=shop&label=other")).json();
  assertEquals(none.nodes.length, 1);
  for (const q of ["type=app&name=nope", "type=app&name=shop&depth=4"]) {
    const res = await get(`/api/neighbourhood?${q}`);
    assert(res.status === 404 || res.status === 400, q);
    await res.body?.cancel();
  }
});
