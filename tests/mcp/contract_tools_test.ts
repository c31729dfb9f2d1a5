/**
 * Contracts as MCP tools `contract.<name>` (AC44 [P]) with the SDK's own client over Streamable
 * HTTP, its fetch pointed at the app: offered only with `--mcp-write`, schemas from the
 * `[[input]]`s, calls through the same contract service as `POST /api/contracts/{name}` (same
 * validation, same transaction, the generation in the answer), authorised like every write (R91).
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { FILES } from "../contracts/_fixture.ts";
import { connectMcp } from "./_client.ts";

async function setup(options: AppOptions = {}, headers: Record<string, string> = {}) {
  const workspace = new MemoryWorkspace(FILES);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { edition: "ce", version: "1.2.3", ...options });
  const { appFetch, client, call } = await connectMcp(app, headers);
  const files = () => workspace.entries();
  return { engine, app, appFetch, client, call, files };
}

const CONTRACT_TOOLS = ["contract.RequestCertificate", "contract.SubmitCsr", "contract.Transition"];

Deno.test("AC44 contract tools are offered only with --mcp-write", async () => {
  const off = await setup();
  try {
    const { tools } = await off.client.listTools();
    assertEquals(tools.filter((t) => t.name.startsWith("contract.")), []);
    const r = await off.call("contract.RequestCertificate", { host: "web-1" });
    assert(r.isError, r.text);
    assertEquals(off.files()["assets/cert_request.csv"], FILES["assets/cert_request.csv"]);
  } finally {
    await off.client.close();
  }
  const on = await setup({ mcp: { write: true } });
  try {
    const { tools } = await on.client.listTools();
    assertEquals(
      tools.map((t) => t.name).filter((n) => n.startsWith("contract.")).sort(),
      CONTRACT_TOOLS,
    );
  } finally {
    await on.client.close();
  }
});

Deno.test("AC44 a contract tool's input schema comes from its [[input]]s", async () => {
  const t = await setup({ mcp: { write: true } });
  try {
    const { tools } = await t.client.listTools();
    const request = tools.find((x) => x.name === "contract.RequestCertificate")!;
    assertEquals(
      request.description,
      "Start (or resume) a certificate request for a registered host",
    );
    const schema = request.inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
      additionalProperties?: boolean;
    };
    assertEquals(Object.keys(schema.properties).sort(), ["host", "key_type"]);
    assertEquals(schema.required, ["host"]);
    assertEquals(schema.additionalProperties, false);
    assertEquals(schema.properties.host.type, "string");
    // key_type: allowed_values as an enum, optional (it has a default).
    assert(JSON.stringify(schema.properties.key_type).includes('"enum":["rsa","ec"]'));
    assert(String(schema.properties.key_type.description).includes('default "ec"'));
    assertEquals(request.annotations?.readOnlyHint, false);
  } finally {
    await t.client.close();
  }
});

Deno.test("AC43/AC44 a contract tool writes through the contract service and answers the generation", async () => {
  const t = await setup({ mcp: { write: true } });
  try {
    const before = t.engine.current.generation;
    const r = await t.call("contract.RequestCertificate", { host: "web-1" });
    assert(!r.isError, r.text);
    const body = JSON.parse(r.text);
    assertEquals(body.success, true);
    assert(body.generation > before, r.text);
    assertEquals(body.published, true);
    assertEquals(body.writes.map((w: { target_asset: string }) => w.target_asset), [
      "cert_request",
      "host",
    ]);
    assert(t.files()["assets/cert_request.csv"].includes("req-web-1,web-1,ec,"));
    // Read-your-writes: the graph tools already see the row.
    const row = await t.call("getResource", { type: "cert_request", name: "req-web-1" });
    assert(!row.isError, row.text);
    assertEquals(JSON.parse(row.text).properties.key_type, "ec");
  } finally {
    await t.client.close();
  }
});

Deno.test("AC44/AC6 refusals match the REST endpoint and write nothing", async () => {
  const t = await setup({ mcp: { write: true } });
  try {
    const cert = t.files()["assets/cert_request.csv"];
    const host = t.files()["assets/host.csv"];
    // Inputs REST refuses with 400 are refused before anything runs.
    for (
      const args of [
        {},
        { host: "web-1", key_type: "dsa" },
        { host: "web-1", extra: "x" },
        { host: 7 },
      ]
    ) {
      const r = await t.call("contract.RequestCertificate", args);
      assert(r.isError, `${JSON.stringify(args)}: ${r.text}`);
      const rest = await t.appFetch("http://test/api/contracts/RequestCertificate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(args),
      });
      assertEquals(rest.status, 400, JSON.stringify(args));
      await rest.body?.cancel();
    }
    // A failed precondition ([[require]]): the REST problem as the tool's error.
    const missing = await t.call("contract.RequestCertificate", { host: "db-9" });
    assert(missing.isError, missing.text);
    const problem = JSON.parse(missing.text);
    assertEquals(problem.status, 404);
    assertEquals(problem.type, "not-found");
    assert(problem.detail.includes("host 'db-9' is not registered"), problem.detail);
    // null is an absent optional input, as over REST: the default applies.
    const ok = await t.call("contract.RequestCertificate", { host: "web-2", key_type: null });
    assert(!ok.isError, ok.text);
    assert(t.files()["assets/cert_request.csv"].includes("req-web-2,web-2,ec,"));
    // An update of a row that does not exist (no request for web-1 yet): 409/404, nothing written.
    const submit = await t.call("contract.SubmitCsr", { host: "web-1", csr: "PEM" });
    assert(submit.isError, submit.text);
    assert(!t.files()["assets/host.csv"].includes("PEM"));
    assertEquals(t.files()["assets/host.csv"].split("\n")[1], host.split("\n")[1]);
    assert(cert !== t.files()["assets/cert_request.csv"]); // only web-2's request
  } finally {
    await t.client.close();
  }
});

Deno.test("R91 contract tools obey --protect-writes (X-API-Token) and --read-only", async () => {
  const protectedWrites = { mcp: { write: true }, protectWrites: true, apiToken: "s3cret" };
  const refused = await setup(protectedWrites);
  try {
    const r = await refused.call("contract.RequestCertificate", { host: "web-1" });
    assert(r.isError && r.text.includes("X-API-Token"), r.text);
    assertEquals(JSON.parse(r.text).status, 403);
    assertEquals(refused.files()["assets/cert_request.csv"], FILES["assets/cert_request.csv"]);
  } finally {
    await refused.client.close();
  }
  const allowed = await setup(protectedWrites, { "x-api-token": "s3cret" });
  try {
    const r = await allowed.call("contract.RequestCertificate", { host: "web-1" });
    assert(!r.isError, r.text);
  } finally {
    await allowed.client.close();
  }
  const readOnly = await setup({ mcp: { write: true }, writes: false });
  try {
    const r = await readOnly.call("contract.RequestCertificate", { host: "web-1" });
    assert(r.isError && r.text.includes("disabled"), r.text);
    assertEquals(readOnly.files()["assets/cert_request.csv"], FILES["assets/cert_request.csv"]);
  } finally {
    await readOnly.client.close();
  }
});
