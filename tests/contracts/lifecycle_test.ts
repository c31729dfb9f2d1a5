/**
 * Contract calls through the real write service (AC43–AC45, spec §3): every lifecycle
 * transition, 409 invalid-transition, the repeated-finalising no-op, intake returning the live
 * item, registry validation before any write, expiry, and all-or-nothing writes.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { ContractCallError } from "../../lib/contracts/types.ts";
import { FILES, setup } from "./_fixture.ts";

async function refused(p: Promise<unknown>): Promise<ContractCallError> {
  return await assertRejects(() => p, ContractCallError);
}

Deno.test("AC43/§3: the full cycle pending → ready → processing → valid, with mirrors on the resource", async () => {
  const { call, text } = await setup();
  const intake = await call("RequestCertificate", { host: "web-1" });
  assertEquals(intake.writes.map((w) => [w.key, w.result]), [
    ["req-web-1", "created"],
    ["web-1", "updated"],
  ]);
  assertEquals(intake.writes[0].item?.status, "pending");
  assertEquals(intake.writes[0].item?.expires_at, "2026-01-02T00:00:00.000Z"); // now + ttl 24h
  assert(intake.changed && intake.generation === 2);
  await call("SubmitCsr", { host: "web-1", csr: "CSR-1" });
  await call("Transition", { host: "web-1", to: "processing" });
  const done = await call("Transition", { host: "web-1", to: "valid" });
  assertEquals(done.writes.map((w) => w.result), ["updated", "updated"]);
  assertEquals(
    await text("assets/cert_request.csv"),
    "name,host,key_type,status,expires_at,csr\nreq-web-1,web-1,ec,valid,2026-01-02T00:00:00.000Z,CSR-1\n",
  );
  assertEquals(
    await text("assets/host.csv"),
    "name,os,csr,cert_status\nweb-1,linux,CSR-1,valid\nweb-2,bsd,,\n",
  );
});

Deno.test("AC45/§3 rule 2: a repeated finalising call is a no-op (unchanged, no rebuild)", async () => {
  const { call, text } = await setup();
  await call("RequestCertificate", { host: "web-1" });
  await call("SubmitCsr", { host: "web-1", csr: "C" });
  await call("Transition", { host: "web-1", to: "processing" });
  const first = await call("Transition", { host: "web-1", to: "invalid" });
  const before = await text("assets/cert_request.csv");
  const again = await call("Transition", { host: "web-1", to: "invalid" });
  assertEquals(again.writes.map((w) => w.result), ["unchanged", "unchanged"]);
  assertEquals(again.changed, false);
  assertEquals(again.generation, first.generation);
  assertEquals(await text("assets/cert_request.csv"), before);
});

Deno.test("AC45/§3 rule 2: a transition on a terminal item is 409 invalid-transition and writes nothing", async () => {
  const { call, text } = await setup();
  await call("RequestCertificate", { host: "web-1" });
  await call("SubmitCsr", { host: "web-1", csr: "C" });
  await call("Transition", { host: "web-1", to: "processing" });
  await call("Transition", { host: "web-1", to: "valid" });
  const hosts = await text("assets/host.csv");
  const e = await refused(call("Transition", { host: "web-1", to: "invalid" }));
  assertEquals([e.status, e.slug], [409, "invalid-transition"]);
  assert(e.message.includes("'valid'"), e.message);
  // The second write (host mirror) would have succeeded: it is not applied either.
  assertEquals(await text("assets/host.csv"), hosts);
});

Deno.test("§3 rule 2: transitions only from the expected predecessor (skipping a state is 409)", async () => {
  const { call } = await setup();
  await call("RequestCertificate", { host: "web-1" });
  // pending → processing skips ready.
  const e1 = await refused(call("Transition", { host: "web-1", to: "processing" }));
  assertEquals(e1.slug, "invalid-transition");
  // pending → valid skips two.
  const e2 = await refused(call("Transition", { host: "web-1", to: "valid" }));
  assertEquals(e2.status, 409);
  // pending → invalid ends the failure path explicitly.
  const ok = await call("Transition", { host: "web-1", to: "invalid" });
  assertEquals(ok.writes[0].result, "updated");
});

Deno.test("§3 rule 3: intake returns the existing non-final item and writes nothing", async () => {
  const { call, text } = await setup();
  const first = await call("RequestCertificate", { host: "web-1" });
  await call("SubmitCsr", { host: "web-1", csr: "C" });
  const before = [await text("assets/cert_request.csv"), await text("assets/host.csv")];
  const again = await call("RequestCertificate", { host: "web-1", key_type: "rsa" });
  assertEquals(again.writes.map((w) => w.result), ["existing", "skipped"]);
  assertEquals(again.writes[0].key, "req-web-1");
  assertEquals(again.writes[0].item?.status, "ready");
  assertEquals(again.changed, false);
  assertEquals(again.generation, first.generation + 1); // only SubmitCsr rebuilt
  assertEquals([await text("assets/cert_request.csv"), await text("assets/host.csv")], before);
});

Deno.test("§3 rules 3/4: an expired item (or a missing expiry) is terminal: intake starts a new cycle and clears mirrors", async () => {
  const { call, text, setClock } = await setup();
  await call("RequestCertificate", { host: "web-1" });
  await call("SubmitCsr", { host: "web-1", csr: "OLD" });
  setClock("2026-01-03T00:00:00Z"); // past the 24h TTL
  const e = await refused(call("Transition", { host: "web-1", to: "processing" }));
  assertEquals(e.slug, "invalid-transition");
  assert(e.message.includes("'expired'"), e.message);
  const restart = await call("RequestCertificate", { host: "web-1" });
  assertEquals(restart.writes.map((w) => w.result), ["restarted", "updated"]);
  assertEquals(restart.writes[0].item?.status, "pending");
  assertEquals(restart.writes[0].item?.expires_at, "2026-01-04T00:00:00.000Z");
  assertEquals(
    await text("assets/host.csv"),
    "name,os,csr,cert_status\nweb-1,linux,,pending\nweb-2,bsd,,\n",
  );
});

Deno.test("§3 rule 4: an unparseable expiry counts as expired", async () => {
  const files = {
    ...FILES,
    "assets/cert_request.csv":
      "name,host,key_type,status,expires_at,csr\nreq-web-1,web-1,ec,ready,soon,\n",
  };
  const { call } = await setup(files);
  const e = await refused(call("Transition", { host: "web-1", to: "processing" }));
  assertEquals(e.slug, "invalid-transition");
  const again = await call("RequestCertificate", { host: "web-1" });
  assertEquals(again.writes[0].result, "restarted");
});

Deno.test("§3 rule 4: the expiry survives merge updates", async () => {
  const { call, text } = await setup();
  await call("RequestCertificate", { host: "web-1" });
  await call("SubmitCsr", { host: "web-1", csr: "C" });
  assert((await text("assets/cert_request.csv"))!.includes("2026-01-02T00:00:00.000Z"));
});

Deno.test("§3 rule 6: intake validates the subject against the registry first; no rows on failure", async () => {
  const { call, text } = await setup();
  const e = await refused(call("RequestCertificate", { host: "db-9" }));
  assertEquals([e.status, e.slug], [404, "not-found"]);
  assertEquals(e.message, "host 'db-9' is not registered");
  assertEquals(await text("assets/cert_request.csv"), FILES["assets/cert_request.csv"]);
  assertEquals(await text("assets/host.csv"), FILES["assets/host.csv"]);
});

Deno.test("AC43: all or nothing — the second write fails validation, the first file keeps its bytes", async () => {
  const { call, text } = await setup({
    ...FILES,
    // The host row of web-1 is missing: the second (update) write is a 404.
    "assets/host.csv": "name,os,csr,cert_status\nweb-2,bsd,,\n",
    "contracts/request.toml": FILES["contracts/request.toml"].replace(/\[\[require\]\][^[]*/, ""),
  });
  const before = await text("assets/cert_request.csv");
  const e = await refused(call("RequestCertificate", { host: "web-1" }));
  assertEquals(e.status, 404);
  assertEquals(await text("assets/cert_request.csv"), before);
});

Deno.test("AC43: all or nothing — the commit of the second file fails, the first is restored", async () => {
  const { call, text } = await setup(FILES, (memory) => ({
    location: memory.location,
    readText: (p) => memory.readText(p),
    listFiles: (d) => memory.listFiles(d),
    writeTextAtomic: (p, t) =>
      p === "assets/host.csv"
        ? Promise.reject(new Error("disk full"))
        : memory.writeTextAtomic(p, t),
  }));
  const before = await text("assets/cert_request.csv");
  const err = await assertRejects(() => call("RequestCertificate", { host: "web-1" }));
  assertEquals(err.message, "disk full");
  assertEquals(await text("assets/cert_request.csv"), before);
  assertEquals(await text("assets/host.csv"), FILES["assets/host.csv"]);
});

Deno.test("AC41: add is 409 duplicate-key when the key exists; delete removes matched rows", async () => {
  const files = {
    "assets/device.csv": "name,env\ndev-1,dev\n",
    "contracts/add.toml":
      'name = "AddDevice"\n[[input]]\nname = "id"\nrequired = true\n[[write]]\ntarget_asset = "device.csv"\naction = "add"\nrecord = { name = "{{ input.id }}", env = "dev" }\n',
    "contracts/del.toml":
      'name = "DeleteDevice"\n[[input]]\nname = "id"\nrequired = true\n[[write]]\ntarget_asset = "device"\naction = "delete"\nlookup_by = { name = "{{ input.id }}" }\nexpect = { env = ["dev"] }\n',
  };
  const { call, text } = await setup(files);
  const e = await refused(call("AddDevice", { id: "dev-1" }));
  assertEquals([e.status, e.slug], [409, "duplicate-key"]);
  assertEquals((await call("AddDevice", { id: "dev-2" })).writes[0].result, "created");
  assertEquals((await call("DeleteDevice", { id: "dev-1" })).writes[0].result, "deleted");
  assertEquals((await call("DeleteDevice", { id: "dev-1" })).writes[0].result, "unchanged");
  assertEquals(await text("assets/device.csv"), "name,env\ndev-2,dev\n");
});

Deno.test("AC45: expect on a plain column — a failed precondition is 409 invalid-transition", async () => {
  const files = {
    "assets/order.csv": "name,phase\no-1,draft\n",
    "contracts/submit.toml":
      'name = "Submit"\n[[write]]\ntarget_asset = "order"\naction = "update"\nlookup_by = { name = "o-1" }\nrecord = { phase = "submitted" }\nexpect = { phase = ["draft"] }\n',
    "contracts/close.toml":
      'name = "Close"\n[[write]]\ntarget_asset = "order"\naction = "update"\nlookup_by = { name = "o-1" }\nrecord = { phase = "closed" }\nexpect = { phase = ["draft"] }\n',
  };
  const { call } = await setup(files);
  assertEquals((await call("Submit", {})).writes[0].result, "updated");
  assertEquals((await call("Submit", {})).writes[0].result, "unchanged");
  const e = await refused(call("Close", {}));
  assertEquals(e.slug, "invalid-transition");
});

Deno.test("§2.8 rule 2: one call keeps a foreign-key column and its relation column in sync", async () => {
  const files = {
    "assets/order.csv": "name\no-1\n",
    "assets/shipment.csv": "name,order_id,order\n",
    "contracts/ship.toml":
      'name = "Ship"\n[[input]]\nname = "order"\nrequired = true\n[[write]]\ntarget_asset = "shipment"\naction = "upsert"\nrecord = { name = "s-{{ input.order }}", order_id = "{{ input.order }}", order = "{{ input.order }}" }\n',
  };
  const { call, text } = await setup(files);
  await call("Ship", { order: "o-1" });
  assertEquals(await text("assets/shipment.csv"), "name,order_id,order\ns-o-1,o-1,o-1\n");
});
