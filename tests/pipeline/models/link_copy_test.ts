import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { buildModels, edges, errors, get, warnings } from "./_support.ts";

const ZONES = {
  "assets/zone.csv": "name,auth\nexample.ch,example.ch\ntest.ch,test.ch\n",
  "assets/ns.csv":
    "name,original_name,zone\nns-apex,example.ch,example.ch\nns-sub,sub,example.ch\n" +
    "ns-at,@,test.ch\n",
};

Deno.test("M50/M51/M53 link_resources join + create_relation; match_with with or/not/empty", async () => {
  const r = await buildModels({
    ...ZONES,
    "models/records.toml": `origin_resource = "zone"
[[link_resources]]
with = "ns"
join = { local = "auth", remote = "zone" }
match_with = [
  { or = [
    { property = "original_name", value = "{{ origin_resource.name }}" },
    { property = "original_name", value = "@" },
  ]}
]
create_relation = { type = "has_apex_ns_record", properties = { via = "{{ target_resource.name }}" } }

[[link_resources]]
with = "ns"
join = { local = "auth", remote = "zone" }
match_with = [
  { property = "original_name", not = "{{ origin_resource.name }}" },
  { property = "original_name", not = "@" },
  { property = "name", empty = false },
]
create_relation = { type = "has_subdomain_ns_record" }
`,
  });
  assertEquals(errors(r), []);
  assertEquals(edges(r.graph, "has_apex_ns_record"), ["example.ch->ns-apex", "test.ch->ns-at"]);
  assertEquals(edges(r.graph, "has_subdomain_ns_record"), ["example.ch->ns-sub"]);
  const rel = r.graph.getRelation(
    get(r.graph, "zone", "test.ch"),
    "has_apex_ns_record",
    get(r.graph, "ns", "ns-at"),
  );
  assertEquals(rel?.properties, { via: "ns-at" });
});

Deno.test("M50 legacy 'on' + copy_properties with renames; no join = cross join", async () => {
  const r = await buildModels({
    "assets/applications.csv": "name,zone\nweb,DMZ\napi,INTERNAL\n",
    "assets/connections.csv": "name,source_app,dest_app\nc1,web,api\n",
    "assets/team.csv": "name,unit\nt1,BU\n",
    "models/connections.toml": `origin_resource = "connections"
[[link_resources]]
with = "applications"
on = { local = "source_app", remote = "name" }
copy_properties = [ { from = "zone", as = "source_zone" } ]

[[link_resources]]
with = "applications"
on = { local = "dest_app", remote = "name" }
copy_properties = [ { from = "zone", as = "dest_zone" }, { as = "pair", template = "{{ origin_resource.name }}:{{ target_resource.name }}" } ]

[[link_resources]]
with = "team"
create_relation = { type = "OWNED_BY" }
`,
  });
  assertEquals(errors(r), []);
  const c = get(r.graph, "connections", "c1").properties;
  equal(c.source_zone, "DMZ");
  equal(c.dest_zone, "INTERNAL");
  equal(c.pair, "c1:api");
  assertEquals(edges(r.graph, "OWNED_BY"), ["c1->t1"]);
  equal(edges(r.graph, "applications").length, 0, "copy without create_relation makes no relation");
});

Deno.test("M51 join on a list value: any element may match", async () => {
  const r = await buildModels({
    "assets/svc.csv": 'name,hosts\ns1,"h1, h2"\n',
    "assets/host.csv": "name,fqdn\nh1,h1.x\nh2,h2.x\nh3,h3.x\n",
    "models/m.toml": `origin_resource = "svc"
[[link_resources]]
with = "host"
join = { local = "hosts", remote = "name" }
create_relation = { type = "RUNS_ON" }
`,
  });
  assertEquals(edges(r.graph, "RUNS_ON"), ["s1->h1", "s1->h2"]);
});

Deno.test("M52 several matches: copy in name order (last wins) and warn", async () => {
  const r = await buildModels({
    "assets/a.csv": "name,k\nx,1\n",
    "assets/b.csv": "name,k,v\nb2,1,second\nb1,1,first\n",
    "models/m.toml": `origin_resource = "a"
[[link_resources]]
with = "b"
join = "k"
copy_properties = ["v"]
`,
  });
  equal(get(r.graph, "a", "x").properties.v, "second");
  ok(warnings(r).some((w) => w.startsWith("model_link_multiple_matches")));
});

Deno.test("M54 match_with expression with target_resource; 'in' is a build error", async () => {
  const r = await buildModels({
    "assets/vse.csv": "name,scope\nlb,transit\n",
    "assets/subnet.csv": "name,function\ns1,transit\ns2,management\n",
    "models/vse.toml": `origin_resource = "vse"
[[link_resources]]
with = "subnet"
match_with = [ { expression = "{% if origin_resource.scope == target_resource.function %}true{% endif %}" } ]
create_relation = { type = "CONNECTS_TO" }

[[link_resources]]
with = "subnet"
match_with = [ { expression = "target_resource.name in ['s1']" } ]
create_relation = { type = "NEVER" }
`,
  });
  assertEquals(edges(r.graph, "CONNECTS_TO"), ["lb->s1"]);
  const errs = r.issues.filter((i) => i.severity === "error");
  equal(errs.length, 1);
  equal(errs[0].rule, "chunk 1, link_resources[1].match_with[0].expression");
  equal(errs[0].line, 9);
});

Deno.test("M40-M43 copy_property to connected resources with rename and match_on on the destination", async () => {
  const r = await buildModels({
    "assets/subscription.csv": "name,owner_team,os_image\nshop,ops,ubuntu\n",
    "assets/server.csv": "name,subscription,tier\nsrv1,shop,gold\nsrv2,shop,bronze\nlonely,,gold\n",
    "models/copy.toml": `origin_resource = "subscription"
[[copy_property]]
to = "server"
match_on = [ { property = "tier", value = "gold" } ]
properties = [ "os_image", { from = "owner_team", as = "owner" }, "missing" ]
`,
  });
  assertEquals(errors(r), []);
  const p = get(r.graph, "server", "srv1").properties;
  equal(p.os_image, "ubuntu");
  equal(p.owner, "ops");
  ok(!("missing" in p));
  ok(!("owner" in get(r.graph, "server", "srv2").properties), "match_on tests the destination");
  ok(!("owner" in get(r.graph, "server", "lonely").properties), "never copies to unconnected");
});

Deno.test("M42 copy_property copies relations named after a type and dotted paths as a_b", async () => {
  const r = await buildModels({
    "assets/net.csv": "name,cidr\nn1,10.0.0.0/24\n",
    "assets/app.csv": "name,net\na1,n1\n",
    "assets/vm.csv": "name,app\nvm1,a1\n",
    "models/copy.toml": `origin_resource = "app"
[[copy_property]]
to = "vm"
properties = [ "net", "net.cidr" ]
`,
  });
  assertEquals(errors(r), []);
  ok(edges(r.graph, "net").includes("vm1->n1"), edges(r.graph, "net").join());
  equal(get(r.graph, "vm", "vm1").properties.net_cidr, "10.0.0.0/24");
});

Deno.test("M44 legacy copy_property 'from' path pulls values onto the origin (firewall example)", async () => {
  const r = await buildModels({
    "assets/applications.csv": "name,servers\nweb,web-01\n",
    "assets/servers.csv": "name,networks\nweb-01,dmz\n",
    "assets/networks.csv": "name,zone\ndmz,DMZ\n",
    "models/zones.toml": `origin_resource = "applications"
[[copy_property]]
from = "servers.networks"
properties = [ "zone" ]
`,
  });
  assertEquals(errors(r), []);
  equal(get(r.graph, "applications", "web").properties.zone, "DMZ");
});

Deno.test("M55-M57 retype_relation shapes the convention relation of its origin type", async () => {
  const r = await buildModels({
    "assets/host.csv": "name\ndb1\n",
    "assets/app.csv": "name,db_host\nshop,db1\n",
    "models/retype.toml": `origin_resource = "app"
[[retype_relation]]
property_key = "db_host"
target_resource_type = "host"
new_type = "USES_DB_HOST"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(edges(r.graph, "USES_DB_HOST"), ["shop->db1"]);
  assertEquals(edges(r.graph, "db_host"), []);
});
