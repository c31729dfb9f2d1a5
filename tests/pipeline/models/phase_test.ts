import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { buildModels, errors, get, names, warnings } from "./_support.ts";

Deno.test("O11/M82 order independence: a reader file before its writer still sees the data", async () => {
  const files = {
    "assets/applications.csv": "name,servers\nweb,web-01\n",
    "assets/servers.csv": "name,networks\nweb-01,dmz\n",
    "assets/networks.csv": "name,zone\ndmz,DMZ\n",
    "assets/connections.csv": "name,source_app\nc1,web\n",
    // a_connections.toml sorts first but reads what z_zones.toml writes
    "models/a_connections.toml": `origin_resource = "connections"
[[link_resources]]
with = "applications"
on = { local = "source_app", remote = "name" }
copy_properties = [ { from = "zone", as = "source_zone" } ]
`,
    "models/z_zones.toml": `origin_resource = "applications"
[[copy_property]]
from = "servers.networks"
properties = [ "zone" ]
`,
  };
  const r = await buildModels(files);
  assertEquals(errors(r), []);
  equal(get(r.graph, "connections", "c1").properties.source_zone, "DMZ");
  assertEquals([r.passes, r.converged], [2, true], "dependency order: one pass + confirmation");
  const again = await buildModels(files);
  assertEquals(again.graph.toJSON(), r.graph.toJSON(), "M82 deterministic");
});

Deno.test("O10 resources created while iterating a type are visited by the next pass", async () => {
  const r = await buildModels({
    "assets/node.csv": "name,next\nn0,n1\n",
    "models/chain.toml": `origin_resource = "node"
[[create_resource]]
match_on = [ { property = "next", exists = true } ]
resource_type = "node"
name = "{{ origin_resource.next }}"
[create_resource.properties]
next = "{% if origin_resource.next == 'n1' %}n2{% elif origin_resource.next == 'n2' %}n3{% endif %}"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(names(r.graph, "node"), ["n0", "n1", "n2", "n3"]);
  ok(r.converged);
});

Deno.test("fixpoint cap: rules that never settle stop at --max-loop with a warning", async () => {
  const r = await buildModels({
    "assets/c.csv": "name,n\nx,0\n",
    "models/inc.toml": `origin_resource = "c"
[[create_resource]]
resource_type = "c"
name = "{{ origin_resource.name }}"
[create_resource.properties]
n = "{{ origin_resource.n | int + 1 }}"
`,
  }, { maxLoop: 3 });
  assertEquals([r.passes, r.converged], [3, false]);
  equal(get(r.graph, "c", "x").properties.n, "3");
  ok(warnings(r).some((w) => w.startsWith("model_max_loop")));
});

Deno.test("M80 overwriting a property with a different value from another rule warns once", async () => {
  const r = await buildModels({
    "assets/a.csv": "name\nx\n",
    "models/one.toml": `origin_resource = "a"
[[create_resource]]
resource_type = "t"
name = "shared"
[create_resource.properties]
owner = "one"
same = "s"
`,
    "models/two.toml": `origin_resource = "a"
[[create_resource]]
resource_type = "t"
name = "shared"
[create_resource.properties]
owner = "two"
same = "s"
`,
  });
  equal(get(r.graph, "t", "shared").properties.owner, "two");
  const w = warnings(r).filter((x) => x.startsWith("model_property_overwritten"));
  equal(w.length, 1, w.join("\n"));
  ok(w[0].includes('"one" -> "two"'));
});

Deno.test("M6/M7 params as top-level and params.*; header shadows; reserved names refused", async () => {
  const r = await buildModels({
    "module.toml": '[module]\nname = "My Mod"\nversion = "1.0.0"\n' +
      '[params.stage]\ndefault = "DEV"\n[params.tenant]\ndefault = "org"\n',
    "models/s.toml": `tenant = "header-{{ params.tenant }}"
[[create_resource]]
resource_type = "s"
name = "{{ stage | lower }}"
[create_resource.properties]
tenant = "{{ tenant }}"
raw = "{{ params.tenant }}"
module = "{{ module.name }}"
`,
    "models/z_reserved.toml": `value = "x"
[[create_resource]]
resource_type = "s"
name = "never"
`,
  });
  assertEquals(get(r.graph, "s", "dev").properties, {
    name: "dev",
    tenant: "header-org",
    raw: "org",
    module: "My Mod",
  });
  const errs = r.issues.filter((i) => i.severity === "error");
  equal(errs.length, 1, errors(r).join("\n"));
  equal(errs[0].file, "models/z_reserved.toml");
  equal(errs[0].line, 1);
  ok(!r.graph.getResource("s", "never"));
});

Deno.test("A25 a missing json! file is a build error naming the file and header key", async () => {
  const r = await buildModels({
    "assets/a.csv": "name\nx\ny\n",
    "models/m.toml": `origin_resource = "a"

data = { "json!" = "nope.json" }
[[create_resource]]
resource_type = "b"
name = "{{ origin_resource.name }}"
`,
  });
  const errs = r.issues.filter((i) => i.severity === "error");
  equal(errs.length, 1, errors(r).join("\n"));
  equal(errs[0].code, "json_input_missing");
  equal(errs[0].line, 3);
  equal(errs[0].rule, "chunk 1, header data");
});

Deno.test("modules: rules of a module layer run before the data dir and show the module path", async () => {
  const r = await buildModels({
    "assets/resident.csv": "name\nacme\n",
  }, {
    modules: [{
      id: "base",
      files: {
        "module.toml": '[module]\nname = "base"\nversion = "1.0.0"\n',
        "models/sub.toml": `origin_resource = "resident"
[[create_resource]]
resource_type = "subscription"
name = "{{ origin_resource.name }}-{{ missing_var }}"
`,
      },
    }],
  });
  const errs = r.issues.filter((i) => i.severity === "error");
  equal(errs.length, 1);
  equal(errs[0].file, "base/models/sub.toml");
});
