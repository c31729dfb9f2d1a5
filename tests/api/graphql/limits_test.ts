// G16 limits: query depth, aliases, returned edges; the full introspection query still passes.
import { getIntrospectionQuery, parse, validate } from "graphql";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import {
  MAX_ALIASES,
  MAX_QUERY_DEPTH,
  MAX_RETURNED_EDGES,
  maxDepthRule,
} from "../../../lib/api/graphql/limits.ts";
import { assert, data, errors, Graph, relate, resources, run } from "./_helpers.ts";

function cyclic(): Graph {
  const g = new Graph();
  resources(g, [["a", "a1"], ["b", "b1"]]);
  relate(g, ["a", "a1"], "b", ["b", "b1"]);
  g.seal();
  return g;
}

/**
 * `{ a { b { node { a { node { … name } } } } } }` with exactly `depth` field levels. Objects and
 * edges alternate in this schema, so only even depths can be written.
 */
function nested(depth: number): string {
  assert.equal(depth % 2, 0);
  const open: string[] = ["a", "b", "node"];
  while (open.length < depth - 1) {
    const type = open.at(-3) === "b" || open.at(-2) === "b" ? "a" : "b";
    open.push(type, "node");
  }
  return "{ " + open.map((f) => `${f} { `).join("") + "name" + " }".repeat(open.length) + " }";
}

Deno.test("G16 a query of depth 14 runs, depth 16 is rejected with a clear error", async () => {
  const g = cyclic();
  assert.equal(MAX_QUERY_DEPTH, 15);
  const ok = await run(g, nested(14));
  assert.equal(ok.errors, undefined, JSON.stringify(ok.errors));
  const [message] = await errors(g, nested(16));
  assert.equal(message, "Operation has depth 16, which exceeds the maximum query depth of 15.");
});

Deno.test("G16 depth rule boundary: depth == max passes, max + 1 fails", () => {
  const schema = buildGraphQLSchema(cyclic());
  const doc = parse(nested(4));
  assert.deepEqual(validate(schema, doc, [maxDepthRule(4)]), []);
  const [error] = validate(schema, doc, [maxDepthRule(3)]);
  assert.equal(error.message, "Operation has depth 4, which exceeds the maximum query depth of 3.");
  assert.deepEqual(error.locations, [{ line: 1, column: 18 }]); // `name`, the deepest field
});

Deno.test("G16 depth counts through named and inline fragments", async () => {
  const g = cyclic();
  const deep = nested(14).replace("name", "...F"); // F adds 2 levels: a { node { name } }
  const query = `${deep} fragment F on a { ... on a { b { node { name } } } }`;
  const result = await run(g, query);
  assert.match(result.errors?.[0].message ?? "", /depth 16/);
  assert.equal(result.errors?.[0].extensions?.code, "QUERY_TOO_DEEP");
});

Deno.test("G16 the standard introspection query is not limited by depth", async () => {
  const d = await data(cyclic(), getIntrospectionQuery());
  assert.equal(d.__schema.queryType.name, "Query");
});

Deno.test("alias limit: 100 aliases run, 101 are rejected", async () => {
  const g = cyclic();
  const aliases = (n: number) =>
    "{ " + Array.from({ length: n }, (_, i) => `x${i}: countNodes`).join(" ") + " }";
  const ok = await run(g, aliases(MAX_ALIASES));
  assert.equal(ok.errors, undefined);
  const [message] = await errors(g, aliases(MAX_ALIASES + 1));
  assert.equal(message, "Document uses more than 100 aliases, which is the maximum.");
});

Deno.test("G16 more than 10 000 returned edges reject the whole query", async () => {
  const g = new Graph();
  g.upsertResource("hub", "h");
  for (let i = 0; i < 101; i++) {
    g.upsertResource("spoke", `s${String(i).padStart(3, "0")}`);
    relate(g, ["spoke", `s${String(i).padStart(3, "0")}`], "hub", ["hub", "h"]);
  }
  g.seal();
  // 101 + 101 × 101 = 10 302 edges.
  const big = await run(
    g,
    "{ hub { spoke { node { hub { node { spoke { node { name } } } } } } } }",
  );
  assert.equal(big.data, undefined);
  assert.equal(big.errors?.length, 1);
  assert.equal(big.errors?.[0].extensions?.code, "LIMIT_EXCEEDED");
  assert.match(
    big.errors![0].message,
    new RegExp(`more than ${MAX_RETURNED_EDGES} relation edges`),
  );
  // 101 + 101 = 202 edges is fine.
  const small = await data(g, "{ hub { spoke { node { hub { node { name } } } } } }");
  assert.equal(small.hub[0].spoke.length, 101);
});
