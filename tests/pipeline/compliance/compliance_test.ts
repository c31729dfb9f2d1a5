import { assert, assertEquals } from "../../_assert.ts";
import { aggregate } from "../../../lib/pipeline/compliance/mod.ts";
import { assertClean, buildCompliance, issuesOf, props, rel, res } from "./_support.ts";

const SERVERS = "name,business_unit,has_internet_access,os_type,cluster\n" +
  "fin-01,Finance,true,linux,c1\nfin-02,Finance,false,windows,windows-cluster-prod\n" +
  "web-03,Retail,true,windows,c2\n";

Deno.test("C40: aggregate collects de-duplicated values and keeps a single value scalar", () => {
  assertEquals(aggregate(undefined, "pci"), "pci");
  assertEquals(aggregate("pci", "gdpr"), ["pci", "gdpr"]);
  assertEquals(aggregate("pci", "pci"), "pci");
  assertEquals(aggregate(["pci", "gdpr"], ["gdpr", "iso"]), ["pci", "gdpr", "iso"]);
  assertEquals(aggregate({ a: 1, b: 2 }, { b: 2, a: 1 }), { a: 1, b: 2 });
});

Deno.test("C10/C11/C40: origin mutation merges properties and appends a control entry", async () => {
  const r = await buildCompliance({
    "assets/service.csv": "name,tags\napi,pci\nweb,\n",
    "assets/package.csv": "name\nopenssl\n",
    "compliance/patch.toml": `audit_id = "A1"
[[control]]
id = "PATCH"
name = "Patching"
[[control.target]]
description = "All services and packages are patched."
origin_resource_types = ["service", "package"]
[control.target.resource.properties]
patch_level = "current"
tags = "gdpr"
`,
  });
  assertClean(r);
  const api = props(res(r.graph, "service", "api"));
  assertEquals(api.patch_level, "current");
  assertEquals(api.tags, ["pci", "gdpr"]);
  assertEquals(api.controls, {
    control_id: "PATCH",
    control_name: "Patching",
    audit_id: "A1",
    evidence_summary: "All services and packages are patched.",
  });
  assertEquals(props(res(r.graph, "package", "openssl")).patch_level, "current");
});

Deno.test("C3/C5: legacy origin_resource_type string and a description-only target", async () => {
  const r = await buildCompliance({
    "assets/subscription.csv": "name\ns1\ns2\n",
    "compliance/c.toml": `audit_id = "ISAE3000"
audit_name = "Assurance Report"
[[control]]
id = "COMPLIANCE"
name = "Outsourcing"
[[control.target]]
description = "List cloud providers."
origin_resource_type = "subscription"
`,
  });
  assertClean(r);
  for (const n of ["s1", "s2"]) {
    const c = props(res(r.graph, "subscription", n)).controls as Record<string, string>;
    assertEquals(c.control_id, "COMPLIANCE");
    assertEquals(c.evidence_summary, "List cloud providers.");
  }
});

Deno.test("C12/C13/M70: attached resources with relation, match_on with value=true and not", async () => {
  const r = await buildCompliance({
    "assets/server.csv": SERVERS,
    "compliance/placement.toml": `audit_id = "CORP"
[[control]]
id = "FIN-SEC-01"
name = "No Internet Access for Finance Systems"
[[control.target]]
origin_resource_type = "server"
match_on = [
  { property = "business_unit", value = "Finance" },
  { property = "has_internet_access", value = true }
]
[control.target.resource]
type = "placement_violation"
name = "violation-internet-{{ origin_resource.name }}"
[control.target.resource.properties]
server_name = "{{ origin_resource.name }}"
violating_value = "{{ origin_resource.has_internet_access }}"
[control.target.relation]
type = "HAS_VIOLATION"

[[control]]
id = "WIN-POLICY-04"
name = "Windows Cluster Placement"
[[control.target]]
origin_resource_type = "server"
match_on = [
  { property = "os_type", value = "windows" },
  { property = "cluster", not = "windows-cluster-prod" }
]
[control.target.resource]
type = "placement_violation"
name = "violation-cluster-{{ origin_resource.name }}"
`,
  });
  assertClean(r);
  const names = r.graph.resourcesOfSorted("placement_violation").map((x) => x.name);
  assertEquals(names, ["violation-cluster-web-03", "violation-internet-fin-01"]);
  const v = res(r.graph, "placement_violation", "violation-internet-fin-01");
  assertEquals(props(v).server_name, "fin-01");
  assertEquals(props(v).violating_value, "true");
  const e = rel(r.graph, res(r.graph, "server", "fin-01"), "HAS_VIOLATION", v);
  assertEquals((e.properties.controls as Record<string, string>).control_id, "FIN-SEC-01");
  // C13: default relation type GOVERNED_BY
  rel(
    r.graph,
    res(r.graph, "server", "web-03"),
    "GOVERNED_BY",
    res(r.graph, "placement_violation", "violation-cluster-web-03"),
  );
});

Deno.test("C15/S1.11: findings default to policy_violation named violation-<rule>-<resource>", async () => {
  const r = await buildCompliance({
    "assets/host.csv": "name,open_ports\nweb-03,22\ndb-01,\n",
    "compliance/net.toml": `audit_id = "NET"
[[control]]
id = "NET-07"
name = "No SSH from the internet"
[[control.target]]
description = "Port 22 is open."
origin_resource_types = "host"
match_on = [{ property = "open_ports", value = "22" }]
[control.target.resource]
type = "policy_violation"
`,
  });
  assertClean(r);
  assertEquals(r.stats.findings, 1);
  const f = res(r.graph, "policy_violation", "violation-NET-07-web-03");
  assertEquals(props(f), {
    name: "violation-NET-07-web-03",
    control_id: "NET-07",
    audit_id: "NET",
    summary: "Port 22 is open.",
    resource_type: "host",
    resource_name: "web-03",
  });
  rel(r.graph, res(r.graph, "host", "web-03"), "HAS_VIOLATION", f);
});

Deno.test("C14: resource_links by exact name and by match_with, both directions", async () => {
  const r = await buildCompliance({
    "assets/app.csv": "name,team\nshop,blue\n",
    "assets/team.csv": "name\nblue\nred\n",
    "compliance/own.toml": `audit_id = "OWN"
[[control]]
id = "OWN-1"
name = "Ownership"
[[control.target]]
origin_resource_types = ["app"]
[control.target.resource]
type = "attestation"
name = "att-{{ origin_resource.name }}"
[[control.target.resource_links]]
with = "team"
name = "{{ origin_resource.team__value | default(value=origin_resource.team[0].name) }}"
relation_type = "ATTESTED_BY"
[[control.target.resource_links]]
with = "team"
match_with = [{ expression = "target_resource.name == 'red'" }]
relation_type = "REVIEWS"
direction = "incoming"
`,
  });
  assertClean(r);
  const att = res(r.graph, "attestation", "att-shop");
  rel(r.graph, att, "ATTESTED_BY", res(r.graph, "team", "blue"));
  rel(r.graph, res(r.graph, "team", "red"), "REVIEWS", att);
  assert(!r.graph.getRelation(res(r.graph, "team", "blue"), "REVIEWS", att));
});

Deno.test("C20/C21/C22/C41: relation enrichment with properties_from_config and match_on on the source", async () => {
  const files = {
    "assets/app.csv": "name,database,tier\nshop,pg,gold\nblog,pg,bronze\n",
    "assets/database.csv": "name\npg\n",
    "compliance/a.toml": `audit_id = "ISO"
[[control]]
id = "ENC-1"
name = "Encrypted connections"
[control.config]
min_tls = "1.2"
cipher = "aes"
[[control.target]]
description = "TLS enforced"
relation_origin_type = "app"
relation_target_type = "database"
properties_from_config = ["min_tls"]
match_on = [{ property = "tier", value = "gold" }]
`,
    "compliance/b.toml": `audit_id = "SOC2"
[[control]]
id = "ENC-2"
name = "Audited connections"
[[control.target]]
relation_origin_type = "app"
relation_target_type = "database"
`,
  };
  const r = await buildCompliance(files);
  assertClean(r);
  const pg = res(r.graph, "database", "pg");
  const shop = r.graph.outgoing(res(r.graph, "app", "shop")).find((x) => x.target === pg)!;
  assertEquals(shop.properties.controls, [
    {
      control_id: "ENC-1",
      control_name: "Encrypted connections",
      audit_id: "ISO",
      evidence_summary: "TLS enforced",
      min_tls: "1.2",
    },
    { control_id: "ENC-2", control_name: "Audited connections", audit_id: "SOC2" },
  ]);
  const blog = r.graph.outgoing(res(r.graph, "app", "blog")).find((x) => x.target === pg)!;
  assertEquals(blog.properties.controls, {
    control_id: "ENC-2",
    control_name: "Audited connections",
    audit_id: "SOC2",
  });
});

Deno.test("C21: unknown properties_from_config key is a build error", async () => {
  const r = await buildCompliance({
    "assets/app.csv": "name\nshop\n",
    "compliance/a.toml": `audit_id = "ISO"
[[control]]
id = "ENC-1"
name = "x"
[[control.target]]
relation_origin_type = "app"
relation_target_type = "database"
properties_from_config = ["nope"]
`,
  });
  const errors = issuesOf(r, "error");
  assertEquals(errors.length, 1);
  assertEquals(errors[0].code, "control_config_key");
  assertEquals(errors[0].file, "compliance/a.toml");
  assertEquals(errors[0].line, 8);
});

Deno.test("C30/C31/C32: responsibility mapping with overrides and secondary links", async () => {
  const r = await buildCompliance({
    "assets/role.csv": "name\noperator\nowner\n",
    "assets/provider.csv": "name\nteam-blue\nteam-red\n",
    "assets/asset.csv": 'name,operator,accountable\nvm1,team-blue,"team-red, team-ghost"\n',
    "compliance/raci.toml": `audit_id = "RACI"
[[control]]
id = "R1"
name = "Responsibilities"
[[control.target]]
[control.target.map]
derived_type = "role"
origin_resource_types = ["asset"]
target_resource_type = "provider"
primary_relation_type = "HAS_RESPONSIBILITY"
property_on_relation = "role"
link_relation_to_target = true
secondary_relation_type = "FULFILLED_BY"
[control.target.map.property_map_overrides]
accountable = "owner"
`,
  });
  assertClean(r);
  const vm = res(r.graph, "asset", "vm1");
  const blue = res(r.graph, "provider", "team-blue");
  const red = res(r.graph, "provider", "team-red");
  assertEquals(rel(r.graph, vm, "HAS_RESPONSIBILITY", blue).properties.role, "operator");
  assertEquals(rel(r.graph, vm, "HAS_RESPONSIBILITY", red).properties.role, "owner");
  rel(r.graph, res(r.graph, "role", "operator"), "FULFILLED_BY", blue);
  rel(r.graph, res(r.graph, "role", "owner"), "FULFILLED_BY", red);
  const w = issuesOf(r, "warning").filter((i) => i.code === "responsibility_target_missing");
  assertEquals(w.length, 1);
  assert(w[0].message.includes("team-ghost"));
});

Deno.test("C42: a control resource collects evidence; the engine creates none itself", async () => {
  const r = await buildCompliance({
    "assets/control.csv": "name\nPATCH\n",
    "assets/service.csv": "name\napi\nweb\n",
    "compliance/p.toml": `audit_id = "A"
[[control]]
id = "PATCH"
name = "Patching"
[[control.target]]
description = "patched"
origin_resource_types = "service"
[[control]]
id = "OTHER"
name = "Other"
[[control.target]]
origin_resource_types = "service"
`,
  });
  assertClean(r);
  assertEquals(props(res(r.graph, "control", "PATCH")).evidence_summary, [
    "service/api: patched",
    "service/web: patched",
  ]);
  assertEquals(r.graph.getResource("control", "OTHER"), undefined);
});

Deno.test("C1/C2/C4/C50: errors name file and rule, one bad control does not hide others", async () => {
  const r = await buildCompliance({
    "assets/service.csv": "name\napi\n",
    "compliance/bad.toml": `audit_id = "A"
[[control]]
id = "DUP"
name = "first"
[[control.target]]
origin_resource_types = "service"
[[control]]
id = "DUP"
name = "second"
[[control.target]]
origin_resource_types = "service"
[[control]]
id = "T"
name = "template"
[[control.target]]
origin_resource_types = "service"
futuristic = 1
[control.target.resource]
type = "x"
name = "{{ origin_resource.missing_prop }}"
[[control]]
id = "NOTYPES"
name = "no types"
[[control.target]]
description = "nothing selected"
`,
    "compliance/noaudit.toml": `[[control]]
id = "X"
name = "x"
[[control.target]]
origin_resource_types = "service"
`,
  });
  const errors = issuesOf(r, "error");
  const codes = errors.map((e) => e.code).sort();
  assertEquals(codes, [
    "audit_id_missing",
    "control_duplicate",
    "control_target",
    "template_error",
  ]);
  const tmpl = errors.find((e) => e.code === "template_error")!;
  assertEquals(tmpl.file, "compliance/bad.toml");
  assert(tmpl.message.includes("origin service 'api'"), tmpl.message);
  assertEquals(tmpl.line, 20);
  assertEquals(tmpl.rule, "chunk 1, control[2].target[0].resource.name");
  const warn = issuesOf(r, "warning").find((w) => w.code === "unknown_key")!;
  assert(warn.message.includes("futuristic"));
  // the first DUP control still applied
  assertEquals(
    (props(res(r.graph, "service", "api")).controls as { control_id: string }).control_id,
    "DUP",
  );
});

Deno.test("C16/O7: findings are rebuilt from scratch: a fixed resource has no finding", async () => {
  const rule = `audit_id = "NET"
[[control]]
id = "NET-07"
name = "ssh"
[[control.target]]
origin_resource_types = "host"
match_on = [{ property = "port", value = "22" }]
[control.target.resource]
type = "policy_violation"
`;
  const before = await buildCompliance({
    "assets/host.csv": "name,port\nh,22\n",
    "compliance/n.toml": rule,
  });
  const after = await buildCompliance({
    "assets/host.csv": "name,port\nh,443\n",
    "compliance/n.toml": rule,
  });
  assertEquals(before.stats.findings, 1);
  assertEquals(after.stats.findings, 0);
});
