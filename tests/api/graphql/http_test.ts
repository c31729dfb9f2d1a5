// G1/G21/G22 GraphQL over HTTP: POST JSON, GET ?query=, problem documents, snapshot isolation.
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { createGraphQLHandler, type GraphQLState } from "../../../lib/api/graphql/http.ts";
import { assert, Graph, resources } from "./_helpers.ts";

function state(names: string[]): GraphQLState {
  const graph = new Graph();
  resources(graph, names.map((n): [string, string] => ["zone", n]));
  graph.seal();
  return { graph, schema: buildGraphQLSchema(graph) };
}

const URL_ = "http://localhost/graphql";
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request(URL_, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

Deno.test("G1 POST with JSON body answers data", async () => {
  const handle = createGraphQLHandler(() => state(["a.org"]));
  const res = await handle(post(JSON.stringify({
    query: "query Q($n: JSON) { zone(filter: $n) { name } } query Other { countNodes }",
    variables: { n: { name: "a.org" } },
    operationName: "Q",
  })));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.deepEqual(await res.json(), { data: { zone: [{ name: "a.org" }] } });
});

Deno.test("G1 GET ?query= with variables and operationName", async () => {
  const handle = createGraphQLHandler(() => state(["a.org", "b.org"]));
  const params = new URLSearchParams({
    query: "query Q($f: JSON) { zone(filter: $f) { name } }",
    variables: JSON.stringify({ f: { name: { eq: "b.org" } } }),
    operationName: "Q",
  });
  const res = await handle(new Request(`${URL_}?${params}`));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { data: { zone: [{ name: "b.org" }] } });
});

Deno.test("G21 syntax and validation errors answer 200 with errors", async () => {
  const handle = createGraphQLHandler(() => state(["a.org"]));
  const syntax = await handle(post(JSON.stringify({ query: "{ zone { name }" })));
  assert.equal(syntax.status, 200);
  const body = await syntax.json();
  assert.match(body.errors[0].message, /Syntax Error/);
  assert.equal(body.data, undefined);
  const invalid = await handle(post(JSON.stringify({ query: "{ zone { nope } }" })));
  assert.equal(invalid.status, 200);
  assert.match(
    (await invalid.json()).errors[0].message,
    /Cannot query field "nope" on type "zone"/,
  );
});

async function expectProblem(res: Response, status: number, detail: RegExp): Promise<void> {
  assert.equal(res.status, status);
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  const body = await res.json();
  const slug = {
    405: "method-not-allowed",
    413: "payload-too-large",
    415: "unsupported-media-type",
    500: "internal",
  }[status] ?? "bad-request";
  assert.equal(body.type, `urn:graphsvc:problem:${slug}`);
  assert.equal(body.status, status);
  assert.equal(typeof body.title, "string");
  assert.match(body.detail, detail);
}

Deno.test("G21 malformed JSON body → 400 problem document", async () => {
  const handle = createGraphQLHandler(() => state([]));
  await expectProblem(await handle(post("{ query: ")), 400, /not valid JSON/);
  await expectProblem(await handle(post("[]")), 400, /JSON object/);
  await expectProblem(await handle(post('{"query": 1}')), 400, /'query' string/);
  await expectProblem(
    await handle(post('{"query": "{countNodes}", "variables": [1]}')),
    400,
    /'variables' must be a JSON object/,
  );
  await expectProblem(
    await handle(post('{"query": "{countNodes}", "operationName": 3}')),
    400,
    /'operationName'/,
  );
  await expectProblem(
    await handle(new Request(`${URL_}?query=%7BcountNodes%7D&variables=%7B`)),
    400,
    /'variables'/,
  );
  await expectProblem(await handle(new Request(URL_)), 400, /missing 'query'/);
});

Deno.test("wrong method, media type and oversized bodies are problem documents", async () => {
  const handle = createGraphQLHandler(() => state([]), { maxBodyBytes: 64 });
  const put = await handle(new Request(URL_, { method: "PUT", body: "{}" }));
  assert.equal(put.headers.get("allow"), "GET, POST");
  await expectProblem(put, 405, /PUT is not allowed/);
  await expectProblem(
    await handle(post("query=x", { "content-type": "application/x-www-form-urlencoded" })),
    415,
    /application\/json/,
  );
  await expectProblem(
    await handle(post(JSON.stringify({ query: "{ countNodes }".padEnd(80) }))),
    413,
    /exceeds 64 bytes/,
  );
});

Deno.test("G1 mutations are not allowed over GET (405)", async () => {
  const handle = createGraphQLHandler(() => state([]));
  const res = await handle(new Request(`${URL_}?query=${encodeURIComponent("mutation { x }")}`));
  assert.equal(res.headers.get("allow"), "POST");
  await expectProblem(res, 405, /mutation operations are not allowed over GET/);
});

Deno.test("Accept: application/graphql-response+json is honoured", async () => {
  const handle = createGraphQLHandler(() => state([]));
  const res = await handle(
    post('{"query":"{countNodes}"}', { accept: "application/graphql-response+json" }),
  );
  assert.equal(res.headers.get("content-type"), "application/graphql-response+json; charset=utf-8");
  assert.deepEqual(await res.json(), { data: { countNodes: 0 } });
});

Deno.test("G4 each request is answered from the state at its start", async () => {
  let current = state(["old.org"]);
  const handle = createGraphQLHandler(() => current);
  const pending = handle(post('{"query":"{ zone { name } countNodes }"}'));
  current = state(["new-1.org", "new-2.org"]); // swapped while the first request is in flight
  assert.deepEqual(await (await pending).json(), {
    data: { zone: [{ name: "old.org" }], countNodes: 1 },
  });
  const next = await handle(post('{"query":"{ countNodes }"}'));
  assert.deepEqual(await next.json(), { data: { countNodes: 2 } });
});

Deno.test("a schema used with another graph is an internal error (500)", async () => {
  const a = state(["a"]);
  const b = state(["b"]);
  const handle = createGraphQLHandler(() => ({ schema: a.schema, graph: b.graph }));
  await expectProblem(
    await handle(post('{"query":"{countNodes}"}')),
    500,
    /different graph snapshot/,
  );
});
