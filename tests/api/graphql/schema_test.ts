// Generated schema: naming, property typing, relation fields, unions and root fields.
import { GraphQLString, printSchema } from "graphql";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { assert, data, errors, Graph, relate, resources } from "./_helpers.ts";

Deno.test("G7 root field per type, ordered by name, __typename = label (G5)", async () => {
  const g = new Graph();
  resources(g, [["host", "web-2"], ["host", "web-1"], ["host", "db-1"], ["zone", "z"]]);
  const d = await data(g, "{ host { __typename name } zone { name } }");
  assert.deepEqual(d.host.map((h: { name: string }) => h.name), ["db-1", "web-1", "web-2"]);
  assert.equal(d.host[0].__typename, "host");
  assert.deepEqual(d.zone, [{ name: "z" }]);
});

Deno.test("G11 property type inference over all values of a key", async () => {
  const g = new Graph();
  resources(g, [
    ["t", "a", {
      b: true,
      i: 1,
      f: 1,
      s: "x",
      l: ["x"],
      mixed: "1",
      obj: { k: 1 },
      big: 1,
      nul: null,
      arr: ["x"],
      only_a: "here",
    }],
    ["t", "b", {
      b: false,
      i: -2147483648,
      f: 1.5,
      s: "y",
      l: [],
      mixed: 1,
      obj: { k: 2 },
      big: 2147483648,
      nul: null,
      arr: [1],
    }],
  ]);
  const schema = buildGraphQLSchema(g);
  const fields = schema.getType("t")!.toConfig() as { fields: Record<string, { type: unknown }> };
  const typeOf = (f: string) => String(fields.fields[f].type);
  assert.equal(typeOf("name"), "String!");
  assert.equal(typeOf("b"), "Boolean");
  assert.equal(typeOf("i"), "Int");
  assert.equal(typeOf("f"), "Float");
  assert.equal(typeOf("s"), "String");
  assert.equal(typeOf("l"), "[String]");
  assert.equal(typeOf("mixed"), "JSON");
  assert.equal(typeOf("obj"), "JSON");
  assert.equal(typeOf("big"), "Float");
  assert.equal(typeOf("nul"), "String");
  assert.equal(typeOf("arr"), "JSON");
  const d = await data(g, "{ t { name b i f l obj big arr only_a } }");
  assert.deepEqual(d.t[1], {
    name: "b",
    b: false,
    i: -2147483648,
    f: 1.5,
    l: [],
    obj: { k: 2 },
    big: 2147483648,
    arr: [1],
    only_a: null, // G11: missing values return null
  });
});

Deno.test("G12 JSON scalar passes nested values through without key sanitising", async () => {
  const g = new Graph();
  resources(g, [["t", "a", { data: { "weird-key": [1, { "x y": null }], n: 2.5 } }]]);
  const d = await data(g, "{ t { data } }");
  assert.deepEqual(d.t[0].data, { "weird-key": [1, { "x y": null }], n: 2.5 });
});

Deno.test("G5/G6 sanitising of type and field names, built-in clashes, suffixes", async () => {
  const g = new Graph();
  resources(g, [
    ["dns-zone", "a", { "ip.address": "1", "ip_address": "2", "9lives": "x", "__secret": "s" }],
    ["String", "s"],
    ["1type", "n"],
    ["a.b", "x"],
    ["a_b", "y"],
  ]);
  const schema = buildGraphQLSchema(g);
  assert.ok(schema.getType("dns_zone"));
  assert.ok(schema.getType("String_"));
  assert.equal(schema.getType("String"), GraphQLString); // built-in untouched
  assert.ok(schema.getType("_1type"));
  // "a.b" < "a_b" in code-unit order, so "a.b" keeps "a_b" and "a_b" gets the suffix (G6).
  assert.ok(schema.getType("a_b"));
  assert.ok(schema.getType("a_b_2"));
  const d = await data(
    g,
    "{ dns_zone { ip_address ip_address_2 _9lives x__secret } String { __typename name } " +
      "a_b { name } a_b_2 { name } }",
  );
  assert.deepEqual(d.dns_zone, [{
    ip_address: "1",
    ip_address_2: "2",
    _9lives: "x",
    x__secret: "s",
  }]);
  assert.deepEqual(d.String, [{ __typename: "String_", name: "s" }]);
  assert.deepEqual(d.a_b, [{ name: "x" }]);
  assert.deepEqual(d.a_b_2, [{ name: "y" }]);
});

function appGraph(): Graph {
  const g = new Graph();
  resources(g, [
    ["service", "shop", { database: "db-main" }],
    ["service", "blog"],
    ["database", "db-main", { engine: "pg" }],
    ["database", "db-cache"],
    ["host", "h1"],
    ["vm", "v1"],
  ]);
  relate(g, ["service", "shop"], "database", ["database", "db-main"], { port: 5432 });
  relate(g, ["service", "shop"], "database", ["database", "db-cache"], {
    port: 6379,
    controls: [{ id: "C1", status: "pass" }],
    relation: "raw",
  });
  relate(g, ["service", "blog"], "database", ["database", "db-main"]);
  relate(g, ["service", "shop"], "RUNS_ON", ["vm", "v1"]);
  relate(g, ["service", "shop"], "RUNS_ON", ["host", "h1"]);
  g.seal();
  return g;
}

Deno.test("G13/G14 outgoing relation fields return edges with node, properties and parent", async () => {
  const d = await data(
    appGraph(),
    `{ service(filter: { name: "shop" }) { database {
        node { name engine } properties { relation port controls relation__value } parent { name }
    } } }`,
  );
  assert.deepEqual(d.service[0].database, [
    {
      node: { name: "db-cache", engine: null },
      properties: {
        relation: "database",
        port: 6379,
        controls: [{ id: "C1", status: "pass" }],
        relation__value: "raw",
      },
      parent: { name: "shop" },
    },
    {
      node: { name: "db-main", engine: "pg" },
      properties: { relation: "database", port: 5432, controls: null, relation__value: null },
      parent: { name: "shop" },
    },
  ]);
});

Deno.test("G13 reverse traversal: incoming field named after the source type", async () => {
  const d = await data(
    appGraph(),
    `{ database { name service { node { name } properties { relation } parent { name } } } }`,
  );
  assert.deepEqual(d.database, [
    {
      name: "db-cache",
      service: [{
        node: { name: "shop" },
        properties: { relation: "database" },
        parent: { name: "db-cache" },
      }],
    },
    {
      name: "db-main",
      service: [
        {
          node: { name: "blog" },
          properties: { relation: "database" },
          parent: { name: "db-main" },
        },
        {
          node: { name: "shop" },
          properties: { relation: "database" },
          parent: { name: "db-main" },
        },
      ],
    },
  ]);
});

Deno.test("G14 union for multi-type targets, inline fragments, ordered by node type then name", async () => {
  const g = appGraph();
  const schema = buildGraphQLSchema(g);
  const union = schema.getType("service_RUNS_ON_target");
  assert.ok(union, "union type exists");
  assert.match(printSchema(schema), /union service_RUNS_ON_target = host \| vm/);
  const d = await data(
    g,
    `{ service(filter: { name: "shop" }) { RUNS_ON { node { __typename ... on host { name } ... on vm { name } } } } }`,
  );
  assert.deepEqual(d.service[0].RUNS_ON, [
    { node: { __typename: "host", name: "h1" } },
    { node: { __typename: "vm", name: "v1" } },
  ]);
  const bad = await errors(g, `{ service { RUNS_ON { node { name } } } }`);
  assert.match(bad[0], /Cannot query field "name" on type "service_RUNS_ON_target"/);
});

Deno.test("G13 outgoing relation name equal to an incoming source type merges both edge sets", async () => {
  const g = new Graph();
  resources(g, [["person", "ann"], ["person", "bob"], ["person", "cy"]]);
  relate(g, ["person", "ann"], "person", ["person", "bob"]); // ann -person-> bob
  relate(g, ["person", "cy"], "KNOWS", ["person", "ann"]); // incoming from type person
  relate(g, ["person", "ann"], "person", ["person", "ann"]); // self loop listed once
  const d = await data(
    g,
    `{ person(filter: { name: "ann" }) { person { node { name } properties { relation } } } }`,
  );
  assert.deepEqual(d.person[0].person, [
    { node: { name: "ann" }, properties: { relation: "person" } },
    { node: { name: "bob" }, properties: { relation: "person" } },
    { node: { name: "cy" }, properties: { relation: "KNOWS" } },
  ]);
});

Deno.test("G15 a property shadowed by a relation field is exposed as <key>__value", async () => {
  const d = await data(
    appGraph(),
    `{ service { name database__value database { node { name } } } }`,
  );
  assert.deepEqual(d.service[1], {
    name: "shop",
    database__value: "db-main",
    database: [{ node: { name: "db-cache" } }, { node: { name: "db-main" } }],
  });
});

Deno.test("G14 parent allows walking back and nesting is unlimited below the depth limit", async () => {
  const d = await data(
    appGraph(),
    `{ vm { service { node { database { node { service { parent { name } node { name } } } } } } } }`,
  );
  const names = d.vm[0].service[0].node.database.map((e: { node: { service: unknown[] } }) =>
    e.node.service.length
  );
  assert.deepEqual(names, [1, 2]);
});

Deno.test("G9 count fields", async () => {
  const d = await data(
    appGraph(),
    `{ countNodes countEdges countResourceTypes countRelationTypes countNodeProperties countEdgeProperties }`,
  );
  assert.deepEqual(d, {
    countNodes: 6,
    countEdges: 5,
    countResourceTypes: 4,
    countRelationTypes: 2,
    countNodeProperties: 6 + 2, // every resource has `name`; shop.database and db-main.engine
    countEdgeProperties: 1 + 3,
  });
});

Deno.test("G9 listNodes with and without label", async () => {
  const g = appGraph();
  const d = await data(
    g,
    `{ all: listNodes vms: listNodes(label: "vm") none: listNodes(label: "nope") }`,
  );
  assert.deepEqual(d.all.slice(0, 3), [
    { type: "database", name: "db-cache" },
    { type: "database", name: "db-main" },
    { type: "host", name: "h1" },
  ]);
  assert.equal(d.all.length, 6);
  assert.deepEqual(d.vms, [{ type: "vm", name: "v1" }]);
  assert.deepEqual(d.none, []);
});

Deno.test("G9 graphJson round-trips graph.toJSON()", async () => {
  const g = appGraph();
  const d = await data(g, "{ graphJson }");
  assert.deepEqual(JSON.parse(d.graphJson), JSON.parse(JSON.stringify(g.toJSON())));
  assert.equal(JSON.parse(d.graphJson).edges.length, 5);
});

Deno.test("G3 introspection: __schema and __type", async () => {
  const d = await data(
    appGraph(),
    `{ __schema { queryType { name } mutationType { name } types { name } }
       __type(name: "service") { fields { name type { kind name ofType { name } } } } }`,
  );
  assert.equal(d.__schema.queryType.name, "Query");
  assert.equal(d.__schema.mutationType, null);
  const typeNames = d.__schema.types.map((t: { name: string }) => t.name);
  for (const n of ["service", "database", "host", "vm", "JSON", "service_database_edge"]) {
    assert.ok(typeNames.includes(n), n);
  }
  const fields = d.__type.fields.map((f: { name: string }) => f.name);
  assert.deepEqual(fields, ["name", "database__value", "RUNS_ON", "database"]);
});

Deno.test("empty graph gives a valid schema with the global fields only", async () => {
  const g = new Graph();
  const d = await data(g, "{ countNodes countEdges countResourceTypes listNodes graphJson }");
  assert.deepEqual(d, {
    countNodes: 0,
    countEdges: 0,
    countResourceTypes: 0,
    listNodes: [],
    graphJson: '{"nodes":[],"edges":[]}',
  });
  const schema = buildGraphQLSchema(g);
  assert.deepEqual(Object.keys(schema.getQueryType()!.getFields()).slice(0, 2), [
    "countNodes",
    "countEdges",
  ]);
});

Deno.test("mutation extension point adds a Mutation type only when fields are given", async () => {
  const g = new Graph();
  resources(g, [["vm", "v1"]]);
  const schema = buildGraphQLSchema(g, {
    mutations: ({ objectTypes }) => ({
      ping: { type: GraphQLString, resolve: () => `pong ${objectTypes.size}` },
    }),
  });
  assert.equal(schema.getMutationType()?.name, "Mutation");
  const { executeGraphQL } = await import("../../../lib/api/graphql/execute.ts");
  const result = await executeGraphQL(schema, g, { query: "mutation { ping }" });
  assert.deepEqual({ ...result.data }, { ping: "pong 1" });
  assert.equal(buildGraphQLSchema(g, { mutations: () => ({}) }).getMutationType(), undefined);
  assert.equal(buildGraphQLSchema(g).getMutationType(), undefined);
});

Deno.test("a resource type named like a global field keeps the global field (suffixed root)", async () => {
  const g = new Graph();
  resources(g, [["countNodes", "x"]]);
  const d = await data(g, "{ countNodes countNodes_2 { __typename name } }");
  assert.deepEqual(d, { countNodes: 1, countNodes_2: [{ __typename: "countNodes", name: "x" }] });
});

Deno.test("M12 an empty-typed relation is the outgoing field `_`; incoming through the source type", async () => {
  const g = new Graph();
  resources(g, [["identity", "alice"], ["login", "al"]]);
  g.upsertRelation(g.getResource("identity", "alice")!, "", g.getResource("login", "al")!);
  const d = await data(
    g,
    "{ identity { name _ { node { name } } } login { name identity { node { name } } } }",
  );
  assert.deepEqual(d.identity, [{ name: "alice", _: [{ node: { name: "al" } }] }]);
  assert.deepEqual(d.login, [{ name: "al", identity: [{ node: { name: "alice" } }] }]);
});
