import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { attachActionService } from "../../lib/actions/engine_link.ts";
import { unpackBundle } from "../../lib/actions/bundle.ts";
import { generateKeyPair, toBase64 } from "../../lib/actions/seal.ts";
import { denoActionRunner } from "../../lib/runtime/deno/action_runner.ts";
import { LOG_TAIL_CHARS } from "../../lib/actions/runs.ts";
import type { RunRecord, SecretSource } from "../../lib/actions/ports.ts";
import { createUnixFetch } from "../../lib/runtime/deno/unix_fetch.ts";

const JOB = `name = "greet"
description = "Say hello to a host"
origin_resource = "host"
match_on = [{ property = "env", value = "prod" }]
exec = [["sh", "-c", "echo hello {{ origin_resource.name }} {{ input.greeting }}; echo to-stderr >&2"]]
[[input]]
name = "greeting"
required = true
allowed_values = ["hi", "yo"]
[[input]]
name = "loud"
type = "boolean"
default = false
`;
const FAIL =
  `name = "fail"\nexec = [["sh", "-c", "echo before; exit 3"], ["sh", "-c", "echo never"]]\n`;
const SLOW = `name = "slow"\nexec = [["sh", "-c", "exec sleep 30"]]\n`;

async function setup(
  extra: Record<string, string> = {},
  options: AppOptions = {},
  secrets?: SecretSource,
) {
  const workspace = new MemoryWorkspace({
    "assets/host.csv": "name,env\nweb-1,prod\nweb-2,dev\ndb-1,prod\n",
    "actions/greet.toml": JOB,
    "actions/fail.toml": FAIL,
    "actions/slow.toml": SLOW,
    ...extra,
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const link = attachActionService(engine, {
    runner: denoActionRunner({ killGraceMs: 200 }),
    secrets,
    backoff: { initialMs: 1, maxMs: 8 },
  });
  await engine.rebuild();
  await link.ready;
  const app = createApp(engine, { actions: link.service, ...options });
  const call = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.fetch(
      new Request(`http://test${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return { engine, workspace, service: link.service, app, call, link };
}

async function waitRun(
  call: (m: string, p: string) => Response | Promise<Response>,
  id: string,
  done: (r: RunRecord) => boolean,
): Promise<RunRecord> {
  for (;;) {
    const res = await call("GET", `/api/actions/runs/${id}`);
    assertEquals(res.status, 200);
    const r = await res.json() as RunRecord;
    if (done(r)) return r;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const final = (r: RunRecord) => !["queued", "running"].includes(r.status);

Deno.test("AC10 GET /api/actions lists the concrete actions", async () => {
  const { call, service } = await setup();
  const res = await call("GET", "/api/actions");
  assertEquals(res.status, 200);
  const list = await res.json();
  assertEquals(list.map((a: { name: string }) => a.name), [
    "fail",
    "greet-db-1",
    "greet-web-1",
    "slow",
  ]);
  assertEquals(list[2], {
    module: "data",
    name: "greet-web-1",
    template: "greet",
    description: "Say hello to a host",
    origin: { type: "host", name: "web-1" },
    inputs: [
      { name: "greeting", type: "string", required: true, allowed_values: ["hi", "yo"] },
      { name: "loud", type: "boolean", required: false, default: false },
    ],
    run_mode: "job",
    runtime: "bash",
  });
  await service.stopAll();
});

Deno.test("AC5 a broken action file is left out; GET /api/actions/errors locates it, the listing counts it", async () => {
  const { call, service } = await setup({
    "actions/bad.toml": 'name = "bad"\norigin_resource = "host"\nexec = [["true"]]\n' +
      'match_on = [{ property = "env", value = "{{ nope | upper }}" }]\n',
  });
  const res = await call("GET", "/api/actions");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("x-config-errors"), "1");
  const names = (await res.json()).map((a: { name: string }) => a.name);
  assertEquals(names, ["fail", "greet-db-1", "greet-web-1", "slow"]);
  const errors = await (await call("GET", "/api/actions/errors")).json();
  assertEquals(errors.length, 1);
  assertEquals(
    [errors[0].file, errors[0].line, errors[0].column, errors[0].code],
    ["actions/bad.toml", 4, 1, "action_expand"],
  );
  assert(errors[0].message.includes("match_on cannot be evaluated"), errors[0].message);
  await service.stopAll();
  const clean = await setup();
  assertEquals((await clean.call("GET", "/api/actions")).headers.get("x-config-errors"), null);
  assertEquals(await (await clean.call("GET", "/api/actions/errors")).json(), []);
  await clean.service.stopAll();
});

Deno.test("AC11 AC13 AC30 a queued job runs: 202, then succeeded with exit code and output", async () => {
  const { call, service } = await setup();
  const res = await call("POST", "/api/actions/data/greet-web-1", { greeting: "hi" });
  assertEquals(res.status, 202);
  const { id, status } = await res.json();
  assertEquals(status, "queued");
  const r = await waitRun(call, id, final);
  assertEquals([r.status, r.exit_code, r.error, r.module, r.action], [
    "succeeded",
    0,
    null,
    "data",
    "greet-web-1",
  ]);
  assertEquals(r.log_tail.sort(), ["hello web-1 hi", "to-stderr"]);
  assert(r.started_at && r.finished_at && r.created_at);
  const failed = await (await call("POST", "/api/actions/data/fail")).json();
  const f = await waitRun(call, failed.id, final);
  assertEquals([f.status, f.exit_code, f.log_tail], ["failed", 3, ["before"]]);
  const runs = await (await call("GET", "/api/actions/runs")).json();
  assertEquals(runs.map((x: RunRecord) => x.id), [failed.id, id]);
  await service.stopAll();
});

Deno.test("AC6 AC11 invalid requests: 404 unknown, 400 per-field input errors, 400 non-JSON", async () => {
  const { call, service } = await setup();
  let res = await call("POST", "/api/actions/data/nope", {});
  assertEquals([res.status, res.headers.get("content-type")], [404, "application/problem+json"]);
  res = await call("POST", "/api/actions/nomodule/greet-web-1", {});
  assertEquals(res.status, 404);
  res = await call("POST", "/api/actions/data/greet-web-2", { greeting: "hi" }); // not matched
  assertEquals(res.status, 404);
  res = await call("POST", "/api/actions/data/greet-web-1", { greeting: "hey", loud: "yes", x: 1 });
  assertEquals(res.status, 400);
  const p = await res.json();
  assertEquals(p.type, "urn:graphsvc:problem:validation-failed");
  assertEquals(p.errors.map((e: { field: string }) => e.field), ["x", "greeting", "loud"]);
  // AC6: the same problem shape as a contract call: validation-failed, one {field, message} each.
  assertEquals(p.errors[0], { field: "x", message: "unknown input 'x'" });
  res = await call("POST", "/api/actions/data/greet-web-1", undefined, {
    "content-type": "text/plain",
  });
  assertEquals(res.status, 400); // empty body = {} but greeting is required
  res = await call("POST", "/api/actions/data/fail", [1]);
  assertEquals(res.status, 400);
  res = await call("GET", "/api/actions/runs/nope");
  assertEquals(res.status, 404);
  assertEquals((await (await call("GET", "/api/actions/runs")).json()).length, 0);
  await service.stopAll();
});

Deno.test("AC13 DELETE cancels a queued run; a running one is 409; unknown is 404", async () => {
  const { call, service } = await setup();
  const first = await (await call("POST", "/api/actions/data/slow")).json();
  const second = await (await call("POST", "/api/actions/data/slow")).json();
  await waitRun(call, first.id, (r) => r.status === "running");
  assertEquals((await service.run(second.id))!.status, "queued");
  let res = await call("DELETE", `/api/actions/runs/${second.id}`);
  assertEquals(res.status, 200);
  assertEquals((await res.json()).status, "cancelled");
  res = await call("DELETE", `/api/actions/runs/${first.id}`);
  assertEquals(res.status, 409);
  assertEquals((await res.json()).type, "urn:graphsvc:problem:invalid-transition");
  res = await call("DELETE", "/api/actions/runs/nope");
  assertEquals(res.status, 404);
  await service.stopAll(); // AC30: graceful stop ends the running job
  const r = (await service.run(first.id))!;
  assertEquals([r.status, r.error], ["failed", "stopped"]);
});

Deno.test("AC12 AC23 ?download=true returns the bundle, sealed to X-Runner-Key", async () => {
  const { call, service } = await setup();
  const kp = generateKeyPair();
  const res = await call("POST", "/api/actions/data/greet-db-1?download=true", { greeting: "yo" }, {
    "x-runner-key": toBase64(kp.publicKey),
  });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/gzip");
  assertEquals(res.headers.get("content-disposition"), 'attachment; filename="greet-db-1.tar.gz"');
  const b = unpackBundle(new Uint8Array(await res.arrayBuffer()));
  assertEquals(b.payload, { greeting: "yo", loud: false });
  assertEquals(b.manifest.exec, [["sh", "-c", "echo hello db-1 yo; echo to-stderr >&2"]]);
  assertEquals(b.manifest.runner_key, toBase64(kp.publicKey));
  assertEquals(b.manifest.origin, { type: "host", name: "db-1" });
  assertEquals((await (await call("GET", "/api/actions/runs")).json()).length, 0, "nothing queued");
  const bad = await call("POST", "/api/actions/data/fail?download=true", {}, {
    "x-runner-key": "abc",
  });
  assertEquals(bad.status, 400);
  await service.stopAll();
});

Deno.test("AC5 a rebuild re-expands: a new matching host gives a new action", async () => {
  const { call, engine, workspace, service } = await setup();
  await workspace.writeTextAtomic("assets/host.csv", "name,env\nweb-1,prod\nweb-3,prod\n");
  await engine.rebuild();
  for (;;) {
    const names = (await (await call("GET", "/api/actions")).json()).map((a: { name: string }) =>
      a.name
    );
    if (names.includes("greet-web-3")) {
      assert(!names.includes("greet-db-1"));
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await service.stopAll();
});

Deno.test("R91 actions are writes: 403 when read-only, 401 without the token under --protect-writes", async () => {
  let s = await setup({}, { writes: false });
  assertEquals((await s.call("POST", "/api/actions/data/fail")).status, 403);
  assertEquals((await s.call("DELETE", "/api/actions/runs/x")).status, 403);
  assertEquals((await s.call("GET", "/api/actions")).status, 200);
  await s.service.stopAll();
  s = await setup({}, { protectWrites: true, apiToken: "tok" });
  assertEquals((await s.call("POST", "/api/actions/data/fail")).status, 401);
  const ok = await s.call("POST", "/api/actions/data/fail", {}, { "x-api-token": "tok" });
  assertEquals(ok.status, 202);
  await s.service.settled((await ok.json()).id);
  await s.service.stopAll();
});

Deno.test("AC31 AC32 a killed auto_execute service is restarted; its socket is known while it runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const svc = `name = "svc"
run_mode = "service"
auto_execute = true
exec = [["sh", "-c", "echo $$ > ${dir}/pid.tmp && mv ${dir}/pid.tmp ${dir}/pid; exec sleep 30"]]
[runtime.expose]
socket = "api.sock"
`;
    const { service, call } = await setup({ "actions/svc.toml": svc });
    const readPid = async (not?: string) => {
      for (;;) {
        const pid = await Deno.readTextFile(`${dir}/pid`).then((t) => t.trim()).catch(() => "");
        if (pid !== "" && pid !== not) return pid;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const pid1 = await readPid();
    const socket = service.socketFor("data", undefined, "svc");
    assert(socket?.endsWith("/api.sock"), socket);
    Deno.kill(Number(pid1), "SIGKILL");
    const pid2 = await readPid(pid1);
    assert(pid2 !== pid1);
    const runs = (await (await call("GET", "/api/actions/runs")).json()) as RunRecord[];
    const mine = runs.filter((r) => r.action === "svc");
    assert(mine.length >= 2);
    assertEquals(mine.at(-1)!.status, "failed"); // the killed one
    await service.stopAll();
    assertEquals(service.socketFor("data", undefined, "svc"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AC30 GET /api/actions/runs/{id}/log streams the run's output, then RUN_<STATUS>", async () => {
  const { call, service } = await setup({
    "actions/count.toml": 'name = "count"\nexec = [["sh", "-c", "echo one; echo two; exit 2"]]\n',
  });
  const { id } = await (await call("POST", "/api/actions/data/count")).json();
  const res = await call("GET", `/api/actions/runs/${id}/log`);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/event-stream");
  const text = await res.text(); // the stream ends with the run
  const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
  assertEquals(data, ["one", "two", "RUN_FAILED: exit code 2"]);
  // A finished run replays its tail and the final line.
  const again = await (await call("GET", `/api/actions/runs/${id}/log`)).text();
  assert(again.includes("data: two") && again.includes("data: RUN_FAILED"));
  assertEquals((await call("GET", "/api/actions/runs/nope/log")).status, 404);
  await service.stopAll();
});

const SERVE_PY = `import http.server, os, socketserver
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ("service saw " + self.path).encode()
        self.send_response(200)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def address_string(self):
        return "unix"
    def log_message(self, *args):
        pass
socketserver.UnixStreamServer(os.environ["GRAPHSVC_SOCKET"], H).serve_forever()
`;

Deno.test("AC32 AP16 a proxy route action://<name> reaches the service's exposed Unix socket", async () => {
  const unix = createUnixFetch();
  const { call, service } = await setup({
    "runtimes/serve.py": SERVE_PY,
    "actions/api.toml":
      'name = "api"\nrun_mode = "service"\nauto_execute = true\nexec = [["python3", "runtime/serve.py"]]\n[runtime.expose]\nsocket = "api.sock"\n',
    "app/index.html": "x",
    "app/proxy.toml": '[[route]]\npath = "/svc"\ntarget = "action://api"\n',
  }, { apps: { unixFetch: unix.fetch } });
  try {
    for (;;) {
      const res = await call("GET", "/apps/data/svc/hello?x=1");
      if (res.status === 200) {
        // unix_fetch sends the absolute form (`GET http://localhost/hello?x=1`): origin-form
        // would be the RFC 9112 choice for an origin server; accept either here.
        assert((await res.text()).endsWith("/hello?x=1"));
        break;
      }
      await res.body?.cancel(); // 503 (not running) or 502 (socket not listening yet)
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await service.stopAll();
    unix.close();
  }
  const res = await call("GET", "/apps/data/svc/hello");
  assertEquals(res.status, 503);
  await res.body?.cancel();
});

const SECRET_ACTION = `name = "db"
exec = [["sh", "-c", "echo using $DB_PASSWORD; echo arg {{ secrets.DB_PASSWORD }}"]]
[vault_secrets]
DB_PASSWORD = { collection = "db", secret = "password" }
`;

Deno.test("AC20 AC22 a vault secret reaches the process only; without a vault the run fails with secrets_unavailable", async () => {
  const vault: SecretSource = {
    read: (c, s) => Promise.resolve(c === "db" && s === "password" ? "pa55-w0rd-xyz" : undefined),
  };
  let s = await setup({ "actions/db.toml": SECRET_ACTION }, {}, vault);
  let { id } = await (await s.call("POST", "/api/actions/data/db")).json();
  let r = await waitRun(s.call, id, final);
  assertEquals([r.status, r.log_tail], ["succeeded", ["using ***", "arg ***"]]);
  const everything = JSON.stringify(await (await s.call("GET", "/api/actions/runs")).json());
  assert(!everything.includes("pa55"));
  const bundle = await (await s.call("POST", "/api/actions/data/db?download=true")).arrayBuffer();
  const b = unpackBundle(new Uint8Array(bundle));
  assertEquals(b.sealed.map((x) => x.name), ["DB_PASSWORD"]);
  for (const e of b.entries) assert(!new TextDecoder().decode(e.bytes).includes("pa55"), e.path);
  await s.service.stopAll();

  s = await setup({ "actions/db.toml": SECRET_ACTION });
  ({ id } = await (await s.call("POST", "/api/actions/data/db")).json());
  r = await waitRun(s.call, id, final);
  // The script ran as the original runs it (placeholders left); its output is kept (AC22).
  assertEquals([r.status, r.error, r.log_tail], ["failed", "secrets_unavailable: DB_PASSWORD", [
    "using",
    "arg {{ secrets.DB_PASSWORD }}",
  ]]);
  await s.service.stopAll();
});

Deno.test("AC13 log_tail holds the end of the output: the last lines, and the end of a long line", async () => {
  const s = await setup({
    "actions/long.toml": `name = "long"
exec = [["sh", "-c", "for i in $(seq 1 300); do echo line-$i; done; head -c 200000 /dev/zero | tr '\\\\0' x; echo; printf done"]]
`,
  });
  const { id } = await (await s.call("POST", "/api/actions/data/long")).json();
  const r = await waitRun(s.call, id, final);
  assertEquals(r.status, "succeeded", r.error ?? "");
  const tail: string[] = r.log_tail;
  assertEquals(tail.at(-1), "done");
  assert(tail.join("").length <= LOG_TAIL_CHARS, `${tail.join("").length} characters kept`);
  // The 200,000-character line keeps its end; the lines before it no longer fit.
  assert(/^…x+$/.test(tail[0]), tail[0].slice(0, 20));
  assertEquals(tail.length, 2);
  await s.service.stopAll();
});
