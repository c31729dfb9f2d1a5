import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import type { BuildEvent } from "../../lib/engine.ts";

function engineFor(files: Record<string, string>) {
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  return { engine, workspace };
}

Deno.test("assets become resources; convention columns become relations (A1, A16, A17)", async () => {
  const { engine } = engineFor({
    "assets/service.csv": 'name,database,owner\napi,"db-a, db-b",team\nweb,db-a,team\n',
    "assets/database.csv": "name,engine\ndb-a,pg\ndb-b,pg\n",
  });
  const snap = await engine.rebuild();
  assertEquals(snap.generation, 1);
  assertEquals(snap.stats.resources, 4);
  assertEquals(snap.stats.relations, 3);
  const api = snap.graph.getResource("service", "api")!;
  assertEquals(api.properties.database, ["db-a", "db-b"]);
  assertEquals(snap.graph.outgoing(api).map((r) => `${r.type}->${r.target.name}`), [
    "database->db-a",
    "database->db-b",
  ]);
});

Deno.test("A2 sub-folders: the type is the file stem", async () => {
  const { engine } = engineFor({ "assets/vendor/x/host.csv": "name\nh1\n" });
  const snap = await engine.rebuild();
  assertEquals(snap.graph.types(), ["host"]);
});

Deno.test("A5 key column: `name` when present, else the first column; A15 `_` columns stripped", async () => {
  const { engine } = engineFor({
    "assets/teams.csv": "slug,name,_secret\nfin,Finance,x\n",
    "assets/subscription.csv": "subscription,region\nsub-1,eu\n",
  });
  const snap = await engine.rebuild();
  assertEquals(snap.graph.getResource("teams", "Finance")?.properties, {
    name: "Finance",
    slug: "fin",
  });
  assertEquals(snap.graph.getResource("subscription", "sub-1")?.properties, {
    name: "sub-1",
    subscription: "sub-1",
    region: "eu",
  });
});

Deno.test("A9 name_template computes the key and keeps original_name; A13 typed columns", async () => {
  const { engine } = engineFor({
    "module.toml": `[module]
name = "m"
version = "1.0.0"
[assets."rec.csv"]
name_template = "{{ name | lower }}-{{ port }}"
[assets."rec.csv".columns]
port = { type = "integer" }
enabled = { type = "boolean" }
tags = { type = "array_of_string" }
`,
    "assets/rec.csv": 'name,port,enabled,tags\nWEB,443,True,"a, b"\n',
  });
  const snap = await engine.rebuild();
  assertEquals(engine.status?.status, "ok");
  assertEquals(snap.graph.getResource("rec", "web-443")?.properties, {
    name: "web-443",
    original_name: "WEB",
    port: 443,
    enabled: true,
    tags: ["a", "b"],
  });
});

Deno.test("A10 an asset declaration's match_on filters rows (typed values, params in operands)", async () => {
  const { engine } = engineFor({
    "module.toml": `[module]
name = "m"
version = "1.0.0"
[params.site]
default = "zrh"
[assets."identity.csv"]
name_template = "{{ name | lower }}-{{ function }}"
match_on = [
  { property = "active", value = true },
  { property = "site", value = "{{ params.site }}" },
]
[assets."identity.csv".columns]
active = { type = "boolean" }
`,
    "assets/identity.csv":
      "name,function,active,site\nAdmin,ops,true,zrh\nGuest,ops,false,zrh\nRemote,dev,True,ber\n",
  });
  const snap = await engine.rebuild();
  assertEquals(snap.issues, []);
  assertEquals(snap.graph.resourcesOf("identity").map((r) => r.name), ["admin-ops"]);
});

Deno.test("A10 a malformed asset match_on is an error naming the declaration", async () => {
  const { engine } = engineFor({
    "module.toml": `[module]
name = "m"
version = "1.0.0"
[assets."h.csv"]
match_on = [{ property = "x", bogus = 1 }]
`,
    "assets/h.csv": "name,x\na,1\n",
  });
  const snap = await engine.rebuild().catch(() => undefined);
  const errors = (engine.status?.issues ?? snap?.issues ?? []).filter((i) =>
    i.severity === "error"
  );
  assertEquals(errors.map((i) => i.code), ["asset_match_on_invalid"]);
  assert(errors[0].message.startsWith('module.toml: assets."h.csv".match_on: '), errors[0].message);
});

Deno.test("A7/A8 empty keys skipped and duplicate keys merged, both with warnings", async () => {
  const { engine } = engineFor({ "assets/h.csv": "name,v\n,1\nx,1\nx,2\n" });
  const snap = await engine.rebuild();
  assertEquals(snap.graph.getResource("h", "x")?.properties.v, "2");
  assertEquals(snap.issues.map((i) => [i.code, i.line]), [["csv_empty_key", 2], [
    "csv_duplicate_key",
    4,
  ]]);
});

Deno.test("a failed build keeps serving the last good snapshot and reports file and line", async () => {
  const { engine, workspace } = engineFor({ "assets/h.csv": "name\nx\n" });
  const good = await engine.rebuild();
  await workspace.writeTextAtomic("assets/h.csv", 'name,v\ny,"open\n');
  const after = await engine.rebuild();
  assert(after === good, "the last good snapshot stays current");
  assertEquals(engine.status?.status, "failed");
  const error = engine.status!.issues.find((i) => i.severity === "error")!;
  assertEquals([error.code, error.file, error.line], ["csv_unterminated_quote", "assets/h.csv", 2]);
  await workspace.writeTextAtomic("assets/h.csv", "name\nz\n");
  const fixed = await engine.rebuild();
  assertEquals(fixed.generation, 3);
  assert(fixed.graph.getResource("h", "z"));
});

Deno.test("O18 requests during a build coalesce into one follow-up build", async () => {
  const { engine } = engineFor({ "assets/h.csv": "name\nx\n" });
  const events: BuildEvent[] = [];
  engine.subscribe((e) => events.push(e));
  const g1 = engine.requestRebuild();
  const g2 = engine.requestRebuild();
  const g3 = engine.requestRebuild();
  assertEquals([g1, g2, g3], [1, 2, 2]);
  const status = await engine.waitFor(g3);
  assertEquals(status.generation, 2);
  assertEquals(events.filter((e) => e.kind === "start").length, 2);
  assertEquals(events.filter((e) => e.kind === "end").map((e) => e.kind === "end" && e.message), [
    "BUILD_COMPLETE",
    "BUILD_COMPLETE",
  ]);
});

Deno.test("MP24 a required parameter without a value fails the build", async () => {
  const { engine } = engineFor({
    "module.toml": '[module]\nname = "m"\nversion = "1"\n[params.tenant]\nrequired = true\n',
  });
  await engine.rebuild();
  assertEquals(engine.status?.status, "failed");
  assertEquals(engine.status?.issues[0].code, "param_missing");
});

Deno.test("A23 --remove-orphaned-assets drops unlinked rows of declared asset types too", async () => {
  const workspace = new MemoryWorkspace({
    "module.toml":
      '[module]\nname = "m"\nversion = "1"\n[assets."user.csv"]\nresource_type = "person"\n',
    "assets/user.csv": "name,team\nann,core\nbob,\n",
    "assets/team.csv": "name\ncore\n",
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    removeOrphanedAssets: true,
  });
  const snap = await engine.rebuild();
  assertEquals(snap.graph.resourcesOf("person").map((r) => r.name), ["ann"]);
  assertEquals(snap.graph.resourcesOf("team").map((r) => r.name), ["core"]);
});

Deno.test("O12 a rule failing for one origin: published as degraded with the error listed", async () => {
  const { engine } = engineFor({
    "assets/host.csv": "name,size\nweb-1,2\nweb-2,x\n",
    "models/host.toml": 'origin_resource = "host"\n[[create_resource]]\nresource_type = "disk"\n' +
      'name = "{{ origin_resource.name }}-disk"\n' +
      "[create_resource.properties]\ngb = \"{% if origin_resource.name == 'web-2' %}{{ nope }}{% endif %}10\"\n",
  });
  const events: BuildEvent[] = [];
  engine.subscribe((e) => events.push(e));
  const snap = await engine.rebuild();
  const status = engine.status!;
  assertEquals([status.status, status.errorCount], ["degraded", 1]);
  assertEquals(snap.generation, 1, "a degraded build is published");
  const disks = snap.graph.resourcesOf("disk").map((r) => [r.name, r.properties.gb]);
  assertEquals(disks, [["web-1-disk", "10"], ["web-2-disk", undefined]] as unknown[]);
  const error = status.issues.find((i) => i.severity === "error")!;
  assertEquals([error.file, error.origin], ["models/host.toml", "host 'web-2'"]);
  assert(status.error!.includes("models/host.toml"), status.error!);
  const end = events.find((e) => e.kind === "end");
  assertEquals(end?.kind === "end" && end.message, "BUILD_COMPLETE");
});

Deno.test("O12 a structural error fails the build and keeps the last good graph", async () => {
  const { engine, workspace } = engineFor({ "assets/host.csv": "name\nweb-1\n" });
  await engine.rebuild();
  await workspace.writeTextAtomic("models/bad.toml", "origin_resource = \n");
  const snap = await engine.rebuild();
  assertEquals([engine.status!.status, snap.generation], ["failed", 1]);
});

Deno.test("O12 a rule failing for many origins (errors truncated) is still degraded, not failed", async () => {
  const rows = Array.from({ length: 12 }, (_, i) => `web-${i}`).join("\n");
  const { engine } = engineFor({
    "assets/host.csv": `name\n${rows}\n`,
    "models/host.toml": 'origin_resource = "host"\n[[create_resource]]\nresource_type = "disk"\n' +
      'name = "{{ origin_resource.name }}-disk"\n[create_resource.properties]\ngb = "{{ nope }}"\n',
  });
  const snap = await engine.rebuild();
  assertEquals(engine.status!.status, "degraded");
  assertEquals(snap.generation, 1);
  assert(engine.status!.issues.some((i) => i.code === "rule_errors_truncated"));
});
