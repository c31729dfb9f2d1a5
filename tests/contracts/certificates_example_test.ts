/**
 * The worked example testdata/certificates (docs/actions.md) through the real app, on a copy in
 * a temporary folder: contracts walk every lifecycle transition of spec §3 (intake, existing
 * item, 404 unknown subject, 409 invalid transition, repeated finalising call, expiry, renewal),
 * the action `issue-certificate` appears per ready host, its bundle carries env, files, the
 * mounted output artifact and the sealed secret from the built-in vault, and a run writes its
 * result back through the contracts over HTTP (spec §3 rule 7), success and failure.
 *
 * Needs `sh`, `curl` and `sha256sum` (the example's runtime script).
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";
import { attachActionService } from "../../lib/actions/engine_link.ts";
import { unpackBundle } from "../../lib/actions/bundle.ts";
import type { RunRecord } from "../../lib/actions/ports.ts";
import { denoActionRunner } from "../../lib/runtime/deno/action_runner.ts";
import { MemoryVaultStore } from "../../lib/vault/state.ts";
import { VaultServer } from "../../lib/vault/server.ts";
import { VaultClient, vaultSecretSource } from "../../lib/vault/client.ts";

const EXAMPLE = new URL("../../testdata/certificates", import.meta.url).pathname;
const CSR = "-----BEGIN CERTIFICATE REQUEST-----MIIBweb2-----END CERTIFICATE REQUEST-----";
const EAB_KEY = "q8Xv1P3mZrT0bW6yN2cJf5sKdE9hLuA4";
const FAST_KDF = { alg: "argon2id" as const, m: 256, t: 1, p: 1 };

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/** Parses a CSV without quoted cells (the example's cells have no commas) into row objects. */
function rows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split("\n").map((l) => l.split(","));
  return lines.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
}

/**
 * The app over a copy of the example, served on a free local port (the action's script writes
 * back through it), with the built-in vault holding the CA's EAB key.
 */
async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "certificates-example-" });
  await copyDir(EXAMPLE, `${dir}/data`);
  let handler: (req: Request) => Response | Promise<Response> = () =>
    new Response(null, { status: 503 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => handler(req),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const vault = await VaultServer.open(new MemoryVaultStore());
  const vaultClient = new VaultClient({
    url: base,
    client: "graphsvc",
    password: "correct horse battery staple",
    kdf: FAST_KDF,
  });
  const engine = new GraphEngine({
    workspace: new DenoFsWorkspace(`${dir}/data`),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    params: { api_url: base },
  });
  const link = attachActionService(engine, {
    runner: denoActionRunner({ dataDir: `${dir}/data`, killGraceMs: 200 }),
    secrets: vaultSecretSource(vaultClient),
  });
  const app = createApp(engine, { actions: link.service, vault, edition: "ce", version: "0" });
  handler = app.fetch;
  await engine.rebuild();
  await link.ready;
  await vaultClient.createCollection("acme");
  await vaultClient.putSecret("acme", "eab-hmac-key", EAB_KEY);

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.fetch(
      new Request(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: res.status, res, body: await res.clone().json().catch(() => undefined) };
  };
  /** Calls a contract; waits until its generation is published and actions re-expanded. */
  const contract = async (name: string, inputs: unknown) => {
    const r = await call("POST", `/api/contracts/${name}`, inputs);
    if (r.status === 200) {
      await engine.waitFor(r.body.generation);
      await link.service.whenRefreshed();
    }
    return r;
  };
  const csv = (asset: string) => Deno.readTextFile(`${dir}/data/assets/${asset}.csv`);
  const row = async (asset: string, name: string) =>
    rows(await csv(asset)).find((r) => r.name === name);
  /** Runs an action and waits for its record to be final and its write-backs published. */
  const run = async (module: string, action: string, inputs: unknown) => {
    const queued = await call("POST", `/api/actions/${module}/${action}`, inputs);
    assertEquals([queued.status, queued.body.status], [202, "queued"]);
    await link.service.settled(queued.body.id);
    await engine.waitFor(engine.requestRebuild());
    await link.service.whenRefreshed();
    const record = await call("GET", `/api/actions/runs/${queued.body.id}`);
    assertEquals(record.status, 200);
    return record.body as RunRecord;
  };
  const close = async () => {
    await link.service.stopAll();
    link.detach();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  };
  return { engine, link, call, contract, csv, row, run, close, dir };
}

Deno.test("AC40 AC44 AC10 the certificates example builds with no issue; its contracts and (no) actions are listed", async () => {
  const t = await setup();
  try {
    assertEquals(t.engine.current.issues, []);
    assertEquals(t.link.service.errors, []);
    const report = await t.call("GET", "/api/validate-workspace");
    assertEquals([report.body.error_count, report.body.warning_count], [0, 0]);
    const contracts = await t.call("GET", "/api/contracts");
    assertEquals(contracts.status, 200);
    assertEquals(contracts.body.map((c: { name: string }) => c.name).sort(), [
      "CompleteCertificate",
      "FailCertificate",
      "RequestCertificate",
      "StartIssuance",
      "SubmitCsr",
    ]);
    const request = contracts.body.find((c: { name: string }) => c.name === "RequestCertificate");
    // MP7: the data directory's module id is the slug of its [module] name, for contracts as
    // for actions.
    assertEquals(request.module, "certificates");
    assertEquals(request.inputs[1], {
      name: "key_type",
      type: "string",
      required: false,
      default: "ec",
      allowed_values: ["ec", "rsa"],
      description: "Key algorithm of the certificate",
    });
    // No host has a ready request yet: the template expands to nothing.
    assertEquals((await t.call("GET", "/api/actions")).body, []);
    // TLS-01 finds the internet-facing hosts without a valid certificate.
    const findings = t.engine.current.graph.resourcesOf("policy_violation").map((r) => r.name);
    assertEquals(findings.sort(), ["violation-TLS-01-api-1", "violation-TLS-01-web-2"]);
  } finally {
    await t.close();
  }
});

Deno.test("§3 AC45 AC11 AC12 AC13 AC20 the whole certificate workflow: intake, CSR, issue action with write-back, 409, no-op, renewal", async () => {
  const t = await setup();
  try {
    // §3 rule 6: an unknown subject is refused before any write.
    const before = await t.csv("cert_request");
    let r = await t.contract("RequestCertificate", { host: "web-9" });
    assertEquals([r.status, r.body.type], [404, "urn:graphsvc:problem:not-found"]);
    assertEquals(await t.csv("cert_request"), before);

    // Intake creates a pending request expiring in 72 h and clears the host's mirrors.
    const now = Date.now();
    r = await t.contract("RequestCertificate", { host: "web-2", requested_by: "alice" });
    assertEquals(r.status, 200);
    assertEquals(r.body.writes.map((w: { result: string }) => w.result), ["created", "updated"]);
    const item = r.body.writes[0].item;
    assertEquals([item.name, item.host, item.status, item.key_type], [
      "req-web-2",
      "web-2",
      "pending",
      "ec",
    ]);
    const ttl = Date.parse(item.expires_at) - now;
    assert(ttl > 71 * 3600_000 && ttl <= 72 * 3600_000 + 60_000, item.expires_at);
    assertEquals((await t.row("host", "web-2"))?.cert_status, "pending");

    // §3 rule 3: intake again returns the live item; the host write is skipped.
    r = await t.contract("RequestCertificate", { host: "web-2", key_type: "rsa" });
    assertEquals(r.body.writes.map((w: { result: string }) => w.result), ["existing", "skipped"]);
    assertEquals(r.body.writes[0].item, item);

    // §3 rule 2: pending cannot become valid.
    const pending = await t.csv("cert_request");
    r = await t.contract("CompleteCertificate", {
      host: "web-2",
      serial: "00",
      not_after: "2030-01-01T00:00:00Z",
    });
    assertEquals([r.status, r.body.type], [409, "urn:graphsvc:problem:invalid-transition"]);
    assertEquals(await t.csv("cert_request"), pending);
    assertEquals(await t.row("certificate", "cert-web-2"), undefined);

    // pending → ready, the CSR mirrored onto the host (§2.8 rule 3).
    r = await t.contract("SubmitCsr", { host: "web-2", csr: CSR });
    assertEquals(r.status, 200);
    assertEquals((await t.row("cert_request", "req-web-2"))?.status, "ready");
    assertEquals((await t.row("host", "web-2"))?.csr, CSR);

    // AC4 AC10: one concrete action per host with a ready request.
    const actions = (await t.call("GET", "/api/actions")).body;
    assertEquals(actions.map((a: { name: string }) => a.name), ["issue-certificate-web-2"]);
    const action = actions[0];
    assertEquals([action.origin, action.template, action.run_mode], [
      { type: "host", name: "web-2" },
      "issue-certificate",
      "job",
    ]);

    // AC12 AC15 AC20: the bundle holds payload, env from the graph, the rendered file, the
    // mounted output artifact, the runtime script and the sealed (never plain) EAB key.
    const download = await t.call(
      "POST",
      `/api/actions/${action.module}/${action.name}?download=true`,
      {},
    );
    assertEquals(download.status, 200);
    assertEquals(download.res.headers.get("content-type"), "application/gzip");
    const bundle = unpackBundle(new Uint8Array(await download.res.arrayBuffer()));
    assertEquals(bundle.entries.map((e) => e.path), [
      "env.json", // AC17: sorted entries
      "files/acme-account.json",
      "files/order.json",
      "manifest.json",
      "payload.json",
      "runtime/issue-certificate.sh",
      "secrets.sealed.json",
    ]);
    assertEquals(bundle.payload, { dry_run: false });
    assertEquals(bundle.env, {
      FQDN: "web-2.shop.example.org",
      ZONE: "shop.example.org",
      DNS_PROVIDER: "route53",
      KEY_TYPE: "ec",
      CSR,
      ACME_DIRECTORY: "https://acme.ca.example.org/directory",
      GRAPHSVC_API: String(t.engine.params.api_url),
    });
    assertEquals(bundle.manifest.exec, [["issue-certificate.sh", "false"]]);
    assertEquals(bundle.manifest.secrets, ["ACME_EAB_HMAC_KEY"]);
    assertEquals(bundle.sealed.map((s) => s.name), ["ACME_EAB_HMAC_KEY"]);
    const account = bundle.entries.find((e) => e.path === "files/acme-account.json")!;
    assertEquals(JSON.parse(new TextDecoder().decode(account.bytes)).external_account_binding, {
      kid: "kid-7f3a9c",
    });
    for (const e of bundle.entries) {
      assert(!new TextDecoder().decode(e.bytes).includes(EAB_KEY), e.path);
    }
    assertEquals((await t.call("GET", "/api/actions/runs")).body, [], "a download queues nothing");

    // A dry run checks everything and writes nothing back.
    let run = await t.run(action.module, action.name, { dry_run: true });
    assertEquals([run.status, run.exit_code], ["succeeded", 0]);
    assertEquals(run.log_tail.at(-1), "dry run: nothing ordered, nothing written back");
    assertEquals((await t.row("cert_request", "req-web-2"))?.status, "ready");

    // The real run: ready → processing → valid written back by the script (§3 rule 7).
    run = await t.run(action.module, action.name, {});
    assertEquals([run.status, run.exit_code, run.error], ["succeeded", 0, null]);
    assert(run.log_tail.includes("wrote back: StartIssuance"), run.log_tail.join("\n"));
    assert(run.log_tail.includes("wrote back: CompleteCertificate"), run.log_tail.join("\n"));
    assert(run.log_tail.includes("external account binding key: 32 characters"));
    assert(!JSON.stringify((await t.call("GET", "/api/actions/runs")).body).includes(EAB_KEY));
    const log = await t.call("GET", `/api/actions/runs/${run.id}/log`);
    assert((await log.res.text()).includes("data: RUN_SUCCEEDED"));

    // The resulting rows: tracker valid; certificate with relation column and cheap foreign key
    // in sync (§2.8 rule 2); host linked to its certificate; the finding is gone.
    assertEquals((await t.row("cert_request", "req-web-2"))?.status, "valid");
    const cert = (await t.row("certificate", "cert-web-2"))!;
    assertEquals([cert.cert_request, cert.request_id, cert.status], [
      "req-web-2",
      "req-web-2",
      "active",
    ]);
    assert(/^[0-9a-f]{16}$/.test(cert.serial), cert.serial);
    const host = (await t.row("host", "web-2"))!;
    assertEquals([host.cert_status, host.certificate], ["valid", "cert-web-2"]);
    const graph = t.engine.current.graph;
    assertEquals(graph.getResource("policy_violation", "violation-TLS-01-web-2"), undefined);
    assertEquals((await t.call("GET", "/api/actions")).body, [], "web-2 is no longer ready");

    // §3 rule 2: repeating the finalising call is a no-op (200, unchanged, no file touched).
    const files = [await t.csv("cert_request"), await t.csv("certificate"), await t.csv("host")];
    r = await t.contract("CompleteCertificate", {
      host: "web-2",
      serial: cert.serial,
      not_after: cert.not_after,
    });
    assertEquals(r.status, 200);
    assertEquals(r.body.writes.map((w: { result: string }) => w.result), [
      "unchanged",
      "unchanged",
      "unchanged",
    ]);
    assertEquals(
      [await t.csv("cert_request"), await t.csv("certificate"), await t.csv("host")],
      files,
    );

    // A transition out of a terminal state is 409 invalid-transition.
    r = await t.contract("SubmitCsr", { host: "web-2", csr: CSR });
    assertEquals([r.status, r.body.type], [409, "urn:graphsvc:problem:invalid-transition"]);
    assert(r.body.detail.includes("from 'valid' to 'ready'"), r.body.detail);

    // Renewal: intake after a terminal item restarts the cycle in place and clears the stale
    // mirrors; the issued certificate stays until its successor replaces it.
    r = await t.contract("RequestCertificate", { host: "web-2" });
    assertEquals(r.body.writes.map((w: { result: string }) => w.result), ["restarted", "updated"]);
    const renewed = (await t.row("cert_request", "req-web-2"))!;
    assertEquals([renewed.status, renewed.csr, renewed.requested_by], ["pending", "", "api"]);
    const host2 = (await t.row("host", "web-2"))!;
    assertEquals([host2.csr, host2.cert_status, host2.certificate], ["", "pending", "cert-web-2"]);

    // §3 rule 4: an expired item is terminal (here its expiry is set in the past by hand)...
    const put = await t.call("PUT", "/api/mutations/cert_request/req-web-2", {
      expires_at: "2020-01-01T00:00:00Z",
    });
    assertEquals(put.status, 200);
    await t.engine.waitFor(put.body.generation ?? t.engine.requestRebuild());
    r = await t.contract("SubmitCsr", { host: "web-2", csr: CSR });
    assertEquals([r.status, r.body.type], [409, "urn:graphsvc:problem:invalid-transition"]);
    assert(r.body.detail.includes("from 'expired' to 'ready'"), r.body.detail);
    // ...and intake starts a new cycle for it.
    r = await t.contract("RequestCertificate", { host: "web-2" });
    assertEquals(r.body.writes[0].result, "restarted");
    assert(Date.parse(r.body.writes[0].item.expires_at) > Date.now());
  } finally {
    await t.close();
  }
});

Deno.test("§3 rule 7 AC30 a failing issue run ends the request in invalid and exits non-zero; repeating the failure is a no-op", async () => {
  const t = await setup();
  try {
    await t.contract("RequestCertificate", { host: "api-1" });
    await t.contract("SubmitCsr", { host: "api-1", csr: "not a csr" });
    const [action] = (await t.call("GET", "/api/actions")).body;
    assertEquals(action.name, "issue-certificate-api-1");
    const run = await t.run(action.module, action.name, {});
    assertEquals([run.status, run.exit_code], ["failed", 1]);
    assert(run.log_tail.includes("wrote back: FailCertificate"), run.log_tail.join("\n"));
    const request = (await t.row("cert_request", "req-api-1"))!;
    assertEquals([request.status, request.failure_reason], [
      "invalid",
      "the CSR is not a PEM certificate request",
    ]);
    assertEquals((await t.row("host", "api-1"))?.cert_status, "invalid");
    assertEquals(await t.row("certificate", "cert-api-1"), undefined);
    const r = await t.contract("FailCertificate", {
      host: "api-1",
      reason: "the CSR is not a PEM certificate request",
    });
    assertEquals(r.status, 200);
    assertEquals(r.body.writes.map((w: { result: string }) => w.result), [
      "unchanged",
      "unchanged",
    ]);
    assert(
      t.engine.current.graph.getResource("policy_violation", "violation-TLS-01-api-1"),
      "an invalid request leaves the finding in place",
    );
  } finally {
    await t.close();
  }
});

Deno.test("AC22 without a vault nothing is sealed and the run fails with secrets_unavailable", async () => {
  const dir = await Deno.makeTempDir({ prefix: "certificates-example-" });
  try {
    await copyDir(EXAMPLE, `${dir}/data`);
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(`${dir}/data`),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
    });
    const link = attachActionService(engine, {
      runner: denoActionRunner({ dataDir: `${dir}/data`, killGraceMs: 200 }),
    });
    await engine.rebuild();
    await link.ready;
    const app = createApp(engine, { actions: link.service });
    const post = (path: string, body: unknown) =>
      Promise.resolve(app.fetch(
        new Request(`http://127.0.0.1${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      ));
    for (
      const [name, body] of [["RequestCertificate", { host: "web-2" }], ["SubmitCsr", {
        host: "web-2",
        csr: CSR,
      }]] as const
    ) {
      const res = await post(`/api/contracts/${name}`, body);
      assertEquals(res.status, 200);
      await engine.waitFor((await res.json()).generation);
    }
    await link.service.whenRefreshed();
    const [action] = link.service.list();
    const bundle = unpackBundle(
      new Uint8Array(
        await (await post(`/api/actions/${action.module}/${action.name}?download=true`, {}))
          .arrayBuffer(),
      ),
    );
    assertEquals([bundle.manifest.secrets, bundle.sealed], [["ACME_EAB_HMAC_KEY"], []]);
    const res = await post(`/api/actions/${action.module}/${action.name}`, {});
    assertEquals(res.status, 202);
    const record = (await link.service.settled((await res.json()).id))!;
    // The script ran without the key (and failed for it); the run names the missing secret.
    assertEquals([record.status, record.error, record.exit_code], [
      "failed",
      "secrets_unavailable: ACME_EAB_HMAC_KEY",
      2,
    ]);
    await link.service.stopAll();
    link.detach();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
