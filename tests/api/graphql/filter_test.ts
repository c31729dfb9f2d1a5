// G8 filter argument: exact match (M73 equality) and operator objects.
import { compileFilter, matches, scalarEquals } from "../../../lib/api/graphql/filter.ts";
import { FilterError } from "../../../lib/api/graphql/errors.ts";
import { assert, data, errors, Graph, resources } from "./_helpers.ts";

function hosts(): Graph {
  const g = new Graph();
  resources(g, [
    ["host", "a", { env: "prod", port: 80, tags: ["web", "edge"], enabled: "True", cpu: "4" }],
    ["host", "b", { env: "dev", port: 8080, tags: ["db"], enabled: false, cpu: 2 }],
    ["host", "c", { env: "prod", port: "443", tags: [], owner: null }],
  ]);
  g.seal();
  return g;
}

const names = (d: { host: { name: string }[] }) => d.host.map((h) => h.name);

async function filtered(filter: string, variables?: Record<string, unknown>): Promise<string[]> {
  const q = variables
    ? `query($f: JSON) { host(filter: $f) { name } }`
    : `{ host(filter: ${filter}) { name } }`;
  return names(await data(hosts(), q, variables));
}

Deno.test("G8 exact match on a scalar and on name", async () => {
  assert.deepEqual(await filtered(`{ env: "prod" }`), ["a", "c"]);
  assert.deepEqual(await filtered(`{ name: "b" }`), ["b"]);
  assert.deepEqual(await filtered(`{ env: "prod", port: 443 }`), ["c"]); // AND, numeric M73
});

Deno.test("G8 exact match follows M73: booleans vs True/False, numbers vs numeric strings, arrays", async () => {
  assert.deepEqual(await filtered(`{ enabled: true }`), ["a"]);
  assert.deepEqual(await filtered(`{ enabled: "False" }`), ["b"]);
  assert.deepEqual(await filtered(`{ cpu: 4 }`), ["a"]);
  assert.deepEqual(await filtered(`{ cpu: "2.0" }`), ["b"]);
  assert.deepEqual(await filtered(`{ tags: "web" }`), ["a"]); // any element
  assert.deepEqual(await filtered(`{ owner: null }`), ["a", "b", "c"]); // missing or null
});

Deno.test("G8 operators eq ne contains in exists gt lt regex", async () => {
  assert.deepEqual(await filtered(`{ name: { eq: "a" } }`), ["a"]);
  assert.deepEqual(await filtered(`{ env: { ne: "prod" } }`), ["b"]);
  assert.deepEqual(await filtered(`{ env: { contains: "ro" } }`), ["a", "c"]);
  assert.deepEqual(await filtered(`{ tags: { contains: "db" } }`), ["b"]);
  assert.deepEqual(await filtered(`{ name: { in: ["a", "c", "zz"] } }`), ["a", "c"]);
  assert.deepEqual(await filtered(`{ owner: { exists: true } }`), []);
  assert.deepEqual(await filtered(`{ cpu: { exists: true } }`), ["a", "b"]);
  assert.deepEqual(await filtered(`{ cpu: { exists: false } }`), ["c"]);
  assert.deepEqual(await filtered(`{ port: { gt: 100 } }`), ["b", "c"]); // "443" is numeric
  assert.deepEqual(await filtered(`{ port: { lt: 443 } }`), ["a"]);
  assert.deepEqual(await filtered(`{ env: { gt: 1 } }`), []); // non-numeric → false (M74)
  assert.deepEqual(await filtered(`{ port: { gt: 79, lt: 81 } }`), ["a"]);
  assert.deepEqual(await filtered(`{ env: { regex: "^pr" } }`), ["a", "c"]);
  assert.deepEqual(await filtered(`{ env: { regex: "(?i)^DEV$" } }`), ["b"]);
  assert.deepEqual(await filtered(`{ tags: { regex: "^ed" } }`), ["a"]);
});

Deno.test("G8 regex runs in linear time and in Rust syntax (issue 16 item 1)", async () => {
  const g = new Graph();
  resources(g, [["application", "a", { description: "a".repeat(100_000) }]]);
  g.seal();
  // Froze a backtracking engine for ~56 s; must simply complete.
  const d = await data(
    g,
    `{ application(filter: { description: { regex: "^(.|.)*Z$" } }) { name } }`,
  );
  assert.deepEqual(d, { application: [] });
  assert.deepEqual(await filtered(`{ port: { regex: "^\\\\d{2}$" } }`), ["a"]);
  assert.match(
    (await errors(hosts(), `{ host(filter: { env: { regex: "(?=p)" } }) { name } }`))[0],
    /invalid filter on 'env': invalid regular expression "\(\?=p\)": look-around/,
  );
});

Deno.test("G8 filter from a variable", async () => {
  assert.deepEqual(await filtered("", { f: { env: { eq: "dev" } } }), ["b"]);
  assert.deepEqual(await filtered("", { f: null }), ["a", "b", "c"]);
});

Deno.test("G8 unknown operator and bad operands are GraphQL errors", async () => {
  const g = hosts();
  const [unknown] = await errors(g, `{ host(filter: { env: { like: "p%" } }) { name } }`);
  assert.match(unknown, /invalid filter on 'env': unknown operator 'like'/);
  assert.match(
    (await errors(g, `{ host(filter: { env: { in: "prod" } }) { name } }`))[0],
    /'in' expects an array/,
  );
  assert.match(
    (await errors(g, `{ host(filter: { env: { exists: 1 } }) { name } }`))[0],
    /'exists' expects a boolean/,
  );
  assert.match(
    (await errors(g, `{ host(filter: { port: { gt: "x" } }) { name } }`))[0],
    /'gt' expects a number/,
  );
  assert.match(
    (await errors(g, `{ host(filter: { env: { regex: "(" } }) { name } }`))[0],
    /invalid regular expression/,
  );
  assert.match((await errors(g, `{ host(filter: ["env"]) { name } }`))[0], /expected an object/);
  assert.match((await errors(g, `{ host(filter: "env") { name } }`))[0], /expected an object/);
});

Deno.test("filter errors carry a code and the field path", async () => {
  const g = hosts();
  const { run } = await import("./_helpers.ts");
  const result = await run(g, `{ host(filter: { env: { nope: 1 } }) { name } }`);
  assert.equal(result.errors?.[0].extensions?.code, "BAD_FILTER");
  assert.deepEqual(result.errors?.[0].path, ["host"]);
  assert.deepEqual(result.errors?.[0].locations, [{ line: 1, column: 3 }]);
  assert.equal(result.data, null);
});

Deno.test("compileFilter unit: null/empty filters keep everything, errors are FilterError", () => {
  const r = { id: 0, type: "t", name: "n", properties: { name: "n", k: "v" } };
  assert.equal(compileFilter(null)(r), true);
  assert.equal(compileFilter({})(r), true);
  assert.equal(compileFilter({ k: {} })(r), true);
  assert.throws(() => compileFilter({ k: { bogus: 1 } }), FilterError);
  assert.throws(() => compileFilter(3), FilterError);
});

Deno.test("M73 equality unit cases", () => {
  assert.equal(scalarEquals(true, "True"), true);
  assert.equal(scalarEquals("false", false), true);
  assert.equal(scalarEquals(true, "yes"), false);
  assert.equal(scalarEquals(true, 1), false);
  assert.equal(scalarEquals("10", 10.0), true);
  assert.equal(scalarEquals("1e1", 10), true);
  assert.equal(scalarEquals("0x10", 16), false);
  assert.equal(scalarEquals("", 0), false);
  assert.equal(scalarEquals("a", "a"), true);
  assert.equal(scalarEquals({ a: 1, b: [2] }, { b: [2], a: 1 }), true);
  assert.equal(matches(["x", "y"], "y"), true);
  assert.equal(matches(["x", "y"], ["x", "y"]), true);
  assert.equal(matches(["x", "y"], ["y", "x"]), false);
  assert.equal(matches(undefined, "x"), false);
});
