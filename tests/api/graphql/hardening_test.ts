// G16 hardening: query cost limit, response-size limit, limit/offset paging of list fields, and
// deep literals/variables as GraphQL errors instead of stack overflows (500).
import { parse } from "graphql";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { executeDocument, parseQuery } from "../../../lib/api/graphql/execute.ts";
import { createGraphQLHandler } from "../../../lib/api/graphql/http.ts";
import { MAX_QUERY_COST } from "../../../lib/api/graphql/cost.ts";
import { MAX_RESPONSE_BYTES } from "../../../lib/api/graphql/limits.ts";
import { assert, data, Graph, relate, resources, run } from "./_helpers.ts";

function many(count: number, types = 1): Graph {
  const g = new Graph();
  for (let i = 0; i < count; i++) {
    g.upsertResource(`t${i % types}`, `n${String(i).padStart(6, "0")}`, { i });
  }
  g.seal();
  return g;
}

const aliases = (n: number, field: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;

Deno.test("G16 100 aliased listNodes over a large graph are refused before execution (cost)", async () => {
  const g = many(Math.ceil(MAX_QUERY_COST / 100) + 1);
  const result = await run(g, aliases(100, "listNodes"));
  assert.equal(result.data, undefined);
  assert.equal(result.errors?.length, 1);
  assert.equal(result.errors?.[0].extensions?.code, "QUERY_TOO_COSTLY");
  assert.match(
    result.errors?.[0].message ?? "",
    /estimated cost of \d+, which exceeds the maximum/,
  );
  // Paging lowers the estimate: the same aliases with `limit` run.
  const paged = await data(g, aliases(100, "listNodes(limit: 3)"));
  assert.deepEqual(paged.a99.map((n: { name: string }) => n.name), [
    "n000000",
    "n000001",
    "n000002",
  ]);
});

Deno.test("G16 100 aliased graphJson are refused with a GraphQL error, not a 500", async () => {
  const g = many(Math.ceil(MAX_QUERY_COST / 100) + 1);
  const handle = createGraphQLHandler(() => ({ graph: g, schema: buildGraphQLSchema(g) }));
  const res = await handle(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: aliases(100, "graphJson") }),
    }),
  );
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.errors[0].extensions.code, "QUERY_TOO_COSTLY");
});

Deno.test("G16 cost uses variables and their defaults for limit", async () => {
  const g = many(Math.ceil(MAX_QUERY_COST / 100) + 1);
  const field = "listNodes(limit: $n)";
  const query = `query Q($n: Int = 2) ${aliases(100, field)}`;
  const schema = buildGraphQLSchema(g);
  const byDefault = await executeDocument(schema, g, parse(query));
  assert.equal(byDefault.errors, undefined);
  const big = await executeDocument(schema, g, parse(query), { n: 1_000_000 });
  assert.equal(big.errors?.[0].extensions?.code, "QUERY_TOO_COSTLY");
});

Deno.test("G16 cost counts the fields of fragment spreads and inline fragments", async () => {
  const g = many(Math.ceil(MAX_QUERY_COST / 100) + 1);
  const body = aliases(100, "listNodes").slice(1, -1);
  const spread = `query { ...F } fragment F on Query { ${body} }`;
  const inline = `query { ... on Query { ${body} } }`;
  for (const query of [spread, inline]) {
    const result = await run(g, query);
    assert.equal(result.errors?.[0].extensions?.code, "QUERY_TOO_COSTLY", query.slice(0, 40));
  }
  const paged = await run(g, `query { ...F } fragment F on Query { a: listNodes(limit: 1) }`);
  assert.equal(paged.errors, undefined, JSON.stringify(paged.errors));
});

Deno.test("G16 nested relation selections are estimated by the average degree", async () => {
  const g = new Graph();
  resources(g, [["a", "a1"], ["b", "b1"]]);
  relate(g, ["a", "a1"], "b", ["b", "b1"]);
  g.seal();
  // 14 levels of a→b→a…: with a fixed 10 edges per level the estimate would be ~10^7.
  const open = "a { b { node { a { node { b { node { a { node { b { node { a { node { name ";
  const result = await run(g, `{ ${open}${"} ".repeat(13)} }`);
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
});

Deno.test("G16 the response-size limit stops a query during execution", async () => {
  const g = new Graph();
  const big = "x".repeat(1024 * 1024);
  const count = Math.ceil(MAX_RESPONSE_BYTES / big.length) + 1;
  for (let i = 0; i < count; i++) g.upsertResource("blob", `b${i}`, { body: big });
  g.seal();
  const result = await run(g, "{ blob { name body } }");
  assert.equal(result.data, undefined);
  assert.deepEqual(result.errors?.map((e) => e.extensions?.code), ["RESPONSE_TOO_LARGE"]);
  // A small limit applies to JSON scalars too.
  const schema = buildGraphQLSchema(g);
  const small = await executeDocument(
    schema,
    g,
    parse("{ listNodes }"),
    null,
    null,
    undefined,
    { maxResponseBytes: 100 },
  );
  assert.equal(small.errors?.[0].extensions?.code, "RESPONSE_TOO_LARGE");
  const fits = await executeDocument(
    schema,
    g,
    parse("{ listNodes(limit: 2) }"),
    null,
    null,
    undefined,
    {
      maxResponseBytes: 200,
    },
  );
  assert.equal(fits.errors, undefined);
});

Deno.test("G9 listNodes, graphJson and type fields page with limit/offset", async () => {
  const g = many(10, 2); // t0: n0,n2,…,n8  t1: n1,n3,…,n9
  const all = await data(g, "{ listNodes }");
  const page = await data(g, "{ listNodes(limit: 4, offset: 3) t1(limit: 2, offset: 1) { name } }");
  assert.deepEqual(page.listNodes, all.listNodes.slice(3, 7)); // crosses the t0/t1 boundary
  assert.deepEqual(page.t1, [{ name: "n000003" }, { name: "n000005" }]);
  const labelled = await data(g, '{ listNodes(label: "t1", offset: 4) }');
  assert.deepEqual(labelled.listNodes, [{ type: "t1", name: "n000009" }]);
  const filtered = await data(g, "{ t0(filter: { i: { gt: 2 } }, limit: 1) { name } }");
  assert.deepEqual(filtered.t0, [{ name: "n000004" }]);
  const empty = await data(g, "{ listNodes(offset: 99) t0(limit: 0) { name } }");
  assert.deepEqual(empty, { listNodes: [], t0: [] });
  const bad = await run(g, "{ listNodes(offset: -1) }");
  assert.equal(bad.errors?.[0].extensions?.code, "BAD_ARGUMENT");
});

Deno.test("G9 graphJson pages concatenate to the whole graph", async () => {
  const g = new Graph();
  resources(g, [["a", "a1"], ["a", "a2"], ["b", "b1"], ["b", "b2"]]);
  relate(g, ["a", "a1"], "to", ["b", "b2"]);
  relate(g, ["a", "a1"], "to", ["b", "b1"]);
  relate(g, ["b", "b2"], "back", ["a", "a2"]);
  g.seal();
  const whole = JSON.parse((await data(g, "{ graphJson }")).graphJson);
  const p1 = JSON.parse((await data(g, "{ graphJson(limit: 2) }")).graphJson);
  const p2 = JSON.parse((await data(g, "{ graphJson(limit: 2, offset: 2) }")).graphJson);
  assert.deepEqual(
    { nodes: [...p1.nodes, ...p2.nodes], edges: [...p1.edges, ...p2.edges] },
    whole,
  );
  assert.equal(p1.edges.length, 2);
});

Deno.test("G21 a 9000-deep list literal is a GraphQL error, not a stack overflow", async () => {
  const g = many(2);
  const query = `{ listNodes(label: ${"[".repeat(9000)}"x"${"]".repeat(9000)}) }`;
  const parsed = parseQuery(query);
  assert.ok(!("kind" in parsed));
  assert.equal(parsed.errors?.[0].extensions?.code, "QUERY_TOO_NESTED");
  const handle = createGraphQLHandler(() => ({ graph: g, schema: buildGraphQLSchema(g) }));
  const res = await handle(
    new Request(`http://localhost/graphql?query=${encodeURIComponent(query)}`),
  );
  assert.equal(res.status, 200);
  assert.equal((await res.json()).errors[0].extensions.code, "QUERY_TOO_NESTED");
});

Deno.test("G21 deeply nested input objects and variables are GraphQL errors", async () => {
  const g = many(2);
  const filter = "{ a: ".repeat(9000) + "1" + " }".repeat(9000);
  const literal = await run(g, `{ t0(filter: ${filter}) { name } }`);
  assert.equal(literal.errors?.[0].extensions?.code, "QUERY_TOO_NESTED");
  let deep: unknown = 1;
  for (let i = 0; i < 9000; i++) deep = { a: deep };
  const variables = await run(g, "query Q($f: JSON) { t0(filter: $f) { name } }", { f: deep });
  assert.equal(variables.errors?.[0].extensions?.code, "VARIABLES_TOO_NESTED");
  // Ordinary nesting (depth 15 selections with arguments) is far below the limit.
  assert.equal(
    (await run(g, "{ t0(filter: { i: { in: [[1]] } }) { name } }")).errors?.[0]
      ?.extensions?.code === "QUERY_TOO_NESTED",
    false,
  );
});
