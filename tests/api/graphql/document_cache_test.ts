// Issue 26: documents parsed and validated once, whole answers of identical queries remembered
// per snapshot and schema; every limit still holds for a remembered document.
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { createGraphQLHandler, type GraphQLState } from "../../../lib/api/graphql/http.ts";
import { ResponseCache } from "../../../lib/api/graphql/document_cache.ts";
import { MAX_QUERY_COST } from "../../../lib/api/graphql/cost.ts";
import { assert, Graph, resources } from "./_helpers.ts";

function state(names: string[], type = "zone"): GraphQLState {
  const graph = new Graph();
  resources(graph, names.map((n): [string, string] => [type, n]));
  graph.seal();
  return { graph, schema: buildGraphQLSchema(graph), cacheResponses: true };
}

const post = (body: unknown) =>
  new Request("http://localhost/graphql", {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });

Deno.test("an identical query answers the same; a new snapshot answers from its own graph", async () => {
  let current = state(["a.org"]);
  const handle = createGraphQLHandler(() => current);
  const ask = async () => await (await handle(post({ query: "{ zone { name } }" }))).json();
  assert.deepEqual(await ask(), { data: { zone: [{ name: "a.org" }] } });
  assert.deepEqual(await ask(), { data: { zone: [{ name: "a.org" }] } });
  current = state(["a.org", "b.org"]);
  assert.deepEqual(await ask(), { data: { zone: [{ name: "a.org" }, { name: "b.org" }] } });
});

Deno.test("a remembered document is validated against each schema it meets", async () => {
  let current = state(["a.org"]);
  const handle = createGraphQLHandler(() => current);
  const query = "{ zone { name } }";
  const ok = await (await handle(post({ query }))).json();
  assert.deepEqual(ok, { data: { zone: [{ name: "a.org" }] } });
  current = state(["h1"], "host"); // no type `zone` in this schema
  const refused = await (await handle(post({ query }))).json();
  assert.equal(refused.data, undefined);
  assert.match(refused.errors[0].message, /zone/);
});

Deno.test("the cost limit of a remembered document follows each request's variables", async () => {
  const graph = new Graph();
  for (let i = 0; i < Math.ceil(MAX_QUERY_COST / 100) + 1; i++) graph.upsertResource("t0", `n${i}`);
  graph.seal();
  const s: GraphQLState = { graph, schema: buildGraphQLSchema(graph), cacheResponses: true };
  const handle = createGraphQLHandler(() => s);
  const aliases = Array.from({ length: 100 }, (_, i) => `a${i}: listNodes(limit: $n)`).join(" ");
  const query = `query Q($n: Int) { ${aliases} }`;
  const small = await (await handle(post({ query, variables: { n: 1 } }))).json();
  assert.equal(small.errors, undefined);
  const large = await (await handle(post({ query, variables: { n: 100_000 } }))).json();
  assert.equal(large.data, undefined);
  assert.equal(large.errors[0].extensions.code, "QUERY_TOO_COSTLY");
  // The same text again: still refused (errors are never remembered as answers).
  const again = await (await handle(post({ query, variables: { n: 100_000 } }))).json();
  assert.equal(again.errors[0].extensions.code, "QUERY_TOO_COSTLY");
});

Deno.test("a mutation over GET is refused also when its document is remembered", async () => {
  const handle = createGraphQLHandler(() => state(["a.org"]));
  const query = "mutation { x }";
  await (await handle(post({ query }))).body?.cancel();
  const res = await handle(
    new Request(`http://localhost/graphql?query=${encodeURIComponent(query)}`),
  );
  assert.equal(res.status, 405);
  await res.body?.cancel();
});

Deno.test("answers carrying per-request extensions are not remembered", async () => {
  const graph = new Graph();
  resources(graph, [["zone", "a.org"]]);
  graph.seal();
  const schema = buildGraphQLSchema(graph);
  let n = 0;
  const handle = createGraphQLHandler(() => ({
    graph,
    schema,
    extensions: { build: { n: ++n } },
    cacheResponses: false,
  }));
  const first = await (await handle(post({ query: "{ countNodes }" }))).json();
  const second = await (await handle(post({ query: "{ countNodes }" }))).json();
  assert.deepEqual(first.extensions, { build: { n: 1 } });
  assert.deepEqual(second.extensions, { build: { n: 2 } });
});

Deno.test("issue 26: an answer is remembered the second time its request comes; one-off requests evict nothing", () => {
  const cache = new ResponseCache();
  const graph = {}, schema = {};
  const answer = (body: string) => ({ status: 200, contentType: "application/json", body });
  cache.set(graph, schema, "hot", answer("1"));
  assert.equal(cache.get(graph, schema, "hot"), undefined, "seen once: not remembered");
  cache.set(graph, schema, "hot", answer("1"));
  assert.equal(cache.get(graph, schema, "hot")?.body, "1");
  // A flood of distinct one-off requests, with answers big enough to fill the cache many times.
  const big = "x".repeat(200 * 1024);
  for (let i = 0; i < 1_000; i++) cache.set(graph, schema, `once ${i}`, answer(big));
  assert.equal(cache.get(graph, schema, "hot")?.body, "1", "the hot answer stays");
  assert.equal(cache.get(graph, schema, "once 999"), undefined);
});
