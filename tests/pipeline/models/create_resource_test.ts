import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { buildModels, edges, errors, get, names, warnings } from "./_support.ts";

Deno.test("M11/M13 create_resource: templated name, typed properties, relation from origin", async () => {
  const r = await buildModels({
    "assets/subscription.csv": "name,environment\nshop,prod\nblog,dev\n",
    "models/server.toml": `origin_resource = "subscription"
sizes = { prod = "large", dev = "small" }
[[create_resource]]
resource_type = "server"
name = "{{ origin_resource.name }}_server"
relation_type = "IS_INSTANCE_OF"
relation_properties = { since = "{{ origin_resource.environment }}" }
[create_resource.properties]
size = "{{ sizes[origin_resource.environment] }}"
count = 3
enabled = true
zones = ["a", "{{ origin_resource.environment }}"]
meta = { owner = "{{ origin_resource.name | upper }}", level = 2 }
plain = "42"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "server"), ["blog_server", "shop_server"]);
  const s = get(r.graph, "server", "shop_server").properties;
  assertEquals(s, {
    name: "shop_server",
    size: "large",
    count: 3,
    enabled: true,
    zones: ["a", "prod"],
    meta: { owner: "SHOP", level: 2 },
    plain: "42",
  });
  assertEquals(edges(r.graph, "IS_INSTANCE_OF"), ["blog->blog_server", "shop->shop_server"]);
  const rel = r.graph.getRelation(
    get(r.graph, "subscription", "shop"),
    "IS_INSTANCE_OF",
    get(r.graph, "server", "shop_server"),
  );
  assertEquals(rel?.properties, { since: "prod" });
});

Deno.test("M15 global files run once without origin; relation_type is ignored there", async () => {
  const r = await buildModels({
    "module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n[params.provider]\ndefault = "AWS"\n',
    "models/provider.toml": `[[create_resource]]
resource_type = "provider"
relation_type = "IGNORED"
name = "{{ provider | lower }}"
[create_resource.properties]
label = "{{ params.provider }}"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "provider"), ["aws"]);
  equal(get(r.graph, "provider", "aws").properties.label, "AWS");
  equal(r.graph.relationCount, 0);
});

Deno.test("M12 no relation_type: the origin is linked by a relation of empty type", async () => {
  // The original's export of rescile/aws_transit_hub: models/login.toml has no relation_type
  // and the export holds identity -[""]-> login edges.
  const r = await buildModels({
    "assets/identity.csv": "name,user\nalice,al\nbob,bo\n",
    "models/login.toml": `origin_resource = "identity"
[[create_resource]]
resource_type = "login"
name = "{{ origin_resource.user }}"
[[create_resource]]
resource_type = "badge"
relation_type = "{{ origin_resource.missing | default(value='') }}"
name = "b-{{ origin_resource.user }}"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(edges(r.graph, ""), ["alice->al", "bob->bo"]);
  const alice = get(r.graph, "identity", "alice");
  assertEquals(r.graph.outgoing(alice).map((x) => [x.type, x.target.type]), [["", "login"]]);
  // A relation_type that renders empty links nothing (as before).
  equal(r.graph.incoming(get(r.graph, "badge", "b-al")).length, 0);
});

Deno.test("M13 a property expression printing a sequence or object stores the list", async () => {
  // The original's export of aws_transit_hub: ip_prefix = "{{- prefix -}}" with an object
  // prefix is ["object"].
  const r = await buildModels({
    "assets/region.csv": 'name,zones\neu,"a,b"\n',
    "models/net.toml": `origin_resource = "region"
prefix = { v4 = "10.0.0.0/8" }
[[create_resource]]
resource_type = "net"
name = "net-{{ origin_resource.name }}"
[create_resource.properties]
ip_prefix = "{{- prefix -}}"
zones = "{{ origin_resource.zones | split(pat=',') }}"
json = "{{ origin_resource.zones | split(pat=',') | json_encode }}"
literal = "[WIP]"
`,
  });
  assertEquals(errors(r), []);
  const p = get(r.graph, "net", "net-eu").properties;
  assertEquals(p.ip_prefix, ["object"]);
  assertEquals(p.zones, ["a", "b"]);
  assertEquals(p.json, '["a","b"]');
  assertEquals(p.literal, "[WIP]");
});

Deno.test("M14 empty names are skipped with a warning; names are trimmed", async () => {
  const r = await buildModels({
    "assets/host.csv": "name,alias\nh1, spaced \nh2,\n",
    "models/alias.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "alias"
name = "{{ origin_resource.alias }}"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "alias"), ["spaced"]);
  ok(warnings(r).some((w) => w.startsWith("model_empty_name")));
});

Deno.test("M20-M23/M91 create_from property: comma lists, type priority, property.index", async () => {
  const r = await buildModels({
    "assets/region.csv": 'name,availability_zone,kms\nzrh,"a, b,",vault-1\n',
    "models/az.toml": `origin_resource = "region"
[[create_resource]]
create_from = { property = "availability_zone", as = "fault_domain" }
resource_type = "ignored"
relation_type = "CONNECTED_TO"
name = "{{ origin_resource.name }}{{ property.value }}"
[create_resource.properties]
idx = "{{ property.index }}"
v = "{{ value }}"

[[create_resource]]
create_from = { property = "kms" }
relation_type = "PROTECTS"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "fault_domain"), ["zrha", "zrhb"]);
  assertEquals(names(r.graph, "ignored"), []);
  equal(get(r.graph, "fault_domain", "zrhb").properties.idx, "1");
  equal(get(r.graph, "fault_domain", "zrhb").properties.v, "b");
  assertEquals(names(r.graph, "kms"), ["vault-1"], "type and name default from the property");
  assertEquals(edges(r.graph, "PROTECTS"), ["zrh->vault-1"]);
});

Deno.test("M3/M20/M25 create_from list over a json! header with jmespath; objects need a name", async () => {
  const r = await buildModels({
    "input/regions.json": JSON.stringify({
      zrh: { id: "eu-central-2", tier: "gold" },
      fra: { id: "eu-central-1", tier: "silver" },
      gva: { id: "eu-west-9", tier: "gold" },
    }),
    "models/regions.toml":
      `regions = { "json!" = "regions.json", jmespath = "values(@)[?tier=='gold']" }
ids = { "template!" = "{{ regions | map(attribute='id') }}" }
[[create_resource]]
create_from = { list = "regions" }
resource_type = "region"
name = "{{ value.id }}"
[create_resource.properties]
tier = "{{ value.tier }}"

[[create_resource]]
create_from = { list = "ids", as = "region_id" }
`,
  });
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "region"), ["eu-central-2", "eu-west-9"]);
  assertEquals(
    names(r.graph, "region_id"),
    ["eu-central-2", "eu-west-9"],
    "Tera list display -> list",
  );
});

Deno.test("M3 template! header sees property.value inside create_from iterations", async () => {
  const r = await buildModels({
    "assets/router.csv": 'name,network\nr1,"transit,management"\n',
    "models/net.toml": `origin_resource = "router"
block = { "template!" = '''
{%- if property.value == "management" -%}172.16.0.0/16{%- else -%}10.0.0.0/24{%- endif -%}
''' }
[[create_resource]]
create_from = { property = "network" }
name = "{{ origin_resource.name }}_{{ property.value }}"
[create_resource.properties]
cidr = "{{ block }}"
`,
  });
  assertEquals(errors(r), []);
  equal(get(r.graph, "network", "r1_management").properties.cidr, "172.16.0.0/16");
  equal(get(r.graph, "network", "r1_transit").properties.cidr, "10.0.0.0/24");
});

Deno.test("M3 template! JSON output is structure to filters but prints as the JSON it wrote", async () => {
  const r = await buildModels({
    "assets/zone.csv": 'name,ns\nz1,"a,b"\n',
    "models/zone_info.toml": `origin_resource = "zone"
roles = { "template!" = '''
{%- set_global entries = [] -%}
{%- for n in origin_resource.ns | split(pat=',') -%}
{%- set_global entries = entries | concat(with='{"ns":"' ~ n ~ '"}') -%}
{%- endfor -%}
[{{ entries | join(sep=',') }}]
''' }
[[create_resource]]
resource_type = "zone_info"
name = "{{ origin_resource.name }}"
[create_resource.properties]
roles = "{{ roles }}"
first = "{% set f = roles | nth(n=0) %}{{ f.ns }}/{{ roles[1].ns }}"
count = "{{ roles | length }}"
copy = "{{ roles | concat(with=[]) }}"
`,
  });
  assertEquals(errors(r), []);
  const p = get(r.graph, "zone_info", "z1").properties;
  equal(p.roles, '[{"ns":"a"},{"ns":"b"}]', "printed as written, parseable by Jsonnet");
  equal(p.first, "a/b");
  equal(p.count, "2");
  equal(p.copy, "[[object], [object]]", "a derived value displays the Tera way again");
});

Deno.test("M90 origin_resource_counter counts matching origins per block and does not drift", async () => {
  const r = await buildModels({
    "assets/site.csv": "name,kind\na,x\nb,y\nc,x\nd,x\n",
    "models/subnet.toml": `origin_resource = "site"
[[create_resource]]
match_on = [{ property = "kind", value = "x" }]
resource_type = "subnet"
name = "{{ origin_resource.name }}"
[create_resource.properties]
n = "{{ origin_resource_counter }}"
cidr = "{{ '10.0.0.0/16' | cidr_nth_subnet(prefix=24, nth=counter(key='net')) }}"
`,
  });
  assertEquals(errors(r), []);
  const props = names(r.graph, "subnet").map((n) => {
    const p = get(r.graph, "subnet", n).properties;
    return `${n}:${p.n}:${p.cidr}`;
  });
  assertEquals(props, ["a:0:10.0.0.0/24", "c:1:10.0.1.0/24", "d:2:10.0.2.0/24"]);
  ok(r.converged && r.passes === 2, `passes ${r.passes}`);
});

Deno.test("M30-M32 copy_from pulls properties from the referenced resource", async () => {
  const r = await buildModels({
    "assets/location.csv": "name,tz,code\nzurich,CET,ZRH\n",
    "assets/site.csv": "name,location\ns1,zurich\ns2,nowhere\n",
    "models/dc.toml": `origin_resource = "site"
[[create_resource]]
resource_type = "dc"
name = "dc-{{ origin_resource.name }}"
copy_from = { property = "location", properties = ["tz", { from = "code", as = "iata" }, "missing"] }
`,
  });
  assertEquals(errors(r), []);
  assertEquals(get(r.graph, "dc", "dc-s1").properties, { name: "dc-s1", tz: "CET", iata: "ZRH" });
  assertEquals(get(r.graph, "dc", "dc-s2").properties, { name: "dc-s2" });
  ok(warnings(r).some((w) => w.startsWith("model_copy_from_missing")));
});

Deno.test("M10 unknown keys and missing required keys are build errors naming the rule line", async () => {
  const r = await buildModels({
    "assets/a.csv": "name\nx\n",
    "models/bad.toml": `origin_resource = "a"
[[create_resource]]
resource_type = "b"
name = "n"
colour = "red"

[[create_resource]]
name = "n2"
`,
  });
  const errs = r.issues.filter((i) => i.severity === "error");
  assertEquals(errs.map((e) => [e.code, e.line, e.rule]), [
    ["rule_unknown_key", 5, "chunk 1, create_resource[0].colour"],
    ["rule_missing_key", 7, "chunk 1, create_resource[1].resource_type"],
  ]);
  equal(errs[0].file, "models/bad.toml");
});

Deno.test("T3 template errors name file, rule key, origin and template position; other origins continue", async () => {
  const r = await buildModels({
    "assets/a.csv": "name,v\nok,1\nbroken,\n",
    "models/t.toml": `origin_resource = "a"
[[create_resource]]
resource_type = "b"
name = "{{ origin_resource.name }}"
[create_resource.properties]
x = "{{ origin_resource.v | int + 1 }}"
y = "{{ origin_resource.nope }}"
`,
  });
  const errs = r.issues.filter((i) => i.severity === "error");
  equal(errs.length, 2, errors(r).join("\n"));
  for (const e of errs) {
    equal(e.code, "template_error");
    equal(e.file, "models/t.toml");
    equal(e.line, 7);
    equal(e.rule, "chunk 1, create_resource[0].properties.y");
    ok(e.message.includes("origin a '"), e.message);
    ok(/\[template models\/t\.toml: .*:1:\d+\]/.test(e.message), e.message);
  }
  equal(get(r.graph, "b", "ok").properties.x, "2", "the failing property does not stop the others");
});
