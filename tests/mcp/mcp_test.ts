/**
 * `/mcp` with the SDK's own client over Streamable HTTP, its fetch pointed at the app (R70–R74),
 * on the netbox-vm-verification corpus project copied into memory (saveAsset must not write to
 * the corpus).
 */
import { assert, assertEquals } from "../_assert.ts";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { CORPUS_DIR, SKIP_CORPUS } from "../corpus/_corpus.ts";
import { connectMcp } from "./_client.ts";

const PROJECT = "rescile-example-netbox-vm-verification";

async function readTree(root: string, rel = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(`${root}/${rel}`)) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) Object.assign(out, await readTree(root, path));
    else if (e.isFile) out[path] = await Deno.readTextFile(`${root}/${path}`);
  }
  return out;
}

async function setup(options: AppOptions = {}) {
  const files = await readTree(`${CORPUS_DIR}${PROJECT}/data`);
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { edition: "ce", version: "1.2.3", ...options });
  const { appFetch, client, transport, call } = await connectMcp(app);
  const json = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await call(name, args);
    assert(!r.isError, `${name}: ${r.text}`);
    return JSON.parse(r.text);
  };
  return { engine, workspace, app, client, transport, call, json, appFetch };
}

const READ_TOOLS = [
  "findPath",
  "getNeighbors",
  "getResource",
  "globalSearch",
  "listResourceTypes",
  "listResources",
  "localSearch",
  "semanticSearch",
];

Deno.test({
  name:
    "R70–R72 initialize, list tools (schemas, descriptions) and prompts; no saveAsset by default",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const { client } = await setup();
    try {
      assertEquals(client.getServerVersion()?.name, "graphsvc");
      assertEquals(client.getServerVersion()?.version, "1.2.3");
      const { tools } = await client.listTools();
      assertEquals(tools.map((t) => t.name).sort(), READ_TOOLS);
      for (const t of tools) {
        assert((t.description ?? "").length > 20, t.name);
        assertEquals(t.inputSchema.type, "object", t.name);
      }
      const { prompts } = await client.listPrompts();
      assertEquals(prompts.map((p) => p.name).sort(), [
        "get_resource_details",
        "graphrag_global_search",
        "graphrag_local_search",
      ]);
      const prompt = await client.getPrompt({
        name: "get_resource_details",
        arguments: { type: "netbox_vms", name: "web-server-01" },
      });
      const text = (prompt.messages[0].content as { text: string }).text;
      assert(text.includes("web-server-01") && text.includes("ubuntu"), text);
      const local = await client.getPrompt({
        name: "graphrag_local_search",
        arguments: { query: "web-server" },
      });
      assert((local.messages[0].content as { text: string }).text.includes("web-server-01"));
      const global = await client.getPrompt({
        name: "graphrag_global_search",
        arguments: { query: "teams" },
      });
      assert((global.messages[0].content as { text: string }).text.includes("teams"));
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "R71 every read tool answers from the graph (corpus netbox project)",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const { client, engine, json, call } = await setup();
    const graph = engine.current.graph;
    try {
      const types = await json("listResourceTypes");
      assertEquals(types.map((t: { type: string }) => t.type), graph.types());
      const vmType = types.find((t: { type: string }) => t.type === "netbox_vms");
      assertEquals(vmType.count, graph.resourcesOf("netbox_vms").length);
      assert(vmType.properties.includes("os_type"));

      const vm = await json("getResource", { type: "netbox_vms", name: "web-server-01" });
      assertEquals(vm.properties, graph.getResource("netbox_vms", "web-server-01")!.properties);
      const res = graph.getResource("netbox_vms", "web-server-01")!;
      assertEquals(vm.outgoing.length, graph.outgoing(res).length);
      assertEquals(vm.incoming.length, graph.incoming(res).length);
      const missing = await call("getResource", { type: "netbox_vms", name: "nope" });
      assert(missing.isError && missing.text.includes("nope"), missing.text);

      const all = await json("listResources", { type: "netbox_vms" });
      assertEquals(all.total, graph.resourcesOf("netbox_vms").length);
      const page = await json("listResources", { type: "netbox_vms", limit: 1, offset: 1 });
      assertEquals(page.items.length, 1);
      assertEquals(page.items[0].name, all.items[1].name);
      const linux = await json("listResources", {
        type: "netbox_vms",
        filter: { os_type: "windows" },
      });
      assertEquals(linux.items.map((i: { name: string }) => i.name), ["win-server-01"]);

      const neighbors = await json("getNeighbors", { type: "netbox_vms", name: "web-server-01" });
      assertEquals(
        neighbors.outgoing.map((n: { relation: string; name: string }) => `${n.relation}>${n.name}`)
          .sort(),
        graph.outgoing(res).map((r) => `${r.type}>${r.target.name}`).sort(),
      );
      assertEquals(neighbors.counts.incoming, graph.incoming(res).length);

      // A path between two resources that are related through the graph.
      const first = graph.outgoing(res)[0] ?? graph.incoming(res)[0];
      const other = first.source === res ? first.target : first.source;
      const path = await json("findPath", {
        from_type: "netbox_vms",
        from_name: "web-server-01",
        to_type: other.type,
        to_name: other.name,
      });
      assertEquals(path.found, true);
      assertEquals(path.length, 1);
      assertEquals(path.path[0].relation, first.type);

      const sem = await json("semanticSearch", { query: "web-server" });
      assertEquals(sem.hits[0].name, "web-server-01");
      const fuzzy = await json("semanticSearch", { query: "web-srever-01" });
      assert(fuzzy.hits.some((h: { name: string }) => h.name === "web-server-01"), "typo");
      const finance = await json("semanticSearch", { query: "Finance", type: "teams" });
      assert(finance.hits.length > 0);

      const local = await json("localSearch", { type: "netbox_vms", name: "web-server-01" });
      assertEquals(local.seeds[0].name, "web-server-01");
      assertEquals(local.depth, 2);
      for (const n of local.nodes) assert(n.distance <= 2);
      assert(
        local.nodes.some((n: { name: string }) => n.name === other.name),
        "neighbours are in the ego graph",
      );

      const global = await json("globalSearch", {});
      assertEquals(global.totals.resources, graph.resourceCount);
      assertEquals(global.totals.relations, graph.relationCount);
      const q = await json("globalSearch", { query: "os_type" });
      assertEquals(q.types[0].type, "netbox_vms");
      assert(q.types[0].properties.os_type.top.length > 0);
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name: "R71 saveAsset is refused without --mcp-write and writes through the live service with it",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const off = await setup();
    try {
      const r = await off.call("saveAsset", { type: "teams", mode: "insert", fields: {} });
      assert(r.isError, "unknown tool without mcp write");
      const features = await (await off.appFetch("http://test/api/features")).json();
      assert(features.includes("mcp") && !features.includes("mcp_write"), features);
    } finally {
      await off.client.close();
    }
    const on = await setup({ mcp: { write: true } });
    try {
      const features = await (await on.appFetch("http://test/api/features")).json();
      assert(features.includes("mcp_write"), features);
      const { tools } = await on.client.listTools();
      assert(tools.some((t) => t.name === "saveAsset"));
      const before = on.engine.current.generation;
      const inserted = await on.json("saveAsset", {
        type: "teams",
        mode: "insert",
        fields: { slug: "sre", name: "Site Reliability", business_unit: "Engineering" },
      });
      assert(inserted.generation > before, JSON.stringify(inserted));
      assertEquals(inserted.published, true);
      assert(
        on.workspace.entries()["assets/teams.csv"].includes("sre,Site Reliability,Engineering"),
      );
      const team = await on.json("getResource", { type: "teams", name: inserted.name });
      assertEquals(team.properties.business_unit, "Engineering");
      const updated = await on.json("saveAsset", {
        type: "teams",
        mode: "update",
        name: inserted.name,
        fields: { business_unit: "Operations" },
      });
      assert(updated.generation > inserted.generation);
      const again = await on.json("getResource", { type: "teams", name: inserted.name });
      assertEquals(again.properties.business_unit, "Operations");
      const dup = await on.call("saveAsset", {
        type: "teams",
        mode: "insert",
        fields: { slug: "sre2", name: inserted.name, business_unit: "y" },
      });
      assert(dup.isError && dup.text.includes("already exists"), dup.text);
    } finally {
      await on.client.close();
    }
  },
});

Deno.test("R70 /mcp: requests before initialize and unknown sessions are refused; DELETE ends a session", async () => {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
    createTemplates: createTemplateRenderer,
  });
  await engine.rebuild();
  const app = createApp(engine);
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    Promise.resolve(app.fetch(
      new Request("http://test/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    ));
  const early = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  assertEquals(early.status, 400);
  await early.body?.cancel();
  const unknown = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, {
    "mcp-session-id": "nope",
  });
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "curl", version: "0" },
    },
  });
  assertEquals(init.status, 200);
  const session = init.headers.get("mcp-session-id")!;
  assert(session, "a session id");
  assertEquals(init.headers.get("content-type"), "text/event-stream");
  await init.body?.cancel();
  // Accepting JSON only: the answer is plain JSON (R70 "JSON or SSE per Accept").
  const json = await post({ jsonrpc: "2.0", id: 7, method: "tools/list" }, {
    "mcp-session-id": session,
    accept: "application/json",
  });
  assertEquals(json.status, 200);
  assertEquals(json.headers.get("content-type"), "application/json");
  const listed = await json.json();
  assertEquals(listed.id, 7);
  assert(listed.result.tools.some((t: { name: string }) => t.name === "getResource"));
  const del = await Promise.resolve(app.fetch(
    new Request("http://test/mcp", { method: "DELETE", headers: { "mcp-session-id": session } }),
  ));
  assertEquals(del.status, 200);
  await del.body?.cancel();
  const after = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, {
    "mcp-session-id": session,
  });
  assertEquals(after.status, 404);
  await after.body?.cancel();
});

Deno.test("R91 saveAsset obeys --protect-writes (X-API-Token) and --read-only like every write", async () => {
  const connect = async (options: AppOptions, headers: Record<string, string> = {}) => {
    const workspace = new MemoryWorkspace({ "assets/host.csv": "name,os\nweb-1,linux\n" });
    const engine = new GraphEngine({ workspace, createTemplates: createTemplateRenderer });
    await engine.rebuild();
    const app = createApp(engine, options);
    const client = new Client({ name: "t", version: "0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://test/mcp"), {
        fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
        requestInit: { headers },
      }),
    );
    const res = await client.callTool({
      name: "saveAsset",
      arguments: { type: "host", mode: "insert", fields: { name: "web-2", os: "bsd" } },
    });
    await client.close();
    return {
      isError: res.isError === true,
      text: (res.content as { text: string }[])[0].text,
      csv: workspace.entries()["assets/host.csv"],
    };
  };
  const protectedWrites = { mcp: { write: true }, protectWrites: true, apiToken: "s3cret" };
  const refused = await connect(protectedWrites);
  assert(refused.isError && refused.text.includes("X-API-Token"), refused.text);
  assert(!refused.csv.includes("web-2"), "nothing written");
  const wrong = await connect(protectedWrites, { "x-api-token": "nope" });
  assert(wrong.isError);
  const allowed = await connect(protectedWrites, { "x-api-token": "s3cret" });
  assert(!allowed.isError, allowed.text);
  assert(allowed.csv.includes("web-2,bsd"));
  const readOnly = await connect({ mcp: { write: true }, writes: false });
  assert(readOnly.isError && readOnly.text.includes("disabled"), readOnly.text);
});
