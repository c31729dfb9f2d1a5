/**
 * Actions as MCP tools `action.<module>.<name>` (R74, AC14) with the SDK's own client over
 * Streamable HTTP, its fetch pointed at the app: the tools are always listed; queueing a run is
 * a write, so a call needs `--mcp-write` and every call is authorised like `saveAsset` and the contract
 * tools (R91: `--read-only`, `--protect-writes`); the input schema comes from the `[[input]]`s and
 * inputs are validated as over REST (AC6).
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { attachActionService } from "../../lib/actions/engine_link.ts";
import { denoActionRunner } from "../../lib/runtime/deno/action_runner.ts";
import { connectMcp } from "./_client.ts";

const GREET = `name = "greet"
description = "Say hello to a host"
origin_resource = "host"
match_on = [{ property = "env", value = "prod" }]
exec = [["sh", "-c", "echo hello {{ origin_resource.name }} {{ input.greeting }}"]]
[[input]]
name = "greeting"
required = true
allowed_values = ["hi", "yo"]
[[input]]
name = "loud"
type = "boolean"
default = false
`;

async function setup(options: AppOptions = {}, headers: Record<string, string> = {}) {
  const workspace = new MemoryWorkspace({
    "assets/host.csv": "name,env\nweb-1,prod\nweb-2,dev\n",
    "actions/greet.toml": GREET,
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const link = attachActionService(engine, { runner: denoActionRunner({ killGraceMs: 200 }) });
  await engine.rebuild();
  await link.ready;
  const app = createApp(engine, {
    edition: "ce",
    version: "1.2.3",
    actions: link.service,
    ...options,
  });
  const { client, call } = await connectMcp(app, headers);
  const close = async () => {
    await client.close();
    link.detach();
    await link.service.stopAll();
  };
  return { service: link.service, client, call, close };
}

const TOOL = "action.data.greet-web-1";

Deno.test("R74 R91 action tools are listed without --mcp-write, and a call is refused", async () => {
  const off = await setup();
  try {
    const { tools } = await off.client.listTools();
    assertEquals(tools.map((t) => t.name).filter((n) => n.startsWith("action.")), [TOOL]);
    const r = await off.call(TOOL, { greeting: "hi" });
    assert(r.isError, r.text);
    assert(r.text.includes("--mcp-write"), r.text);
    assertEquals(off.service.runs(), [], "nothing queued");
  } finally {
    await off.close();
  }
  const on = await setup({ mcp: { write: true } });
  try {
    const { tools } = await on.client.listTools();
    assertEquals(tools.map((t) => t.name).filter((n) => n.startsWith("action.")), [TOOL]);
  } finally {
    await on.close();
  }
});

Deno.test("R74 AC2 an action tool's input schema comes from its [[input]]s", async () => {
  const t = await setup({ mcp: { write: true } });
  try {
    const { tools } = await t.client.listTools();
    const tool = tools.find((x) => x.name === TOOL)!;
    assertEquals(tool.description, "Say hello to a host");
    const schema = tool.inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
      additionalProperties?: boolean;
    };
    assertEquals(Object.keys(schema.properties).sort(), ["greeting", "loud"]);
    assertEquals(schema.required, ["greeting"]);
    assertEquals(schema.additionalProperties, false);
    assert(JSON.stringify(schema.properties.greeting).includes('"enum":["hi","yo"]'));
    assert(JSON.stringify(schema.properties.loud).includes('"boolean"'));
    assert(String(schema.properties.loud.description).includes("default false"));
    assertEquals(tool.annotations?.readOnlyHint, false);
  } finally {
    await t.close();
  }
});

Deno.test("R74 AC11 AC6 an action tool queues a run; invalid inputs queue nothing", async () => {
  const t = await setup({ mcp: { write: true } });
  try {
    for (const args of [{}, { greeting: "hey" }, { greeting: "hi", extra: 1 }]) {
      const r = await t.call(TOOL, args);
      assert(r.isError, `${JSON.stringify(args)}: ${r.text}`);
    }
    assertEquals(t.service.runs(), [], "nothing queued");
    const r = await t.call(TOOL, { greeting: "yo" });
    assert(!r.isError, r.text);
    const record = JSON.parse(r.text);
    assertEquals([record.module, record.action, record.status], ["data", "greet-web-1", "queued"]);
    const done = await t.service.settled(record.id);
    assertEquals(done?.status, "succeeded");
    assert(done!.log_tail.some((l) => l.includes("hello web-1 yo")), done!.log_tail.join("|"));
  } finally {
    await t.close();
  }
});

Deno.test("R91 action tools obey --protect-writes (X-API-Token) and --read-only", async () => {
  const protectedWrites = { mcp: { write: true }, protectWrites: true, apiToken: "s3cret" };
  const refused = await setup(protectedWrites);
  try {
    const r = await refused.call(TOOL, { greeting: "hi" });
    assert(r.isError && r.text.includes("X-API-Token"), r.text);
    assertEquals(JSON.parse(r.text).status, 403);
    assertEquals(refused.service.runs(), [], "nothing queued");
  } finally {
    await refused.close();
  }
  const allowed = await setup(protectedWrites, { "x-api-token": "s3cret" });
  try {
    const r = await allowed.call(TOOL, { greeting: "hi" });
    assert(!r.isError, r.text);
    await allowed.service.settled(JSON.parse(r.text).id);
  } finally {
    await allowed.close();
  }
  const readOnly = await setup({ mcp: { write: true }, writes: false });
  try {
    const r = await readOnly.call(TOOL, { greeting: "hi" });
    assert(r.isError && r.text.includes("read-only"), r.text);
    assertEquals(readOnly.service.runs(), [], "nothing queued");
  } finally {
    await readOnly.close();
  }
});
