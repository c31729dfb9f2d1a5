/**
 * Incremental builds of workspaces with rule files (issue 15 item 2, rule_reach.ts): a property
 * change of a type no rule can reach is derived from the previous build; a change of a type a
 * rule names, reaches through relations, or may make from a template is a `rules` build (issue
 * 25: model pairs whose reads are unchanged are replayed, models/pair_memo.ts). Every result
 * equals a from-scratch build of the same sources.
 */
import { assertEquals } from "../_assert.ts";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { IncrementalBuilder } from "../../lib/pipeline/incremental/builder.ts";
import { dump, memorySources, OPTIONS } from "./_incremental.ts";

/**
 * Builds `base` with `path` holding `before`, then with `after`, incrementally; checks the result
 * against a full build of the same sources; answers the mode of the incremental build.
 */
function modeOfChange(
  base: Record<string, string>,
  path: string,
  before: string,
  after: string,
): string {
  const builder = new IncrementalBuilder();
  builder.build(memorySources({ ...base, [path]: before }), OPTIONS);
  const sources = memorySources({ ...base, [path]: after });
  const inc = builder.build(sources, OPTIONS);
  assertEquals(dump(inc.result), dump(buildGraph(sources, OPTIONS)), inc.reason);
  return inc.mode;
}

const HOSTS = "name,env,network\nweb-1,prod,n1\nweb-2,dev,n1\n";
const NETS = "name,env\nn1,lan\n";
const ZONES = "name,env\nweb-1,a\nweb-2,b\n";
const zonesAfter = "name,env\nweb-1,a\nweb-2,changed\n";

const MODEL = `origin_resource = "host"
[[create_resource]]
resource_type = "tag"
name = "tag-{{ origin_resource.name }}"
[create_resource.properties]
env = "{{ origin_resource.env }}"
`;

Deno.test("a property change of a type no rule reaches is derived, with rule files present", () => {
  const base = { "assets/host.csv": HOSTS, "assets/network.csv": NETS, "models/tag.toml": MODEL };
  assertEquals(
    modeOfChange(base, "assets/zone.csv", ZONES, zonesAfter),
    "properties",
  );
});

Deno.test("a change of a type a rule names is a rules build", () => {
  // (hosts without relations: only the name tells that the rule reads them)
  const hosts = "name,env\nweb-1,prod\nweb-2,dev\n";
  const base = { "assets/network.csv": NETS, "models/tag.toml": MODEL };
  assertEquals(
    modeOfChange(base, "assets/host.csv", hosts, hosts.replace("web-2,dev", "web-2,qa")),
    "rules",
  );
});

Deno.test("a change of a type rules reach through relations (json_encode of a view) is a rules build", () => {
  const dump = `origin_resource = "host"
[[output]]
resource_type = "dump"
name = "dump-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.json"
mimetype = "application/json"
template = "{{ origin_resource | json_encode }}"
`;
  const base = { "assets/host.csv": HOSTS, "output/dump.toml": dump };
  assertEquals(
    modeOfChange(base, "assets/network.csv", NETS, "name,env\nn1,wan\n"),
    "rules",
  );
});

Deno.test("a type a template may make (a templated resource_type) makes every change a rules build", () => {
  const dynamic = `origin_resource = "host"
[[create_resource]]
resource_type = "{{ 'zo' ~ 'ne' }}"
name = "{{ origin_resource.name }}"
[create_resource.properties]
env = "from-rule"
`;
  const base = { "assets/host.csv": HOSTS, "assets/network.csv": NETS, "models/dyn.toml": dynamic };
  assertEquals(
    modeOfChange(base, "assets/zone.csv", ZONES, zonesAfter),
    "rules",
  );
});

Deno.test("a type named only through a TOML escape is still named", () => {
  // The rule writes `env` onto the zone resources of the hosts' names.
  const escaped = MODEL.replace('resource_type = "tag"', 'resource_type = "zo\\u006ee"')
    .replace('name = "tag-{{ origin_resource.name }}"', 'name = "{{ origin_resource.name }}"');
  const base = { "assets/host.csv": HOSTS, "assets/network.csv": NETS, "models/z.toml": escaped };
  assertEquals(
    modeOfChange(base, "assets/zone.csv", ZONES, zonesAfter),
    "rules",
  );
});

Deno.test("a type with requirements (MP41, checked on the finished graph) is a rules build", () => {
  const base = {
    "module.toml": '[requirements.zone]\nproperties = ["env"]\n',
    "assets/host.csv": HOSTS,
    "assets/network.csv": NETS,
    "models/tag.toml": MODEL,
  };
  assertEquals(
    modeOfChange(base, "assets/zone.csv", ZONES, "name,env\nweb-1,a\nweb-2,\n"),
    "rules",
  );
});

// Field level (fieldReachOf): types the rules reach, fields they do not.

const PORTS = "name,env,port\nweb-1,prod,80\nweb-2,dev,81\n";
const portsAfter = "name,env,port\nweb-1,prod,80\nweb-2,dev,8081\n";

Deno.test("a field no rule names, of a type rules read and write, is derived (rules' writes kept in place)", () => {
  const compliance = `audit_id = "H1"
[[control]]
id = "HOST"
name = "Hosts"
[[control.target]]
origin_resource_types = ["host"]
[control.target.resource.properties]
env = "audited-{{ origin_resource.env }}"
audit = "yes"
`;
  const base = { "assets/network.csv": NETS, "compliance/h.toml": compliance };
  assertEquals(
    modeOfChange(base, "assets/host.csv", PORTS, portsAfter),
    "properties",
  );
});

Deno.test("a field a rule names is a rules build", () => {
  const base = { "assets/network.csv": NETS, "models/tag.toml": MODEL };
  assertEquals(
    modeOfChange(base, "assets/host.csv", PORTS, PORTS.replace("web-2,dev", "web-2,qa")),
    "rules",
  );
});

Deno.test("rules that follow a relation field (whole related resources) make field changes rules builds", () => {
  const dump = `origin_resource = "host"
[[output]]
resource_type = "dump"
name = "dump-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.txt"
mimetype = "text/plain"
template = "{% for n in origin_resource.network %}{{ n | json_encode }}{% endfor %}"
`;
  const base = { "assets/host.csv": HOSTS, "output/dump.toml": dump };
  assertEquals(
    modeOfChange(
      base,
      "assets/network.csv",
      "name,cidr\nn1,10.0.0.0/8\n",
      "name,cidr\nn1,10.1.0.0/16\n",
    ),
    "rules",
  );
});

Deno.test("an output writing resources of the changed type (keys from a Jsonnet result) makes it a rules build", () => {
  const out = `origin_resource = "host"
[[output]]
resource_type = "zone"
name = "{{ origin_resource.name }}"
jsonnet = '{ ["e" + "nv"]: "from-output" }'
`;
  const base = { "assets/host.csv": HOSTS, "assets/network.csv": NETS, "output/z.toml": out };
  assertEquals(
    modeOfChange(base, "assets/zone.csv", ZONES, zonesAfter),
    "rules",
  );
});

Deno.test("a field the rule phases write under a fixed name (controls) is a rules build", () => {
  const compliance = `audit_id = "H1"
[[control]]
id = "HOST"
name = "Hosts"
[[control.target]]
origin_resource_types = ["host"]
`;
  const hosts = "name,controls\nweb-1,a\nweb-2,b\n";
  const base = { "assets/network.csv": NETS, "compliance/h.toml": compliance };
  assertEquals(
    modeOfChange(base, "assets/host.csv", hosts, hosts.replace("web-2,b", "web-2,c")),
    "rules",
  );
});

Deno.test("a compliance map target (it reads every property of its origins) makes field changes rules builds", () => {
  const raci = `audit_id = "RACI"
[[control]]
id = "R1"
name = "Responsibilities"
[[control.target]]
[control.target.map]
derived_type = "role"
origin_resource_types = ["asset"]
target_resource_type = "provider"
primary_relation_type = "HAS_RESPONSIBILITY"
`;
  const base = {
    "assets/role.csv": "name\noperator\n",
    "assets/provider.csv": "name\nteam-blue\nteam-red\n",
    "compliance/raci.toml": raci,
  };
  assertEquals(
    modeOfChange(
      base,
      "assets/asset.csv",
      "name,operator\nvm1,team-blue\n",
      "name,operator\nvm1,team-red\n",
    ),
    "rules",
  );
});

Deno.test("a templated property whose name looks like a type key (os_type) is only a property", () => {
  const model = MODEL.replace(
    'env = "{{ origin_resource.env }}"',
    'env = "{{ origin_resource.env }}"\nos_type = "{{ origin_resource.env | upper }}"',
  );
  const base = { "assets/network.csv": NETS, "models/tag.toml": model };
  assertEquals(modeOfChange(base, "assets/host.csv", PORTS, portsAfter), "properties");
});

// Declared asset files (A13, MP31): typed columns are converted as the asset phase converts them;
// a value the declaration refuses is reported, so that change is a full build.

const DECLARED = `[module]
name = "m"
version = "1.0.0"
[assets."host.csv"]
resource_type = "server"
[assets."host.csv".columns.port]
type = "integer"
[assets."host.csv".columns.env]
allowed_values = ["prod", "dev", "qa"]
required = true
`;

Deno.test("A13 a typed column of a declared file changes by derivation, converted to its type", () => {
  const base = { "module.toml": DECLARED, "assets/network.csv": NETS };
  assertEquals(modeOfChange(base, "assets/host.csv", PORTS, portsAfter), "properties");
  assertEquals(
    modeOfChange(base, "assets/host.csv", PORTS, PORTS.replace("web-2,dev", "web-2,qa")),
    "properties",
  );
});

Deno.test("MP31 a value the declaration refuses, or an empty required column, is a full build", () => {
  const base = { "module.toml": DECLARED, "assets/network.csv": NETS };
  for (
    const after of [
      PORTS.replace("web-2,dev", "web-2,staging"),
      PORTS.replace("web-2,dev", "web-2,"),
      PORTS.replace("web-2,dev,81", "web-2,dev,eighty"),
    ]
  ) {
    assertEquals(modeOfChange(base, "assets/host.csv", PORTS, after), "full");
  }
});

Deno.test("A14 a declared key template is rendered for the changed rows (keys kept: derived; keys changed: spliced)", () => {
  const manifest = `[assets."host.csv"]
name_template = "{{ env }}-{{ name }}"
[assets."host.csv".columns.port]
type = "integer"
`;
  const base = { "module.toml": manifest, "assets/network.csv": NETS };
  assertEquals(modeOfChange(base, "assets/host.csv", PORTS, portsAfter), "properties");
  assertEquals(
    modeOfChange(base, "assets/host.csv", PORTS, PORTS.replace("web-2,dev", "web-2,qa")),
    "rows",
  );
  // A template whose value does not follow from the row is a full build.
  const impure = manifest.replace("{{ env }}-{{ name }}", "{{ name }}-{{ get_random(end=2) }}");
  assertEquals(
    modeOfChange({ ...base, "module.toml": impure }, "assets/host.csv", PORTS, portsAfter),
    "full",
  );
});

Deno.test("a rule calling now() or get_random() makes every change a rules build (its pairs are evaluated afresh)", () => {
  for (const call of ["now()", "get_random(end=9)"]) {
    const model = MODEL.replace('env = "{{ origin_resource.env }}"', `at = "{{ ${call} }}"`);
    const base = { "assets/host.csv": HOSTS, "assets/network.csv": NETS, "models/tag.toml": model };
    assertEquals(modeOfChange(base, "assets/zone.csv", ZONES, zonesAfter), "rules");
  }
});

Deno.test("a rule analysis is kept only for the same rule texts", async () => {
  const { RuleReach } = await import("../../lib/pipeline/incremental/rule_reach.ts");
  const files = { "assets/host.csv": HOSTS, "models/tag.toml": MODEL };
  const reach = new RuleReach(memorySources(files));
  assertEquals(reach.analyses(memorySources({ ...files, "assets/host.csv": PORTS })), true);
  assertEquals(reach.analyses(memorySources({ ...files, "models/tag.toml": MODEL + "\n" })), false);
  assertEquals(reach.analyses(memorySources({ ...files, "output/x.tera": "x" })), false);
  assertEquals(reach.analyses(memorySources({ "assets/host.csv": HOSTS })), false);
});
