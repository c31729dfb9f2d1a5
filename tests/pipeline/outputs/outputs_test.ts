import { assert, assertEquals } from "../../_assert.ts";
import { artifact, assertClean, buildOutputs, issuesOf } from "./_support.ts";

const HOSTS = "name,env,port\nweb-03,prod,443\ndb-01,dev,5432\n";

Deno.test("OU3/OU5/S2.2: a JSON template becomes properties, filename+mimetype, DESCRIBED_BY", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/nginx.toml": `origin_resource = "host"
[[output]]
resource_type = "nginx_conf"
name = "nginx-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.json"
mimetype = "application/json"
template = '''
{ "server_name": {{ origin_resource.name | json_encode | safe }}, "port": {{ origin_resource.port }} }
'''
`,
  });
  assertClean(r);
  const out = r.graph.getResource("nginx_conf", "nginx-web-03")!;
  assertEquals(out.properties, {
    name: "nginx-web-03",
    server_name: "web-03",
    port: 443,
    filename: "web-03.json",
    mimetype: "application/json",
  });
  const host = r.graph.getResource("host", "web-03")!;
  assert(r.graph.getRelation(host, "DESCRIBED_BY", out));
  const a = artifact(r, "nginx_conf", "nginx-web-03");
  assertEquals(a, {
    type: "nginx_conf",
    name: "nginx-web-03",
    filename: "web-03.json",
    mimetype: "application/json",
    body: '{\n  "server_name": "web-03",\n  "port": 443\n}\n',
    origin: { type: "host", name: "web-03" },
  });
  assertEquals(r.stats.artifacts, 2);
});

Deno.test("OU3/M70: match_on filters origins; graph-only output without filename", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/t.toml": `origin_resource = "host"
[[output]]
resource_type = "vm_config"
name = "{{ origin_resource.name | replace(from='-', to='_') }}"
match_on = [{ property = "env", value = "prod" }]
template = '{ "tags": { "Env": "{{ origin_resource.env }}" } }'
`,
  });
  assertClean(r);
  assertEquals(r.graph.resourcesOf("vm_config").map((x) => x.name), ["web_03"]);
  assertEquals(r.graph.getResource("vm_config", "web_03")!.properties.tags, { Env: "prod" });
  const a = artifact(r, "vm_config", "web_03");
  assertEquals(a.filename, undefined);
  assertEquals(r.stats.artifacts, 0);
});

Deno.test("OU6 [P]: a non-JSON template with a text mimetype is kept verbatim as `content`", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/sh.toml": `origin_resource = "host"
[[output]]
resource_type = "script"
name = "init-{{ origin_resource.name }}"
filename = "init-{{ origin_resource.name }}.sh"
mimetype = "text/x-shellscript"
template = '''
#!/usr/bin/env bash
{%- for p in [1, 2] %}
echo {{ p }} {{ origin_resource.name }}
{%- endfor %}
'''
`,
  });
  assertClean(r);
  const a = artifact(r, "script", "init-db-01");
  assertEquals(a.body, "#!/usr/bin/env bash\necho 1 db-01\necho 2 db-01\n");
  assertEquals(r.graph.getResource("script", "init-db-01")!.properties.content, a.body);
  assertEquals(a.mimetype, "text/x-shellscript");
});

Deno.test("OU12: a text output carries hash.sha256 of its content, as the original's export does", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/txt.toml": `origin_resource = "host"
[[output]]
resource_type = "note"
name = "note-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.txt"
mimetype = "application/txt"
template = "AWS says {{ origin_resource.name }}"
[[output]]
resource_type = "own"
name = "own-{{ origin_resource.name }}"
jsonnet = '{ content: "x", hash: "mine" }'
`,
  });
  assertClean(r);
  const props = r.graph.getResource("note", "note-web-03")!.properties;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode("AWS says web-03")),
  );
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  assertEquals(props.hash, { sha256: hex });
  // A result that sets its own hash keeps it.
  assertEquals(r.graph.getResource("own", "own-web-03")!.properties.hash, "mine");
});

Deno.test("OU6/S2.4 rule 2: a template that is not a JSON object fails (JSON or no mimetype)", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/bad.toml": `origin_resource = "host"
[[output]]
resource_type = "x"
name = "x-{{ origin_resource.name }}"
template = "not json"
[[output]]
resource_type = "y"
name = "y-{{ origin_resource.name }}"
filename = "y.json"
mimetype = "application/json"
template = "[1, 2]"
[[output]]
resource_type = "ok"
name = "ok-{{ origin_resource.name }}"
template = "{}"
`,
  });
  const errors = issuesOf(r, "error");
  assertEquals(errors.map((e) => e.code), Array(4).fill("output_not_object"));
  assertEquals(errors[0].file, "output/bad.toml");
  assertEquals(errors[0].rule, "chunk 1, output[0].template");
  assert(errors[0].message.includes("origin host 'db-01'"), errors[0].message);
  assert(errors[2].message.includes("an array"), errors[2].message);
  // the third rule still ran
  assertEquals(r.graph.resourcesOf("ok").length, 2);
});

Deno.test("OU4/S2.4 rule 1: both template and jsonnet, or neither, is a build error", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/bad.toml": `origin_resource = "host"
[[output]]
resource_type = "x"
name = "x"
template = "{}"
jsonnet = "{}"
[[output]]
resource_type = "y"
name = "y"
`,
  });
  const errors = issuesOf(r, "error");
  assertEquals(errors.map((e) => [e.code, e.rule, e.line]), [
    ["output_body", "chunk 1, output[0].jsonnet", 6],
    ["output_body", "chunk 1, output[1]", 7],
  ]);
});

Deno.test("OU8/T34: Jsonnet sees origin_resource with relation arrays, header data and params", async () => {
  const r = await buildOutputs({
    "module.toml": `[module]\nname = "m"\nversion = "1.0.0"\n[params.ttl]\ndefault = "300"\n`,
    "assets/zone.csv": "name\nexample.ch\n",
    "assets/record.csv": "name,zone,address\nwww,example.ch,192.0.2.1\napi,example.ch,192.0.2.2\n",
    "input/ns.json": '{"ns1": {"ip": "10.0.0.1"}}',
    "output/zone.toml": `origin_resource = "zone"
ns_data = { "json!" = "ns.json" }
[[output]]
resource_type = "zone_file"
name = "zone_file_{{ origin_resource.name }}"
filename = "db.{{ origin_resource.name }}"
mimetype = "text/plain"
jsonnet = '''
local z = std.extVar("origin_resource");
local ns = std.extVar("ns_data");
std.join("\\n", ["$TTL " + std.extVar("ttl") + " " + std.extVar("params").ttl, "@ IN SOA " + z.name + ". " + ns.ns1.ip] +
  [r.name + " IN A " + r.address + " ; " + r.zone[0].name for r in z.record]) + "\\n"
'''
`,
  });
  assertClean(r);
  const a = artifact(r, "zone_file", "zone_file_example.ch");
  assertEquals(
    a.body,
    "$TTL 300 300\n@ IN SOA example.ch. 10.0.0.1\napi IN A 192.0.2.2 ; example.ch\nwww IN A 192.0.2.1 ; example.ch\n",
  );
  assertEquals(
    r.graph.getResource("zone_file", "zone_file_example.ch")!.properties.content,
    a.body,
  );
});

Deno.test("OU8/T34: Jsonnet objects become properties; .libsonnet imports next to the rule file", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/lib/fmt.libsonnet": "{ port(p):: 'port-' + p }",
    "output/common.libsonnet":
      "local f = import 'lib/fmt.libsonnet'; { label(h):: f.port(h.port) }",
    "output/j.toml": `origin_resource = "host"
[[output]]
resource_type = "fw"
name = "fw-{{ origin_resource.name }}"
jsonnet = '''
local c = import "common.libsonnet";
local h = std.extVar("origin_resource");
{ rule: c.label(h), nested: { env: h.env } }
'''
`,
  });
  assertClean(r);
  assertEquals(r.graph.getResource("fw", "fw-web-03")!.properties, {
    name: "fw-web-03",
    rule: "port-443",
    nested: { env: "prod" },
  });
  assertEquals(
    artifact(r, "fw", "fw-db-01").body,
    '{\n  "nested": {\n    "env": "dev"\n  },\n  "rule": "port-5432"\n}\n',
  );
  assertEquals(issuesOf(r, "info").filter((i) => i.code === "output_file_ignored"), []);
});

Deno.test("OU8: Jsonnet errors name file, rule, origin and the line in the rule file", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/j.toml": `origin_resource = "host"
[[output]]
resource_type = "fw"
name = "fw-{{ origin_resource.name }}"
jsonnet = '''
local h = std.extVar("origin_resource");
h.nope
'''
[[output]]
resource_type = "imp"
name = "imp"
jsonnet = "import 'missing.libsonnet'"
`,
  });
  const errors = issuesOf(r, "error");
  assertEquals(errors.length, 4);
  const e = errors[0];
  assertEquals([e.code, e.file, e.rule], [
    "jsonnet_error",
    "output/j.toml",
    "chunk 1, output[0].jsonnet",
  ]);
  assert(e.message.includes("origin host 'db-01'"), e.message);
  assert(e.message.includes("rule file line 7"), e.message);
  assert(errors[2].message.includes("missing.libsonnet"), errors[2].message);
});

Deno.test("OU2: rules without origin_resource run once in a global context", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "input/v.json": '{"a": 1}',
    "output/cfg.toml": `data = { "json!" = "v.json" }
[[output]]
resource_type = "cfg"
name = "config"
filename = "config.json"
mimetype = "application/json"
template = '{ "data": {{ data | json_encode | safe }}, "alias": "{{ RESOURCE_ALIASES.auth | default(value="auth") }}" }'
`,
  });
  assertClean(r);
  const a = artifact(r, "cfg", "config");
  assertEquals(a.origin, undefined);
  assertEquals(JSON.parse(a.body), { data: { a: 1 }, alias: "auth" });
  assertEquals(r.graph.incoming(r.graph.getResource("cfg", "config")!).length, 0);
  assert(issuesOf(r, "info").some((i) => i.code === "output_without_origin"));
});

Deno.test("OU9/OU21: several origins producing one output merge; first origin by (type, name)", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/sum.toml": `origin_resource = "host"
[[output]]
resource_type = "inventory"
name = "all"
filename = "all.json"
mimetype = "application/json"
template = '{ "seen_{{ origin_resource.name | replace(from="-", to="_") }}": true }'
`,
  });
  assertClean(r);
  const inv = r.graph.getResource("inventory", "all")!;
  assertEquals(inv.properties.seen_db_01, true);
  assertEquals(inv.properties.seen_web_03, true);
  assertEquals(r.graph.incoming(inv, "DESCRIBED_BY").length, 2);
  const list = r.artifacts.filter((a) => a.type === "inventory");
  assertEquals(list.length, 1);
  assertEquals(list[0].origin, { type: "host", name: "db-01" });
});

Deno.test("OU1: output files with another extension holding [[output]] are rules; others ignored", async () => {
  const r = await buildOutputs({
    "assets/network.csv": "name,function\nn1,transit\n",
    "output/ociExample.tf": `origin_resource = "network"
[[output]]
resource_type = "python"
name = "{{- origin_resource.name -}}"
filename = "transitNet.py"
mimetype = "text/x-python"
template = '''
region = "{{- origin_resource.function -}}"
'''
`,
    "output/README.md": "# notes\n",
  });
  assertClean(r);
  assertEquals(artifact(r, "python", "n1").body, 'region = "transit"\n');
  const ignored = issuesOf(r, "info").filter((i) => i.code === "output_file_ignored");
  assertEquals(ignored.map((i) => i.file), ["output/README.md"]);
});

Deno.test("OU7: Tera errors carry template position and rule-file line; other origins go on", async () => {
  const r = await buildOutputs({
    "assets/host.csv": HOSTS,
    "output/t.toml": `origin_resource = "host"

[[output]]
resource_type = "t"
name = "t-{{ origin_resource.name }}"
template = """
{
  "a": "{{ origin_resource.nope }}"
}
"""
`,
  });
  const errors = issuesOf(r, "error");
  assertEquals(errors.length, 2);
  assertEquals(errors[0].code, "template_error");
  assert(errors[0].message.includes("rule file line 8"), errors[0].message);
});

Deno.test("OU6: templateResult keeps texts that cannot be a JSON object, parses those that open with {", async () => {
  const { templateResult } = await import("../../../lib/pipeline/outputs/result.ts");
  assertEquals(templateResult("host-1 e3 tier-1", "text/plain"), {
    kind: "text",
    text: "host-1 e3 tier-1",
  });
  // JSON that is not an object, with a text mimetype: the text itself.
  assertEquals(templateResult("[1, 2]", "text/plain"), { kind: "text", text: "[1, 2]" });
  assertEquals(templateResult(' \n\t{"a": 1}', "text/plain"), {
    kind: "object",
    properties: { a: 1 },
  });
  assertEquals(templateResult("{ not json", "text/x-shellscript"), {
    kind: "text",
    text: "{ not json",
  });
  // Without a text mimetype, the errors name what was rendered.
  let message = "";
  try {
    templateResult("[1, 2]", undefined);
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, "template rendered JSON an array, not an object");
  try {
    templateResult("plain", "application/json");
  } catch (e) {
    message = (e as Error).message;
  }
  assert(message.startsWith("template did not render valid JSON ("), message);
});
