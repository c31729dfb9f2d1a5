/**
 * `resource_aliases` (modules-and-params.md MP17): a dependency's rules and asset declarations
 * read an aliased type as its new type, and its templates see `RESOURCE_ALIASES`.
 */
import { assertEquals } from "../_assert.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../lib/workspace/sources.ts";
import { aliasTomlText } from "../../lib/workspace/aliases.ts";
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
