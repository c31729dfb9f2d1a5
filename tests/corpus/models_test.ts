/**
 * Every corpus data directory (and module) through the model phase. Facts below were derived by
 * reading the corpus files (CSV rows, model rules, input JSON); the comments say where from.
 * Needs --allow-read (ignored without it).
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";
import { buildSources, edges, errors, get, names } from "../pipeline/models/_support.ts";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname.replace(/\/$/, "");
const canRead = Deno.permissions.querySync({ name: "read", path: CORPUS }).state === "granted";

async function build(dataDir: string | undefined, module?: string) {
  const data = new DenoFsWorkspace(dataDir ? `${CORPUS}/${dataDir}` : await Deno.makeTempDir());
  const modules = module
    ? [{ id: module, workspace: new DenoFsWorkspace(`${CORPUS}/${module}`) }]
    : [];
  return buildSources(await loadSourceSet(data, modules));
}

function corpusTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `corpus models: ${name}`, ignore: !canRead, fn });
}

corpusTest(
  "rescile-example-firewall-matrix-generation (M44 pull path, legacy on, order)",
  async () => {
    const r = await build("rescile-example-firewall-matrix-generation/data");
    assertEquals(errors(r), []);
    // networks.csv: dmz-prod=DMZ, internal-prod=INTERNAL; servers.csv links servers to networks;
    // applications.csv links apps to servers; connections.csv: web-to-api, api-to-auth.
    equal(get(r.graph, "applications", "web-frontend").properties.zone, "DMZ");
    equal(get(r.graph, "applications", "auth-service").properties.zone, "INTERNAL");
    const c = get(r.graph, "connections", "web-to-api").properties;
    assertEquals([c.source_zone, c.dest_zone], ["DMZ", "INTERNAL"]);
    const c2 = get(r.graph, "connections", "api-to-auth").properties;
    assertEquals([c2.source_zone, c2.dest_zone], ["INTERNAL", "INTERNAL"]);
    assertEquals([r.passes, r.converged], [2, true]);
  },
);

corpusTest("rescile-example-netbox-vm-verification (three chunks in one file)", async () => {
  const r = await build("rescile-example-netbox-vm-verification/data");
  assertEquals(errors(r), []);
  // chunk 1: one server per netbox_vms row, _DEFINED_BY from the VM.
  assertEquals(names(r.graph, "server"), ["acc-db-01", "web-server-01", "win-server-01"]);
  assertEquals(edges(r.graph, "_DEFINED_BY").length, 3);
  equal(get(r.graph, "server", "acc-db-01").properties.os_type, "rhel");
  // chunk 3: teams.csv finance-apps -> Finance; netbox_ips 10.0.1.55 is on dmz-prod (true).
  equal(get(r.graph, "server", "acc-db-01").properties.business_unit, "Finance");
  assertEquals(edges(r.graph, "HAS_IP"), [
    "acc-db-01->10.0.1.55",
    "web-server-01->192.168.10.20",
    "win-server-01->10.0.1.56",
  ]);
  equal(get(r.graph, "server", "acc-db-01").properties.has_internet_access, "true");
  equal(get(r.graph, "server", "web-server-01").properties.has_internet_access, "false");
});

corpusTest(
  "rescile-example-terraform (nested header table, on, copy_property rename)",
  async () => {
    const r = await build("rescile-example-terraform/data");
    assertEquals(errors(r), []);
    // subscription.csv api-gateway-prod-eu: prod/small -> Standard_B2s; application api-gateway.
    const s = get(r.graph, "server", "api-gateway-prod-eu_server").properties;
    equal(s.instance_type, "Standard_B2s");
    equal(s.os_image, "ubuntu-22.04-lts");
    equal(s.owner, "team-alpha");
    equal(
      get(r.graph, "server", "billing-service-dev-us_server").properties.instance_type,
      "Standard_B1s",
    );
    assertEquals(edges(r.graph, "IS_INSTANCE_OF").length, 3);
  },
);

corpusTest(
  "public_dns (joins over 2000 records, template! headers, create_from list)",
  async () => {
    const r = await build("public_dns/data");
    assertEquals(errors(r), []);
    // one zone per auth row (101 rows), named by the lower-cased auth name.
    equal(names(r.graph, "zone").length, names(r.graph, "auth").length);
    equal(names(r.graph, "zone").length, 101);
    // operator.json: rescile -> "Rescile"; operator.toml lower-cases it.
    assertEquals(names(r.graph, "operator"), ["rescile"]);
    equal(get(r.graph, "operator", "rescile").properties.technical_admin, "technical@operator.com");
    // every `a` record whose zone names an auth is linked from that zone.
    const zones = new Set(names(r.graph, "zone"));
    const expectedA = r.graph.resourcesOf("a").filter((a) => zones.has(String(a.properties.zone)));
    ok(expectedA.length > 400);
    equal(edges(r.graph, "has_a_record").length, expectedA.length);
    // auth oninventx.com has vanity "ns1.ixcloud.ch, ns2.ixcloud.ch" (note the space).
    ok(edges(r.graph, "SERVES").includes("oninventx.com->ns2.ixcloud.ch"));
    // vanity_ns.json: ns1.ixcloud.ch provider cloudflare.
    equal(get(r.graph, "nameserver", "ns1.ixcloud.ch").properties.provider, "cloudflare");
    equal(get(r.graph, "zone", "oninventx.com").properties.dns_topology, "active");
    equal(get(r.graph, "zone", "abrs.ch").properties.dns_topology, "default");
    ok(r.converged && r.passes <= 2, `passes ${r.passes}`);
  },
);

corpusTest(
  "aws_transit_hub (global files, params, function!; one genuine template error)",
  async () => {
    const r = await build("aws_transit_hub/data");
    // region.toml looks up aws_region_service.json by region code, but the file is keyed by
    // region display names ("Europe (Zurich)"): an undefined lookup, a build error per T3.
    const errs = r.issues.filter((i) => i.severity === "error");
    assertEquals(errs.map((e) => [e.code, e.file, e.line, e.rule]), [
      [
        "template_error",
        "models/region.toml",
        30,
        "chunk 1, create_resource[0].properties.service",
      ],
    ]);
    // identity.csv has 6 rows -> 6 logins; platform.toml runs once with params provider/location.
    equal(names(r.graph, "login").length, 6);
    equal(names(r.graph, "platform").length, 1);
    equal(names(r.graph, "router").length, 1);
  },
);

corpusTest("oci_landing_zone (header before origin_resource, join matching nothing)", async () => {
  const r = await build("oci_landing_zone/data");
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "router"), ["cloud_management_router", "oracle_core_router"]);
  // router.toml: function "core" is neither access nor edge -> "cpe".
  equal(get(r.graph, "router", "oracle_core_router").properties.function, "cpe");
  equal(names(r.graph, "login").length, 6);
  // provider admins are account_manager/root_administrator; logins are name_function.
  assertEquals(edges(r.graph, "RESPONSIBLE_FOR"), []);
  equal(names(r.graph, "subscription").length, 1);
});

corpusTest("aws-region-module actions branch (module.name, template! per item)", async () => {
  const r = await build("aws-region-module__actions-branch/data");
  assertEquals(errors(r), []);
  // subscription.toml: solution = words 2.. of "AWS Transit Hub" joined, lower -> transithub.
  assertEquals(names(r.graph, "subscription"), ["transithub"]);
  // account.toml reads origin_resource.provider[0].name through DEFINED_BY -> provider "aws".
  equal(get(r.graph, "account", "transithub_dev").properties.pid, "aws_id");
  ok(r.converged);
});

corpusTest("base-subscription-module and aws-region-module on an empty data dir", async () => {
  for (const m of ["base-subscription-module", "aws-region-module"]) {
    const r = await build(undefined, m);
    assertEquals(errors(r), [], m);
    equal(r.stats.resources, 0, m);
  }
});

corpusTest(
  "base-subscription-module with a resident (create_from as, arrays, chunks)",
  async () => {
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(`${dir}/assets`);
    await Deno.mkdir(`${dir}/input`);
    await Deno.writeTextFile(`${dir}/assets/resident.csv`, "name\nAcme\n");
    await Deno.writeTextFile(
      `${dir}/input/location_codes.json`,
      JSON.stringify({ zrh: { city: "Zurich", iata: "ZRH", tz: "Europe/Zurich" } }),
    );
    const sources = await loadSourceSet(new DenoFsWorkspace(dir), [{
      id: "base-subscription-module",
      workspace: new DenoFsWorkspace(`${CORPUS}/base-subscription-module`),
    }]);
    const r = buildSources(sources, { params: { subscription: "core", location: "zurich" } });
    assertEquals(errors(r), []);
    const subs = names(r.graph, "subscription");
    equal(subs.length, 1);
    const sub = get(r.graph, "subscription", subs[0]).properties;
    assertEquals(sub.environment, ["DEV", "PROD", "INT", "SRE"]);
    equal(sub.logging, true);
    // location.toml: create_from home (= location param) as "location", data from jmespath.
    equal(get(r.graph, "location", "zurich").properties.code, "ZRH");
    // observability.toml: logging/auditing true -> util log_archive and audit.
    assertEquals(names(r.graph, "util"), ["audit", "log_archive"]);
    equal(names(r.graph, "role").length, 6);
    await Deno.remove(dir, { recursive: true });
  },
);
