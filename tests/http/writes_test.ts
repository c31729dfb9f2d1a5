/**
 * The live service over HTTP against the real app: raw asset writes (R3–R9), auto-CRUD REST
 * (R10–R14) and GraphQL (G17–G20), module parameters (R20–R23), the reload webhook (R40–R43),
 * `--protect-writes` (R91), features (R60) and read-your-writes generations.
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";

const MODULE = `
[module]
name = "inv"
version = "1.0.0"
[params.stage]
default = "DEV"
allowed_values = ["DEV", "PROD"]
required = true
description = "Deployment stage"
[params.owner]
default = "ops"
[assets."host.csv".columns]
name = { type = "string", required = true }
port = { type = "integer" }
`;

async function setup(
  options: AppOptions = {},
  files: Record<string, string> = {
    "module.toml": MODULE,
    "assets/host.csv": "name,port,site\nweb-1,80,zrh\n",
    "assets/site.csv": "name,city\nzrh,Zurich\n",
  },
) {
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { edition: "ce", version: "9.9.9", ...options });
  const call = (path: string, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(`http://127.0.0.1${path}`, init)));
  const form = (path: string, fields: Record<string, string>, headers: HeadersInit = {}) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    return call(path, { method: "POST", body, headers });
  };
  const json = (method: string, path: string, body: unknown, headers: HeadersInit = {}) =>
    call(path, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const gql = async (query: string, headers: HeadersInit = {}) => {
    const res = await json("POST", "/graphql", { query }, headers);
    return { res, body: await res.json() };
  };
  return { engine, workspace, app, call, form, json, gql };
}

Deno.test("R3/R5 multipart update: 200 {ok,file,rows,generation} and the Graphsvc-Generation header", async () => {
  const { form, workspace } = await setup();
  const res = await form("/api/assets/site.csv", { update: "name,city\ngva,Geneva\n" });
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body, { ok: true, file: "site.csv", rows: 2, generation: 2 });
  assertEquals(res.headers.get("graphsvc-generation"), "2");
  assertEquals(await workspace.readText("assets/site.csv"), "name,city\nzrh,Zurich\ngva,Geneva\n");
});

Deno.test("R4/R6 asset writes: combined data is 400, unknown field 400, remove on a missing file 404, wrong content type 400", async () => {
  const { form, call } = await setup();
  const cases: [Record<string, string>, string, number][] = [
    [{ data: "name\n", remove: "name\nzrh\n" }, "site.csv", 400],
    [{ bogus: "x" }, "site.csv", 400],
    [{ remove: "name\nx\n" }, "missing.csv", 404],
    [{ update: "name\nx\n" }, "..%2Fescape.csv", 400],
    [{ update: "name\nx\n" }, "notes.txt", 400],
  ];
  for (const [fields, file, status] of cases) {
    const res = await form(`/api/assets/${file}`, fields);
    assertEquals(res.status, status, `${file} ${JSON.stringify(fields)}`);
    assertEquals(res.headers.get("content-type"), "application/problem+json");
  }
  const plain = await call("/api/assets/site.csv", { method: "PUT", body: "name\n" });
  assertEquals(plain.status, 400);
});

Deno.test("R4 rename through remove + update in one request is one write and one generation", async () => {
  const { form, workspace } = await setup();
  const res = await form("/api/assets/site.csv", {
    remove: "name\nzrh\n",
    update: "name,city\nzurich,Zurich\n",
  });
  assertEquals(res.status, 200);
  assertEquals(await workspace.readText("assets/site.csv"), "name,city\nzurich,Zurich\n");
});

Deno.test("R10–R12 auto-CRUD: 201, 409 duplicate-key, 404, 400 validation, PUT merge, DELETE", async () => {
  const { json, call, workspace } = await setup();
  const created = await json("POST", "/api/mutations/host", { name: "web-2", port: 8080 });
  assertEquals(created.status, 201);
  const body = await created.json();
  assertEquals([body.success, body.name, typeof body.generation], [true, "web-2", "number"]);
  assertEquals(created.headers.get("graphsvc-generation"), String(body.generation));

  const dup = await json("POST", "/api/mutations/host", { name: "web-2" });
  assertEquals(dup.status, 409);
  assertEquals((await dup.json()).type, "urn:graphsvc:problem:duplicate-key");
  assertEquals((await json("POST", "/api/mutations/nope", { name: "x" })).status, 404);
  const invalid = await json("POST", "/api/mutations/host", { name: "web-3", port: "http" });
  assertEquals(invalid.status, 400);
  assertEquals((await invalid.json()).field, "port");
  assertEquals((await json("POST", "/api/mutations/host", ["x"])).status, 400);
  assertEquals(
    (await call("/api/mutations/host", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    })).status,
    400,
  );

  const changed = await json("PUT", "/api/mutations/host/web-2", { port: 9090 });
  assertEquals(changed.status, 200);
  assertEquals((await json("PUT", "/api/mutations/host/ghost", { port: 1 })).status, 404);
  assertEquals(
    await workspace.readText("assets/host.csv"),
    "name,port,site\nweb-1,80,zrh\nweb-2,9090,\n",
  );
  assertEquals((await call("/api/mutations/host/web-2", { method: "DELETE" })).status, 200);
  assertEquals((await call("/api/mutations/host/web-2", { method: "DELETE" })).status, 404);
  assertEquals(await workspace.readText("assets/host.csv"), "name,port,site\nweb-1,80,zrh\n");
});

Deno.test("read-your-writes: Graphsvc-Min-Generation answers from a snapshot containing the write", async () => {
  const { json, call, gql } = await setup();
  const created = await json("POST", "/api/mutations/site", { name: "gva", city: "Geneva" });
  const generation = (await created.json()).generation;
  const { res, body } = await gql("{ site { name city } }", {
    "graphsvc-min-generation": String(generation),
  });
  assertEquals(res.headers.get("graphsvc-generation"), String(generation));
  assertEquals(body.data.site.map((s: { name: string }) => s.name).sort(), ["gva", "zrh"]);
  const info = await call(`/api/engine-info?min_generation=${generation}`);
  assertEquals((await info.json()).generation, generation);
  const assets = await call("/api/assets/site.csv", {
    headers: { "graphsvc-min-generation": String(generation) },
  });
  assertEquals(assets.headers.get("graphsvc-generation"), String(generation));
});

Deno.test("read-your-writes: invalid or unscheduled generations are 400", async () => {
  const { call } = await setup();
  for (const value of ["abc", "-1", "1.5"]) {
    const res = await call("/api/engine-info", { headers: { "graphsvc-min-generation": value } });
    assertEquals(res.status, 400, value);
  }
  assertEquals((await call("/api/engine-info?min_generation=99")).status, 400);
});

Deno.test("read-your-writes: a read waiting for a failed build answers 409 with the build error", async () => {
  const broken = await setup({}, {
    "assets/site.csv": "name\nzrh\n",
    "models/broken.toml": "origin_resource = \n",
  });
  const write = await broken.form("/api/assets/site.csv", { update: "name\ngva\n" });
  const failedGeneration = (await write.json()).generation;
  const read = await broken.call("/api/engine-info", {
    headers: { "graphsvc-min-generation": String(failedGeneration) },
  });
  assertEquals(read.status, 409);
  const body = await read.json();
  assertEquals(body.type, "urn:graphsvc:problem:build-failed");
  assert(body.detail.includes("models/broken.toml"), body.detail);
});

Deno.test("read-your-writes: a wait that outlasts its bound answers 504", async () => {
  const { engine, call } = await setup({ generationWaitMs: 20 });
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const generation = engine.requestRebuild({ before: () => gate });
  const res = await call("/api/engine-info", {
    headers: { "graphsvc-min-generation": String(generation) },
  });
  assertEquals(res.status, 504);
  assertEquals((await res.json()).type, "urn:graphsvc:problem:timeout");
  release();
  await engine.waitFor(generation);
  const later = await call("/api/engine-info", {
    headers: { "graphsvc-min-generation": String(generation) },
  });
  assertEquals(later.status, 200);
});

Deno.test("G17–G20 GraphQL mutations: Add/Change/Delete with MutationResult and generation", async () => {
  const { gql, workspace } = await setup();
  const add = await gql(
    'mutation { AddHost(input: { name: "web-9", port: 81 }) { success message generation } }',
  );
  assertEquals(add.body.data.AddHost.success, true);
  assertEquals(typeof add.body.data.AddHost.generation, "number");
  const dup = await gql(
    'mutation { AddHost(input: { name: "web-9" }) { success message generation } }',
  );
  assertEquals(dup.body.data.AddHost, {
    success: false,
    message: "host 'web-9' already exists",
    generation: null,
  });
  const change = await gql(
    'mutation { ChangeHost(name: "web-9", input: { port: 82 }) { success } }',
  );
  assertEquals(change.body.data.ChangeHost.success, true);
  const bad = await gql(
    'mutation { ChangeSite(name: "nowhere", input: { city: "x" }) { success message } }',
  );
  assertEquals(bad.body.data.ChangeSite.success, false);
  assertEquals(
    await workspace.readText("assets/host.csv"),
    "name,port,site\nweb-1,80,zrh\nweb-9,82,\n",
  );
  const del = await gql('mutation { DeleteHost(name: "web-9") { success } }');
  assertEquals(del.body.data.DeleteHost.success, true);
  // G18: the key and declared-required columns are non-null in the input type.
  const missing = await gql("mutation { AddHost(input: { port: 1 }) { success } }");
  assert(missing.body.errors?.length > 0);
});

Deno.test("G20/R60 read-only: no admin_assets feature, writes 403, mutations success:false", async () => {
  const { call, form, gql } = await setup({ writes: false });
  assertEquals(await (await call("/api/features")).json(), ["mcp"]);
  assertEquals((await form("/api/assets/site.csv", { update: "name\nx\n" })).status, 403);
  const r = await gql('mutation { AddSite(input: { name: "x" }) { success message } }');
  assertEquals(r.body.data.AddSite, { success: false, message: "asset writes are disabled" });
  const open = await setup();
  assertEquals(await (await open.call("/api/features")).json(), [
    "admin_assets",
    "contracts",
    "mcp",
  ]);
});

Deno.test("R91 --protect-writes: every mutating endpoint needs the token", async () => {
  const token = "t0ken-for-tests";
  const { form, json, gql, call } = await setup({ protectWrites: true, apiToken: token });
  assertEquals((await form("/api/assets/site.csv", { update: "name\nx\n" })).status, 401);
  assertEquals((await json("POST", "/api/mutations/site", { name: "x" })).status, 401);
  assertEquals((await json("POST", "/api/module-params", { stage: "PROD" })).status, 401);
  const wrong = await json("POST", "/api/mutations/site", { name: "x" }, { "x-api-token": "nope" });
  assertEquals(wrong.status, 401);
  assert(!(await wrong.text()).includes(token));
  const ok = await json("POST", "/api/mutations/site", { name: "x" }, { "x-api-token": token });
  assertEquals(ok.status, 201);
  const denied = await gql('mutation { AddSite(input: { name: "y" }) { success message } }');
  assertEquals(denied.body.data.AddSite.success, false);
  const allowed = await gql('mutation { AddSite(input: { name: "y" }) { success } }', {
    "x-api-token": token,
  });
  assertEquals(allowed.body.data.AddSite.success, true);
  assertEquals((await call("/api/assets/site.csv")).status, 200);
});

Deno.test("R20–R23 module params: describe, validate all-or-nothing, persist, rebuild", async () => {
  const { call, json, workspace, engine } = await setup();
  const described = await (await call("/api/module-params")).json();
  assertEquals(described.stage, {
    value: "DEV",
    default: "DEV",
    allowed_values: ["DEV", "PROD"],
    required: true,
    description: "Deployment stage",
    module: "data",
  });
  for (
    const body of [{ nope: 1 }, { stage: "QA" }, { stage: null }, ["x"], { stage: "PROD", x: 1 }]
  ) {
    const res = await json("POST", "/api/module-params", body);
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  assertEquals(await workspace.readText(".graphsvc/module-params.json"), undefined);
  const res = await json("PUT", "/api/module-params", { stage: "PROD" });
  assertEquals(res.status, 202);
  const updated = await res.json();
  assertEquals([updated.stage.value, updated.owner.value], ["PROD", "ops"]);
  assertEquals(JSON.parse((await workspace.readText(".graphsvc/module-params.json"))!), {
    stage: "PROD",
  });
  await engine.waitFor(updated.generation);
  assertEquals(engine.current.params.stage, "PROD");
});

Deno.test("R40–R42 reload webhook: 403 without a configured token, 401 without/wrong, 202 with", async () => {
  const off = await setup();
  assertEquals((await off.call("/api/webhook/reload", { method: "POST" })).status, 403);
  const synced: string[] = [];
  const on = await setup({
    apiToken: "s3cret-token",
    sync: (log) => {
      synced.push("sync");
      log("info", "sync: ok");
      return Promise.resolve();
    },
  });
  assertEquals((await on.call("/api/webhook/reload", { method: "POST" })).status, 401);
  assertEquals(
    (await on.call("/api/webhook/reload", { method: "POST", headers: { "x-api-token": "no" } }))
      .status,
    401,
  );
  const res = await on.call("/api/webhook/reload", {
    method: "POST",
    headers: { "x-api-token": "s3cret-token" },
  });
  assertEquals(res.status, 202);
  const body = await res.json();
  assertEquals(body.status, "reload-scheduled");
  await on.engine.waitFor(body.generation);
  assertEquals(synced, ["sync"]);
});

Deno.test("R43 a failing sync fails that build, keeps the last graph and reports the error", async () => {
  const { call, engine } = await setup({
    apiToken: "tok-tok-tok",
    sync: () => Promise.reject(new Error("git fetch failed: remote unreachable")),
  });
  const before = engine.current.generation;
  const lines: string[] = [];
  engine.subscribe((e) => {
    if (e.kind === "line") lines.push(e.text);
  });
  const res = await call("/api/webhook/reload", {
    method: "POST",
    headers: { "x-api-token": "tok-tok-tok" },
  });
  const { generation } = await res.json();
  await engine.waitFor(generation);
  assertEquals(engine.current.generation, before);
  const info = await (await call("/api/engine-info")).json();
  assertEquals(info.last_build.status, "failed");
  assert(info.last_build.error.includes("remote unreachable"));
  assert(lines.some((l) => l.includes("remote unreachable")));
});

Deno.test("R50/R54 a write-triggered build appears in the build stream, one event per line", async () => {
  const { engine, json } = await setup();
  const events: string[] = [];
  engine.subscribe((e) => events.push(e.kind === "line" ? e.text : e.kind));
  const res = await json("POST", "/api/mutations/site", { name: "gva" });
  await engine.waitFor((await res.json()).generation);
  assert(events.includes("start") && events.includes("end"));
  assert(events.every((l) => !l.includes("\n")));
  assert(!events.some((l) => l.includes("memory:")), "no data directory location in the log");
});

Deno.test("O18 a burst of writes during a build coalesces into one rebuild that all of them name", async () => {
  const { engine, json } = await setup();
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const running = engine.requestRebuild({ before: () => gate });
  const responses = await Promise.all(
    ["a", "b", "c", "d"].map((name) => json("POST", "/api/mutations/site", { name })),
  );
  const generations = await Promise.all(responses.map(async (r) => (await r.json()).generation));
  assertEquals(new Set(generations).size, 1);
  assertEquals(generations[0], running + 1);
  release();
  await engine.waitFor(generations[0]);
  assertEquals(engine.current.generation, running + 1);
  assertEquals(engine.current.graph.resourcesOf("site").length, 5);
});

Deno.test("19.2 every response names the newest build's outcome; GraphQL adds extensions.build when not ok", async () => {
  const ok = await setup();
  const res = await ok.call("/api/features");
  assertEquals(res.headers.get("graphsvc-build-status"), "ok");
  assertEquals((await ok.gql("{ countNodes }")).body.extensions, undefined);

  const degraded = await setup({}, {
    "assets/host.csv": "name\nweb-1\nweb-2\n",
    "models/host.toml": 'origin_resource = "host"\n[[create_resource]]\nresource_type = "disk"\n' +
      'name = "{{ origin_resource.name }}-disk"\n[create_resource.properties]\n' +
      "gb = \"{% if origin_resource.name == 'web-2' %}{{ nope }}{% endif %}10\"\n",
  });
  const { res: r, body } = await degraded.gql("{ countNodes }");
  assertEquals(r.headers.get("graphsvc-build-status"), "degraded");
  assertEquals(body.extensions.build.status, "degraded");
  assertEquals(body.extensions.build.error_count, 1);
  assert(body.extensions.build.errors[0].includes("models/host.toml"));
  assertEquals(body.data.countNodes, 4);
});

Deno.test("R43 /api/engine-info names the failed newest attempt in last_error", async () => {
  const { call, engine, workspace } = await setup();
  assertEquals((await (await call("/api/engine-info")).json()).last_error, null);
  await workspace.writeTextAtomic("models/bad.toml", "origin_resource = \n");
  await engine.rebuild();
  const info = await (await call("/api/engine-info")).json();
  assert(typeof info.last_error === "string" && info.last_error.includes("models/bad.toml"));
});
