/**
 * Contract endpoints over HTTP against the real app and a data directory on disk (AC44, AC45,
 * spec §3): list, call, generation header, 400/404/409 problem documents and all-or-nothing.
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { FILES } from "../contracts/_fixture.ts";

async function setup(options: AppOptions = {}, files: Record<string, string> = FILES) {
  const dir = await Deno.makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  const engine = new GraphEngine({
    workspace: new DenoFsWorkspace(dir),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { edition: "ce", version: "9.9.9", ...options });
  const post = (name: string, body?: unknown, headers: HeadersInit = {}) =>
    Promise.resolve(app.fetch(
      new Request(`http://127.0.0.1/api/contracts/${name}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ));
  const get = (path: string) => Promise.resolve(app.fetch(new Request(`http://127.0.0.1${path}`)));
  const read = (path: string) => Deno.readTextFile(`${dir}/${path}`);
  const cleanup = () => Deno.remove(dir, { recursive: true });
  return { engine, app, post, get, read, dir, cleanup };
}

Deno.test("AC44: GET /api/contracts lists name, description, module and inputs", async () => {
  const t = await setup();
  try {
    const res = await t.get("/api/contracts");
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.map((c: { name: string }) => c.name), [
      "RequestCertificate",
      "SubmitCsr",
      "Transition",
    ]);
    assertEquals(body[0].module, "data");
    assertEquals(body[0].inputs[1], {
      name: "key_type",
      type: "string",
      required: false,
      default: "ec",
      allowed_values: ["rsa", "ec"],
    });
  } finally {
    await t.cleanup();
  }
});

Deno.test("AC44/§3: POST runs the lifecycle; answers carry the write's generation; the graph shows it", async () => {
  const t = await setup();
  try {
    const res = await t.post("RequestCertificate", { host: "web-1" });
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.success, true);
    assertEquals(body.writes[0].result, "created");
    assertEquals(body.writes[0].key, "req-web-1");
    assertEquals(res.headers.get("graphsvc-generation"), String(body.generation));
    assert(body.generation >= 2);
    // Read-your-writes: the asset read at that generation shows the new row.
    const rows = await t.get("/api/assets/cert_request.csv");
    assert((await rows.text()).includes("req-web-1"));
    await t.engine.waitFor(body.generation);
    assertEquals(t.engine.current.generation >= body.generation, true);
    for (const to of ["processing", "valid"]) {
      if (to === "processing") {
        assertEquals((await t.post("SubmitCsr", { host: "web-1", csr: "C" })).status, 200);
      }
      assertEquals((await t.post("Transition", { host: "web-1", to })).status, 200);
    }
    // Repeating the finalising call: 200 unchanged, same generation as the current one.
    const again = await t.post("Transition", { host: "web-1", to: "valid" });
    assertEquals(again.status, 200);
    const a = await again.json();
    assertEquals(a.writes.map((w: { result: string }) => w.result), ["unchanged", "unchanged"]);
    // A transition on the terminal item: 409 invalid-transition problem document.
    const bad = await t.post("Transition", { host: "web-1", to: "invalid" });
    assertEquals(bad.status, 409);
    assertEquals(bad.headers.get("content-type"), "application/problem+json");
    const p = await bad.json();
    assertEquals(p.type, "urn:graphsvc:problem:invalid-transition");
  } finally {
    await t.cleanup();
  }
});

Deno.test("AC44/AC6: 400 with one entry per invalid input; 404 unknown contract; empty body is {}", async () => {
  const t = await setup();
  try {
    const res = await t.post("Transition", { host: 5, to: "done", extra: true });
    assertEquals(res.status, 400);
    const p = await res.json();
    assertEquals(p.type, "urn:graphsvc:problem:validation-failed");
    assertEquals(p.errors.map((e: { field: string }) => e.field), ["extra", "host", "to"]);
    // AC6: the same problem shape as an action call: one {field, message} per refused input.
    assertEquals(p.errors[0], { field: "extra", message: "unknown input 'extra'" });
    assertEquals((await t.post("NoSuchContract", {})).status, 404);
    const empty = await t.post("Transition");
    assertEquals(empty.status, 400); // required inputs missing, the empty body parsed as {}
    const notJson = await Promise.resolve(t.app.fetch(
      new Request("http://127.0.0.1/api/contracts/Transition", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "host=web-1",
      }),
    ));
    assertEquals(notJson.status, 400);
  } finally {
    await t.cleanup();
  }
});

Deno.test("§3 rule 6/AC43: a refused call changes no file on disk", async () => {
  const t = await setup();
  try {
    const res = await t.post("RequestCertificate", { host: "db-9" });
    assertEquals(res.status, 404);
    assertEquals(await t.read("assets/cert_request.csv"), FILES["assets/cert_request.csv"]);
    // Second write fails (no web-3 host row) while the first (intake) would succeed.
    await Deno.writeTextFile(
      `${t.dir}/contracts/request.toml`,
      FILES["contracts/request.toml"].replace(/\[\[require\]\][^[]*/, ""),
    );
    const res2 = await t.post("RequestCertificate", { host: "web-3" });
    assertEquals(res2.status, 404);
    assertEquals(await t.read("assets/cert_request.csv"), FILES["assets/cert_request.csv"]);
    assertEquals(await t.read("assets/host.csv"), FILES["assets/host.csv"]);
  } finally {
    await t.cleanup();
  }
});

Deno.test("R60/R91: read-only refuses contract calls; --protect-writes requires the token", async () => {
  const ro = await setup({ writes: false });
  try {
    assertEquals((await ro.post("Transition", { host: "web-1", to: "valid" })).status, 403);
  } finally {
    await ro.cleanup();
  }
  const t = await setup({ protectWrites: true, apiToken: "tok" });
  try {
    assertEquals((await t.post("RequestCertificate", { host: "web-1" })).status, 401);
    const ok = await t.post("RequestCertificate", { host: "web-1" }, { "x-api-token": "tok" });
    assertEquals(ok.status, 200);
  } finally {
    await t.cleanup();
  }
});

Deno.test("AC40: a broken contract file is reported, located; the good contracts stay listed and callable", async () => {
  const t = await setup({}, {
    ...FILES,
    "contracts/broken.toml": 'name = "B"\n[[write]]\naction = 1\n',
  });
  try {
    const res = await t.get("/api/contracts");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("x-config-errors"), "1");
    const names = (await res.json()).map((c: { name: string }) => c.name);
    assert(names.includes("RequestCertificate") && !names.includes("B"), names.join());
    const errors = await (await t.get("/api/contracts/errors")).json();
    assertEquals(errors.length, 1);
    assertEquals(errors[0].file, "contracts/broken.toml");
    assertEquals(typeof errors[0].line, "number");
    assert(errors[0].message.startsWith("contracts/broken.toml:"), errors[0].message);
    assertEquals((await t.post("RequestCertificate", { host: "web-1" })).status, 200);
    const missing = await t.post("B", {});
    assertEquals(missing.status, 404);
    assert((await missing.json()).detail.includes("/api/contracts/errors"));
  } finally {
    await t.cleanup();
  }
});
