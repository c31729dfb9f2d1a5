import { assert, assertEquals, assertRejects, assertThrows } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { type ActionLayer, ActionService } from "../../lib/actions/service.ts";
import type { ActionRunner, ExecutionRequest } from "../../lib/actions/ports.ts";
import { unpackBundle } from "../../lib/actions/bundle.ts";
import { fromBase64, generateKeyPair, openSealed } from "../../lib/actions/seal.ts";
import { ActionInputError, ActionNotFoundError, RunStateError } from "../../lib/actions/errors.ts";

const kp = generateKeyPair(new Uint8Array(32).fill(7));

/** A runner whose executions end when the test says so. */
function fakeRunner() {
  const calls: { req: ExecutionRequest; finish: (code: number) => void }[] = [];
  const runner: ActionRunner = {
    publicKey: () => Promise.resolve(kp.publicKey),
    execute: (req) =>
      new Promise((resolve) => {
        const finish = (code: number) => resolve({ exitCode: code });
        req.signal.addEventListener("abort", () => resolve({ exitCode: null, error: "stopped" }));
        req.onOutput("stdout", `started ${unpackBundle(req.bundle).manifest.action}`);
        calls.push({ req, finish });
      }),
  };
  return { runner, calls };
}

function layer(files: Record<string, string>): ActionLayer {
  return {
    id: "data",
    version: "1.0.0",
    files: Object.entries(files).map(([path, text]) => ({ path, displayPath: path, text })),
    readFile: () => Promise.resolve(undefined),
    runtimeFiles: () => Promise.resolve([]),
  };
}

function build(g = new Graph()) {
  return {
    generation: 1,
    graph: g,
    params: {},
    artifacts: [],
    templates: createTemplateRenderer(),
  };
}

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
};

Deno.test("AC13 runs of one action execute one at a time, FIFO; a queued run can be cancelled", async () => {
  const { runner, calls } = fakeRunner();
  const s = new ActionService({ runner });
  await s.refresh([layer({ "actions/a.toml": 'name = "a"\nexec = [["true"]]\n' })], build());
  const r1 = await s.trigger("data", "a", {});
  const r2 = await s.trigger("data", "a", {});
  const r3 = await s.trigger("data", "a", {});
  await until(() => calls.length === 1);
  assertEquals([s.run(r1.id)!.status, s.run(r2.id)!.status], ["running", "queued"]);
  assertEquals(s.cancel(r2.id).status, "cancelled");
  assertThrows(() => s.cancel(r1.id), RunStateError);
  assertThrows(() => s.cancel("nope"), ActionNotFoundError);
  calls[0].finish(0);
  await until(() => calls.length === 2);
  assertEquals(s.run(r1.id)!.status, "succeeded");
  assertEquals(s.run(r1.id)!.exit_code, 0);
  assertEquals(s.run(r1.id)!.log_tail, ["started a"]);
  calls[1].finish(3);
  const done = await s.settled(r3.id);
  assertEquals([done!.status, done!.exit_code, done!.error], ["failed", 3, "exit code 3"]);
  assertEquals(s.runs().map((r) => r.id), [r3.id, r2.id, r1.id]);
});

Deno.test("AC11 AC6 unknown actions and invalid inputs are refused before anything is queued", async () => {
  const s = new ActionService({});
  await s.refresh([
    layer({
      "actions/a.toml": 'name = "a"\nexec = [["true"]]\n[[input]]\nname = "n"\ntype = "integer"\n',
    }),
  ], build());
  await assertRejects(() => s.trigger("data", "b", {}), ActionNotFoundError);
  await assertRejects(() => s.trigger("nomod", "a", {}), ActionNotFoundError);
  await assertRejects(() => s.trigger("data", "a", { n: "1" }), ActionInputError);
  assertEquals(s.runs(), []);
});

Deno.test("AC20 AC21 secrets are sealed to the runner key; the plaintext is nowhere but the sealed box", async () => {
  const { runner, calls } = fakeRunner();
  const secrets = {
    read: (c: string, n: string) =>
      Promise.resolve(c === "db" && n === "pw" ? "hunter2-secret" : undefined),
  };
  const s = new ActionService({ runner, secrets });
  await s.refresh([layer({
    "actions/a.toml":
      'name = "a"\nexec = [["echo", "{{ secrets.PW }}"]]\n[env]\nX = "{{ secrets.PW }}"\n[vault_secrets]\nPW = { collection = "db", secret = "pw" }\n',
  })], build());
  const r = await s.trigger("data", "a", {});
  await until(() => calls.length === 1);
  const u = unpackBundle(calls[0].req.bundle);
  assertEquals(u.manifest.exec, [["echo", "{{ secrets.PW }}"]]);
  assertEquals(u.env, { X: "{{ secrets.PW }}" });
  assertEquals(u.sealed.length, 1);
  assertEquals(
    new TextDecoder().decode(openSealed(fromBase64(u.sealed[0].sealed), kp)),
    "hunter2-secret",
  );
  for (const e of u.entries) {
    if (e.path === "secrets.sealed.json") continue;
    assert(!new TextDecoder().decode(e.bytes).includes("hunter2"), e.path);
  }
  calls[0].req.onOutput("stdout", "leaked hunter2-secret here");
  calls[0].finish(0);
  const done = await s.settled(r.id);
  assert(!JSON.stringify(done).includes("hunter2"));
  assertEquals(done!.log_tail[1], "leaked *** here");
});

Deno.test("AC22 without a vault no sealed entry is produced", async () => {
  const { runner, calls } = fakeRunner();
  const s = new ActionService({ runner });
  await s.refresh([layer({
    "actions/a.toml":
      'name = "a"\nexec = [["true"]]\n[vault_secrets]\nPW = { collection = "db", secret = "pw" }\n',
  })], build());
  await s.trigger("data", "a", {});
  await until(() => calls.length === 1);
  const u = unpackBundle(calls[0].req.bundle);
  assertEquals([u.manifest.secrets, u.sealed], [["PW"], []]);
  calls[0].finish(0);
});

Deno.test("AC5 a refresh replaces the expansion; invalid files are reported and skipped", async () => {
  const s = new ActionService({});
  const g = new Graph();
  g.upsertResource("host", "h1");
  await s.refresh([layer({
    "actions/a.toml": 'name = "a"\norigin_resource = "host"\nexec = [["true"]]\n',
    "actions/bad.toml": 'name = "bad"\n',
  })], build(g));
  assertEquals(s.list().map((a) => a.name), ["a-h1"]);
  assertEquals(s.errors.length, 1);
  assert(s.errors[0].message.startsWith("actions/bad.toml:1:1"));
  g.upsertResource("host", "h2");
  await s.refresh([
    layer({ "actions/a.toml": 'name = "a"\norigin_resource = "host"\nexec = [["true"]]\n' }),
  ], build(g));
  assertEquals(s.list().map((a) => a.name), ["a-h1", "a-h2"]);
  assertEquals(s.errors.length, 0);
});

Deno.test("AC31 an auto_execute service is started, restarted after it exits, and stopped by stopAll", async () => {
  const { runner, calls } = fakeRunner();
  const s = new ActionService({ runner, backoff: { initialMs: 1, maxMs: 4 } });
  await s.refresh([layer({
    "actions/svc.toml":
      'name = "svc"\nrun_mode = "service"\nauto_execute = true\nexec = [["true"]]\n',
  })], build());
  await until(() => calls.length === 1);
  calls[0].finish(1); // the service died
  await until(() => calls.length === 2);
  assertEquals(s.runs().map((r) => r.status), ["running", "failed"]);
  await s.stopAll();
  assertEquals(s.runs()[0].status, "failed");
  assertEquals(s.runs()[0].error, "stopped");
});

Deno.test("AC31 a service whose bundle changed is restarted; one no longer expanded is stopped", async () => {
  const { runner, calls } = fakeRunner();
  const s = new ActionService({ runner, backoff: { initialMs: 1, maxMs: 4 } });
  const svc = (arg: string) =>
    layer({
      "actions/svc.toml":
        `name = "svc"\nrun_mode = "service"\nauto_execute = true\nexec = [["echo", "${arg}"]]\n`,
    });
  await s.refresh([svc("one")], build());
  await until(() => calls.length === 1);
  await s.refresh([svc("one")], build()); // unchanged: kept running
  assertEquals(calls.length, 1);
  await s.refresh([svc("two")], build());
  await until(() => calls.length === 2);
  assertEquals(unpackBundle(calls[1].req.bundle).manifest.exec, [["echo", "two"]]);
  assertEquals(calls[0].req.signal.aborted, true);
  await s.refresh([layer({})], build());
  assertEquals(calls[1].req.signal.aborted, true);
  assertEquals(s.runs().every((r) => r.status !== "running"), true);
});
