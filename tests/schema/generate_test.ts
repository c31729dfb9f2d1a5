/**
 * `generate-schema` inference and output (reference SV50–SV52).
 */
import { assert, assertEquals } from "../_assert.ts";
import { generateSchema } from "../../lib/schema/generate.ts";
import { parseSchema } from "../../lib/schema/parse.ts";
import { build } from "./_support.ts";

async function generate(
  files: Record<string, string>,
  options: Partial<Parameters<typeof generateSchema>[1]> = {},
) {
  const { sources, result } = await build(files);
  return generateSchema(
    { sources, graph: result.graph, manifest: result.manifest, assets: result.assets },
    { today: "20260102", ...options },
  );
}

const FILES = {
  "assets/site.csv": "name\nzrh\n",
  "assets/host.csv": "name,cores,managed,owner,site\nweb-1,4,true,ops,zrh\nweb-2,8,FALSE,,zrh\n",
  "models/os.toml": 'origin_resource = "host"\n[[create_resource]]\nresource_type = "os_image"\n' +
    'relation_type = "RUNS"\nname = "{{ origin_resource.name }}-os"\n' +
    '[create_resource.properties]\nfamily = "linux"\n',
  "actions/start.toml": 'name = "start-host"\ndescription = "power on"\n' +
    'capabilities = ["host.start", "site.host.move"]\nexec = [["true"]]\n',
};

Deno.test("SV51 types, required, property types, relations and capabilities are inferred", async () => {
  const g = await generate(FILES);
  const res = g.schema.resources as Record<string, Record<string, unknown>>;
  assertEquals(Object.keys(res), ["host", "os_image", "site"]);
  assertEquals(res.host.required, ["cores", "managed", "name", "site"], "owner has an empty cell");
  assertEquals(res.host.properties, {
    cores: { type: "integer" },
    managed: { type: "boolean" },
    owner: { type: "string" },
    site: { type: "string" },
  });
  assertEquals(res.host.relations, { RUNS: { target: "os_image" }, site: { target: "site" } });
  assertEquals(res.host.capabilities, { actions: { start: { description: "power on" } } });
  assertEquals(res.os_image.required, ["name"]);
  assertEquals(res.os_image.properties, { family: { type: "string" } });
  assertEquals([g.schema.schema_id, g.schema.version], ["local", "20260102"]);
  // The output is itself a loadable schema.
  assertEquals(parseSchema(g.text, "gen.json").resources.size, 3);
});

Deno.test("SV51 declared legacy column types win over inferred ones", async () => {
  const g = await generate({
    ...FILES,
    "module.toml": '[module]\nname = "fleet"\nversion = "2.1.0"\n[assets."host.csv"]\n' +
      '[assets."host.csv".columns]\ncores = "number"\nowner = "array_of_string"\nmanaged = "string"\n',
  });
  const host = (g.schema.resources as Record<string, Record<string, unknown>>).host;
  assertEquals((host.properties as Record<string, unknown>).cores, { type: "number" });
  assertEquals((host.properties as Record<string, unknown>).owner, {
    type: "array",
    items: { type: "string" },
  });
  assertEquals((host.properties as Record<string, unknown>).managed, { type: "string" });
  assertEquals([g.schema.schema_id, g.schema.version], ["fleet", "2.1.0"], "module defaults");
});

Deno.test("SV50/SV52 requested types, --schema-id/--schema-version, unknown names, determinism", async () => {
  const g = await generate(FILES, { types: ["site", "nope"], schemaId: "x", version: "7" });
  assertEquals(Object.keys(g.schema.resources as object), ["site"]);
  assertEquals(g.unknownTypes, ["nope"]);
  assertEquals([g.schema.schema_id, g.schema.version], ["x", "7"]);
  const again = await generate(FILES, { types: ["site", "nope"], schemaId: "x", version: "7" });
  assertEquals(again.text, g.text);
  assert(g.text.endsWith("}\n") && g.text.includes('\n  "resources": {'), g.text);
  const keys = Object.keys(g.schema);
  assertEquals(keys, [...keys].sort());
});
