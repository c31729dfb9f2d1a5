// G9/G10 findPaths: breadth-first, both directions, simple paths, maxDepth.
import { findPaths, MAX_PATH_DEPTH } from "../../../lib/api/graphql/paths.ts";
import { ArgumentError } from "../../../lib/api/graphql/errors.ts";
import { assert, data, errors, Graph, relate, resources } from "./_helpers.ts";

function chain(): Graph {
  // app -RUNS_ON-> vm -HOSTED_ON-> host <-LOCATED_IN- rack? (incoming edge reversed)
  const g = new Graph();
  resources(g, [["app", "shop"], ["vm", "v1"], ["host", "h1"], ["dc", "d1"], ["host", "h2"]]);
  relate(g, ["app", "shop"], "RUNS_ON", ["vm", "v1"]);
  relate(g, ["vm", "v1"], "HOSTED_ON", ["host", "h1"]);
  relate(g, ["dc", "d1"], "CONTAINS", ["host", "h1"]);
  relate(g, ["dc", "d1"], "CONTAINS", ["host", "h2"]);
  g.seal();
  return g;
}

Deno.test("G9 findPaths returns step arrays with relation and direction", async () => {
  const d = await data(
    chain(),
    `{ findPaths(startLabel: "app", startName: "shop", endLabel: "dc") }`,
  );
  assert.deepEqual(d.findPaths, [[
    { type: "app", name: "shop" },
    { type: "vm", name: "v1", relation: "RUNS_ON", direction: "outgoing" },
    { type: "host", name: "h1", relation: "HOSTED_ON", direction: "outgoing" },
    { type: "dc", name: "d1", relation: "CONTAINS", direction: "incoming" },
  ]]);
});

Deno.test("G9 findPaths lists every simple path, shortest first, and passes through end nodes", () => {
  const paths = findPaths(chain(), "app", "shop", "host");
  assert.deepEqual(
    paths.map((p) => p.map((s) => s.name).join(">")),
    ["shop>v1>h1", "shop>v1>h1>d1>h2"],
  );
});

Deno.test("G9 findPaths maxDepth bounds the number of edges", async () => {
  const g = chain();
  const d = await data(
    g,
    `{ short: findPaths(startLabel: "app", startName: "shop", endLabel: "dc", maxDepth: 2)
       exact: findPaths(startLabel: "app", startName: "shop", endLabel: "dc", maxDepth: 3)
       zero: findPaths(startLabel: "app", startName: "shop", endLabel: "app", maxDepth: 0) }`,
  );
  assert.deepEqual(d.short, []);
  assert.equal(d.exact.length, 1);
  assert.deepEqual(d.zero, []);
  assert.throws(() => findPaths(g, "app", "shop", "dc", MAX_PATH_DEPTH + 1), ArgumentError);
  const [message] = await errors(
    g,
    `{ findPaths(startLabel: "app", startName: "shop", endLabel: "dc", maxDepth: -1) }`,
  );
  assert.match(message, /maxDepth must be an integer between 0 and 15/);
});

Deno.test("G10 findPaths with an unknown start resource returns []", async () => {
  const d = await data(
    chain(),
    `{ a: findPaths(startLabel: "app", startName: "nope", endLabel: "dc")
       b: findPaths(startLabel: "nope", startName: "shop", endLabel: "dc") }`,
  );
  assert.deepEqual(d, { a: [], b: [] });
});

Deno.test("G9 findPaths never revisits a resource (cycles)", () => {
  const g = new Graph();
  resources(g, [["n", "a"], ["n", "b"], ["n", "c"], ["end", "e"]]);
  relate(g, ["n", "a"], "X", ["n", "b"]);
  relate(g, ["n", "b"], "X", ["n", "c"]);
  relate(g, ["n", "c"], "X", ["n", "a"]);
  relate(g, ["n", "c"], "X", ["end", "e"]);
  const paths = findPaths(g, "n", "a", "end", 10);
  assert.deepEqual(paths.map((p) => p.map((s) => s.name).join(">")), ["a>c>e", "a>b>c>e"]);
});
