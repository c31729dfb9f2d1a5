// G5/G6 name sanitising and G11 kind inference, as units.
import { NameRegistry, sanitizeName, sanitizeTypeName } from "../../../lib/api/graphql/naming.ts";
import { KindCollector, kindOf, scalarOfKinds } from "../../../lib/api/graphql/infer.ts";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { assert, Graph, relate, resources } from "./_helpers.ts";

Deno.test("G5 sanitizeName / sanitizeTypeName", () => {
  assert.equal(sanitizeName("cloudflare_py"), "cloudflare_py");
  assert.equal(sanitizeName("dns-zone.v2"), "dns_zone_v2");
  assert.equal(sanitizeName("Zürich"), "Z_rich");
  assert.equal(sanitizeName("1abc"), "_1abc");
  assert.equal(sanitizeName("__x"), "x__x");
  assert.equal(sanitizeName(""), "_");
  for (const b of ["String", "Int", "Float", "Boolean", "ID", "JSON", "Query", "Mutation"]) {
    assert.equal(sanitizeTypeName(b), `${b}_`);
  }
  assert.equal(sanitizeTypeName("string"), "string");
});

Deno.test("G6 NameRegistry suffixes later clashes with _2, _3", () => {
  const r = new NameRegistry(["name"]);
  assert.equal(r.claim("a"), "a");
  assert.equal(r.claim("a"), "a_2");
  assert.equal(r.claim("a"), "a_3");
  assert.equal(r.claim("name"), "name_2");
  assert.equal(r.has("a_3"), true);
});

Deno.test("G11 kindOf and scalarOfKinds", () => {
  const scalar = (...values: Parameters<typeof kindOf>[0][]) =>
    scalarOfKinds(values.reduce((m: number, v) => m | kindOf(v), 0));
  assert.equal(scalar(true, false), "Boolean");
  assert.equal(scalar(1, 2147483647), "Int");
  assert.equal(scalar(1, 2147483648), "Float");
  assert.equal(scalar(0.5), "Float");
  assert.equal(scalar("a", null), "String");
  assert.equal(scalar(["a"], []), "StringList");
  assert.equal(scalar(["a", 1]), "JSON");
  assert.equal(scalar("1", 1), "JSON");
  assert.equal(scalar(true, "true"), "JSON");
  assert.equal(scalar({}), "JSON");
  assert.equal(scalar(null), "String");
});

Deno.test("KindCollector keeps first-seen key order and counts entries", () => {
  const c = new KindCollector();
  assert.equal(c.add({ name: "x", b: 1, a: "s" }, "name"), 2);
  assert.equal(c.add({ c: true, a: 2 }), 2);
  assert.deepEqual([...c.kinds.keys()], ["b", "a", "c"]);
  assert.equal(scalarOfKinds(c.kinds.get("a")!), "JSON");
});

Deno.test("relation field descriptions state the direction", () => {
  const g = new Graph();
  resources(g, [["service", "s"], ["database", "d"]]);
  relate(g, ["service", "s"], "database", ["database", "d"]);
  const schema = buildGraphQLSchema(g);
  const field = (type: string, name: string) =>
    (schema.getType(type) as unknown as { getFields(): Record<string, { description: string }> })
      .getFields()[name].description;
  assert.equal(
    field("service", "database"),
    "Edges of outgoing `database` relations, ordered by node type then name.",
  );
  assert.equal(
    field("database", "service"),
    "Edges of incoming relations from `service` resources, ordered by node type then name.",
  );
});
