/**
 * `resource_aliases` (modules-and-params.md MP17): a dependency's rules and asset declarations
 * read an aliased type as its new type, and its templates see `RESOURCE_ALIASES`.
 */
import { assertEquals } from "../_assert.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";
import { aliasSchemaText, aliasTomlText } from "../../lib/workspace/aliases.ts";
import { validateWorkspace } from "../../lib/schema/validate.ts";
import { buildSources } from "../pipeline/outputs/_support.ts";

Deno.test("MP17 aliased type references in rule TOML; other values untouched", () => {
  const text = 'origin_resource = "zone"\nname = "zone"\n[[create_resource]]\n' +
    'resource_type = "record"\nname = "{{ origin_resource.name }}"\n' +
    '[[link_resources]]\nwith = "zone"\n';
  const out = aliasTomlText(text, { zone: "dns_zone" });
  assertEquals(
    out.includes('origin_resource = "dns_zone"') && out.includes('with = "dns_zone"'),
    true,
  );
  assertEquals(out.includes('name = "zone"'), true, out);
  assertEquals(aliasTomlText(text, {}), text);
  assertEquals(aliasTomlText("not [ toml", { zone: "x" }), "not [ toml");
});

Deno.test("MP17 a dependency with resource_aliases builds on the aliased type", async () => {
  const dep = new MemoryWorkspace({
    "module.toml": '[module]\nname = "dns"\nversion = "1.0.0"\n',
    "models/record.toml": 'origin_resource = "zone"\n[[create_resource]]\n' +
      'resource_type = "record"\nname = "{{ origin_resource.name }}-' +
      "{{ RESOURCE_ALIASES.zone | default(value='zone') }}\"\n",
  });
  const sources = await loadSourceSet(
    new MemoryWorkspace({ "assets/dns_zone.csv": "name\nexample.org\n" }),
    [{ id: "dns", workspace: dep, resourceAliases: { zone: "dns_zone" } }],
  );
  const r = buildSources(sources);
  assertEquals(r.graph.resourcesOf("record").map((x) => x.name), ["example.org-dns_zone"]);
  // Without aliases the template default applies (and no zone exists).
  const plain = buildSources(
    await loadSourceSet(new MemoryWorkspace({ "assets/zone.csv": "name\na\n" }), [
      { id: "dns", workspace: dep },
    ]),
  );
  assertEquals(plain.graph.resourcesOf("record").map((x) => x.name), ["a-zone"]);
});

Deno.test("MP17 schema files: resource keys, implements and relation targets are aliased", () => {
  const text = JSON.stringify({
    schema_id: "dns",
    version: "1",
    resources: {
      zone: { required: ["ttl"] },
      record: { implements: ["zone"], relations: { IN: { target: "zone" } } },
    },
  });
  const out = JSON.parse(aliasSchemaText(text, { zone: "dns_zone" }));
  assertEquals(out.resources, {
    dns_zone: { required: ["ttl"] },
    record: { implements: ["dns_zone"], relations: { IN: { target: "dns_zone" } } },
  });
  assertEquals(aliasSchemaText(text, { other: "x" }), text);
  assertEquals(aliasSchemaText("{ not json", { zone: "x" }), "{ not json");
});

Deno.test("MP17 a dependency's schemas, [[schema]] resources and requirements follow its aliases", async () => {
  const dep = new MemoryWorkspace({
    "module.toml": '[module]\nname = "dns"\nversion = "1.0.0"\n' +
      'schemas = ["./schemas/dns.schema.json"]\n' +
      '[[schema]]\nschema = "./schemas/dns.schema.json"\nresources = ["zone"]\n' +
      '[requirements.zone]\nproperties = ["owner"]\n' +
      '[[requirement]]\ntype = "zone"\nproperties = ["ttl"]\n',
    "schemas/dns.schema.json": JSON.stringify({
      schema_id: "dns",
      version: "1",
      resources: { zone: { required: ["serial"] } },
    }),
  });
  const sources = await loadSourceSet(
    new MemoryWorkspace({ "assets/dns_zone.csv": "name\nexample.org\n" }),
    [{ id: "dns", workspace: dep, resourceAliases: { zone: "dns_zone" } }],
  );
  const built = buildSources(sources);
  assertEquals([...built.manifest.requirements.keys()], ["dns_zone"]);
  assertEquals(
    built.issues.filter((i) => i.code === "requirement_property_missing").map((i) => i.message),
    [
      "requirement: dns_zone 'example.org' lacks property 'owner'",
      "requirement: dns_zone 'example.org' lacks property 'ttl'",
    ],
  );
  const report = validateWorkspace({
    sources,
    graph: built.graph,
    manifest: built.manifest,
    assets: built.assets,
    buildIssues: built.issues,
  });
  const missing = report.issues.filter((i) => i.code === "missing_required_property");
  assertEquals(missing.map((i) => [i.resource_type, i.property]), [["dns_zone", "serial"]]);
  assertEquals(report.issues.filter((i) => i.code === "schema_unknown_type"), []);
});
