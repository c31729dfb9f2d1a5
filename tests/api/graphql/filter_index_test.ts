// G7/G8 root fields answered from the name index: a filter whose top level pins `name` to exact
// strings (`name: X`, `name: { eq: X }`, `name: { in: [...] }`) looks its candidates up instead
// of scanning the type, and must return exactly what the scan returns: same resources, same
// order (G7: by name), same M73 equality (models.md M73: booleans vs True/False, numbers
// numerically), same errors, same paging; the G16 cost estimate is unchanged.
import fc from "fast-check";
import type { JsonValue, Resource } from "../../../lib/graph/graph.ts";
import { candidateNames } from "../../../lib/api/graphql/filter.ts";
import { selectResources } from "../../../lib/api/graphql/select.ts";
import { GraphState, graphState } from "../../../lib/api/graphql/snapshot.ts";
import type { Page } from "../../../lib/api/graphql/paths.ts";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { executeDocument, parseQuery } from "../../../lib/api/graphql/execute.ts";
import { assert, data, Graph, resources, run } from "./_helpers.ts";

/** A state whose scan fails the test: proves a filter was answered from the name index. */
class NoScanState extends GraphState {
  override sortedOf(type: string): readonly Resource[] {
    throw new Error(`scanned ${type}`);
  }
}

function hosts(): Graph {
  const g = new Graph();
  resources(g, [
    ["host", "web-1", { env: "prod", port: 80 }],
    ["host", "Web-1", { env: "dev", port: "80" }],
    ["host", "db-1", { env: "prod", port: 5432 }],
    ["host", "42", { env: "prod" }],
    ["host", "042", { env: "dev" }],
    ["host", "42.0", { env: "prod" }],
    ["host", "4.2e1", { env: "prod" }],
    ["host", "true", { env: "prod" }],
    ["host", "True", { env: "dev" }],
    ["host", "TRUE", { env: "prod" }],
    ["host", "false", { env: "prod" }],
    ["host", "null", { env: "prod" }],
    ["host", "é", { env: "prod" }],
    ["host", "😀", { env: "prod" }],
    ["host", "z", { env: "prod" }],
    ["zone", "web-1", { env: "prod" }],
  ]);
  g.seal();
  return g;
}

const byName = (rs: readonly Resource[]) => rs.map((r) => r.name);

/** The names a filter selects through the root field (index path as served). */
async function served(g: Graph, filter: string, args = ""): Promise<string[]> {
  const d = await data(g, `{ host(filter: ${filter}${args}) { name } }`);
  return d.host.map((h: { name: string }) => h.name);
}

/** Outcome of a selection: names (and identity) or the error message. */
function outcome(state: GraphState, filter: unknown, page: Page, scan: boolean) {
  try {
    return { hits: selectResources(state, "host", filter, page, { scan }) };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/**
 * Index path and forced scan agree (same resource objects, same order, same error); returns the
 * number of resources selected (0 on an error).
 */
function assertSameAsScan(state: GraphState, filter: unknown, page: Page = {}): number {
  const indexed = outcome(state, filter, page, false);
  const scanned = outcome(state, filter, page, true);
  const label = JSON.stringify({ filter, page });
  assert.equal(indexed.error, scanned.error, label);
  if (indexed.hits && scanned.hits) {
    assert.deepEqual(byName(indexed.hits), byName(scanned.hits), label);
    assert.ok(indexed.hits.every((r, i) => r === scanned.hits![i]), `${label}: same objects`);
  }
  return indexed.hits?.length ?? 0;
}

Deno.test("G8 name eq: hit, miss, case-sensitive, other type untouched (index path)", async () => {
  const g = hosts();
  assert.deepEqual(await served(g, `{ name: { eq: "web-1" } }`), ["web-1"]);
  assert.deepEqual(await served(g, `{ name: "Web-1" }`), ["Web-1"]);
  assert.deepEqual(await served(g, `{ name: { eq: "WEB-1" } }`), []);
  assert.deepEqual(await served(g, `{ name: { eq: "nope" } }`), []);
  const noScan = new NoScanState(g);
  assert.deepEqual(byName(selectResources(noScan, "host", { name: "db-1" }, {})), ["db-1"]);
  assert.deepEqual(byName(selectResources(noScan, "host", { name: { eq: "x" } }, {})), []);
  assert.deepEqual(byName(selectResources(noScan, "nothing", { name: "db-1" }, {})), []);
});

Deno.test("G8 name eq AND another entry: the whole filter still decides", async () => {
  const g = hosts();
  assert.deepEqual(await served(g, `{ name: { eq: "web-1" }, env: "dev" }`), []);
  assert.deepEqual(await served(g, `{ name: "web-1", env: "prod", port: { gt: 79 } }`), ["web-1"]);
  assert.deepEqual(await served(g, `{ name: { eq: "web-1", ne: "web-1" } }`), []);
  assert.deepEqual(await served(g, `{ name: { eq: "web-1", in: ["db-1"] } }`), []);
  assert.deepEqual(await served(g, `{ name: { eq: "web-1", regex: "^w" } }`), ["web-1"]);
  assert.deepEqual(await served(g, `{ name: { eq: "web-1", exists: false } }`), []);
  // An invalid operand elsewhere is the same error as with the scan.
  const result = await run(g, `{ host(filter: { name: "web-1", port: { gt: "x" } }) { name } }`);
  assert.match(result.errors?.[0].message ?? "", /'gt' expects a number/);
});

Deno.test("G7/G8 name in: name order, duplicates once, misses dropped, paged like the scan", async () => {
  const g = hosts();
  const all = `{ name: { in: ["z", "db-1", "zz", "web-1", "db-1", "Web-1"] } }`;
  assert.deepEqual(await served(g, all), ["Web-1", "db-1", "web-1", "z"]);
  assert.deepEqual(await served(g, all, ", offset: 1, limit: 2"), ["db-1", "web-1"]);
  assert.deepEqual(await served(g, all, ", offset: 9"), []);
  assert.deepEqual(await served(g, `{ name: { in: ["é", "😀", "z"] } }`), ["z", "é", "😀"]);
  assert.deepEqual(await served(g, `{ name: { in: [] } }`), []);
  const bad = await run(g, `{ host(filter: { name: { in: ["z"] } }, offset: -1) { name } }`);
  assert.match(bad.errors?.[0].message ?? "", /offset must be a non-negative integer/);
});

Deno.test("M73 numeric-looking names and numeric operands fall back to the scan", async () => {
  const g = hosts();
  const numeric = ["042", "4.2e1", "42", "42.0"];
  assert.deepEqual(await served(g, `{ name: 42 }`), numeric);
  assert.deepEqual(await served(g, `{ name: { eq: "42" } }`), numeric);
  assert.deepEqual(await served(g, `{ name: { in: ["z", 42.0] } }`), [...numeric, "z"]);
  assert.equal(candidateNames({ name: 42 }), undefined);
  assert.equal(candidateNames({ name: { eq: " 42 " } }), undefined);
  assert.equal(candidateNames({ name: { in: ["z", "1e3"] } }), undefined);
  // A numeric operand next to an indexable one: the indexable one narrows.
  assert.deepEqual(candidateNames({ name: { eq: 42, in: ["42", "z"] } }), undefined);
  assert.deepEqual(candidateNames({ name: { eq: 42, in: ["z"] } }), ["z"]);
});

Deno.test("M73 boolean, null, array and object operands match the names the scan matches", async () => {
  const g = hosts();
  assert.deepEqual(await served(g, `{ name: true }`), ["True", "true"]);
  assert.deepEqual(await served(g, `{ name: { eq: false } }`), ["false"]);
  assert.deepEqual(await served(g, `{ name: { eq: "true" } }`), ["true"]);
  assert.deepEqual(await served(g, `{ name: null }`), []);
  assert.deepEqual(await served(g, `{ name: { eq: "null" } }`), ["null"]);
  assert.deepEqual(await served(g, `{ name: ["web-1"] }`), []);
  assert.deepEqual(await served(g, `{ name: { eq: { a: 1 } } }`), []);
  assert.deepEqual(candidateNames({ name: true }), ["True", "true"]);
  assert.deepEqual(candidateNames({ name: { in: [null, ["x"], "b", "a"] } }), ["a", "b"]);
  const state = graphState(g);
  for (
    const filter of [
      { name: true },
      { name: false },
      { name: null },
      { name: ["web-1"] },
      { name: { eq: { a: 1 } } },
      { name: { in: [true, "z", null] } },
    ]
  ) assertSameAsScan(state, filter);
});

Deno.test("G8 filters that do not pin the name are scanned", () => {
  for (
    const filter of [
      {},
      { env: "prod" },
      { name: {} },
      { name: { ne: "web-1" } },
      { name: { regex: "^web" } },
      { name: { in: "web-1" } }, // invalid: rejected by compileFilter before this is asked
      { Name: "web-1" },
    ]
  ) assert.equal(candidateNames(filter), undefined, JSON.stringify(filter));
});

Deno.test("G4 the index path reads the snapshot: derived graphs and removed resources", () => {
  const g = new Graph();
  resources(g, [["host", "a", { port: 1 }], ["host", "b", { port: 2 }], ["host", "c", {}]]);
  g.removeResource(g.getResource("host", "b")!);
  const unsealed = graphState(g);
  assertSameAsScan(unsealed, { name: { in: ["a", "b", "c"] } });
  assert.deepEqual(byName(selectResources(unsealed, "host", { name: "b" }, {})), []);
  g.seal();
  const a = g.getResource("host", "a")!;
  const d = g.derive(new Map([[a.id, { name: "a", port: 7 }]]));
  const state = graphState(d);
  const hits = selectResources(new NoScanState(d), "host", { name: "a", port: 7 }, {});
  assert.deepEqual(hits.map((r) => r.properties.port), [7]);
  assert.ok(hits[0] === d.getResourceById(a.id));
  assertSameAsScan(state, { name: "a", port: 7 });
  assertSameAsScan(graphState(g), { name: "a", port: 7 });
});

Deno.test("G4/G7 a list after name lookups on derived graphs: an ancestor's order, this graph's resources", () => {
  const g = hosts();
  const names = byName(graphState(g).sortedOf("host"));
  let current = g;
  for (let i = 0; i < 3; i++) {
    const r = current.getResource("host", "z")!;
    current = current.derive(new Map([[r.id, { name: "z", env: `v${i}` }]]));
    const hits = selectResources(new NoScanState(current), "host", { name: "z" }, {});
    assert.equal(hits[0].properties.env, `v${i}`);
    assert.deepEqual(byName(selectResources(graphState(current), "host", { name: "z" }, {})), [
      "z",
    ]);
  }
  const list = graphState(current).sortedOf("host");
  assert.deepEqual(byName(list), names);
  assert.ok(list.every((r) => current.getResourceById(r.id) === r));
  assert.equal(list.find((r) => r.name === "z")!.properties.env, "v2");
});

Deno.test("G16 the cost estimate counts the type's resources without listing them", async () => {
  const g = hosts();
  const state = graphState(g);
  assert.equal(state.countOf("host"), g.resourcesOf("host").length);
  assert.equal(state.countOf("zone"), 1);
  assert.equal(state.countOf("nothing"), 0);
  const h = g.getResource("host", "z")!;
  const d = g.derive(new Map([[h.id, { name: "z", env: "dev" }]]));
  assert.equal(graphState(d).countOf("host"), d.resourcesOf("host").length);
  const open = new Graph();
  resources(open, [["host", "a"], ["host", "b"]]);
  assert.equal(graphState(open).countOf("host"), 2);
  // Same estimate as before (G16): a name filter does not lower it.
  const schema = buildGraphQLSchema(g);
  const doc = parseQuery(`{ host(filter: { name: "z" }) { name } }`);
  assert.ok("kind" in doc);
  const cost = 2 * g.resourcesOf("host").length; // items × (1 + the `name` field)
  const over = await executeDocument(schema, g, doc, null, null, undefined, { maxCost: cost - 1 });
  assert.equal(over.errors?.[0].extensions?.code, "QUERY_TOO_COSTLY");
  const at = await executeDocument(schema, g, doc, null, null, undefined, { maxCost: cost });
  assert.equal(at.errors, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(at.data)), { host: [{ name: "z" }] });
});

// --- differential property test: index path vs forced scan on random graphs and filters ---

const NAMES = [
  "a",
  "A",
  "b",
  "web-1",
  "Web-1",
  "42",
  "042",
  "42.0",
  "4.2e1",
  "+42",
  " 42",
  "1e3",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "null",
  "é",
  "e\u0301",
  "😀",
  "[]",
  '{"a":1}',
];

const nameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 3 }) },
);

/** Operands of conditions on `name`: mostly names, some of every other JSON kind. */
const nameValueArb: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 8, arbitrary: nameArb },
  { weight: 1, arbitrary: fc.constantFrom(42, 1000, 0, 4.2) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(nameArb, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.constant({ a: 1 }) },
);

/** Property values and the operands of conditions on them: a small pool, so filters hit. */
const propertyValueArb: fc.Arbitrary<JsonValue> = fc.constantFrom(
  "prod",
  "dev",
  "PROD",
  80,
  "80",
  "80.0",
  true,
  "True",
  null,
  ["prod", "x"],
  { a: 1 },
);

/** One operator with its operand; a few operands are invalid (the filter must then fail). */
const opArb = (value: fc.Arbitrary<JsonValue>): fc.Arbitrary<[string, JsonValue]> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constant("eq"), value) },
    {
      weight: 6,
      arbitrary: fc.tuple(
        fc.constant("in"),
        fc.array(value, { maxLength: 4 }) as fc.Arbitrary<JsonValue>,
      ),
    },
    { weight: 2, arbitrary: fc.tuple(fc.constant("ne"), value) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constant("exists"), fc.boolean() as fc.Arbitrary<JsonValue>),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constant("contains"), fc.constantFrom("e", "4", "r")) },
    { weight: 1, arbitrary: fc.tuple(fc.constant("gt"), fc.constantFrom(0, 41)) },
    { weight: 1, arbitrary: fc.tuple(fc.constant("lt"), fc.constantFrom(43, 1e4)) },
    { weight: 1, arbitrary: fc.tuple(fc.constant("regex"), fc.constantFrom("^w", "(?i)^a$", "r")) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<[string, JsonValue]>(
        ["in", "web-1"],
        ["exists", 1],
        ["contains", null],
        ["gt", "x"],
        ["regex", "("],
        ["like", "a"],
      ),
    },
  );

/** `key: value` or an operator object of one or two operators. */
const conditionArb = (value: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonValue> =>
  fc.oneof(
    { weight: 2, arbitrary: value },
    {
      weight: 5,
      arbitrary: fc.array(opArb(value), { minLength: 1, maxLength: 2 })
        .map((ops) => Object.fromEntries(ops) as JsonValue),
    },
  );

/** A filter object: `name` when `withName`, then `env` and `port`, each in about half of them. */
const filterObjectArb = (withName: boolean) =>
  fc.record({
    name: withName ? conditionArb(nameValueArb) : fc.constant(undefined),
    env: fc.option(conditionArb(propertyValueArb), { nil: undefined, freq: 2 }),
    port: fc.option(conditionArb(propertyValueArb), { nil: undefined, freq: 2 }),
  }).map((entries) => {
    const filter: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(entries)) {
      if (value !== undefined) filter[key] = value;
    }
    return filter;
  });

const filterArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: filterObjectArb(true) },
  { weight: 2, arbitrary: filterObjectArb(false) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, "name", ["name"], 3) },
);

const pageArb: fc.Arbitrary<Page> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  {
    weight: 2,
    arbitrary: fc.record({ limit: fc.nat(3), offset: fc.nat(2) }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: fc.constantFrom({ limit: -1 }, { offset: 1.5 }, { limit: null }) },
);

const propsArb = fc.record({ env: propertyValueArb, port: propertyValueArb }, {
  requiredKeys: [],
});

const graphArb = fc.record({
  // Each of NAMES is a host in about 3 graphs out of 4.
  hosts: fc.array(fc.nat(3), { minLength: NAMES.length, maxLength: NAMES.length })
    .map((keep) => NAMES.filter((_, i) => keep[i] > 0)),
  extra: fc.array(nameArb, { maxLength: 4 }),
  props: fc.array(propsArb, { minLength: NAMES.length + 4, maxLength: NAMES.length + 4 }),
  zones: fc.subarray(NAMES),
  remove: fc.array(nameArb, { maxLength: 3 }),
  mode: fc.constantFrom("open", "sealed", "derived"),
});

interface GraphSpec {
  hosts: string[];
  extra: string[];
  props: Record<string, JsonValue>[];
  zones: string[];
  remove: string[];
  mode: string;
}

function graphOf({ hosts, extra, props, zones, remove, mode }: GraphSpec): Graph {
  const g = new Graph();
  [...hosts, ...extra].forEach((name, i) => g.upsertResource("host", name, { ...props[i] }));
  for (const name of zones) g.upsertResource("zone", name, { env: "prod" });
  for (const name of remove) {
    const r = g.getResource("host", name);
    if (r) g.removeResource(r);
  }
  if (mode === "open") return g;
  g.seal();
  if (mode === "sealed") return g;
  const changes = new Map<number, Record<string, JsonValue>>();
  for (const r of g.resourcesOf("host").slice(0, 3)) {
    changes.set(r.id, { name: r.name, env: "dev", port: r.properties.port ?? null });
  }
  return g.derive(changes);
}

Deno.test("G8 property: the index path returns exactly what the scan returns", () => {
  let indexedHits = 0; // runs answered from the index with a non-empty answer
  fc.assert(
    fc.property(graphArb, filterArb, pageArb, (spec, filter, page) => {
      const state = graphState(graphOf(spec));
      // The filter, and its `name` entry alone (other entries rarely hold on random values).
      const alone = typeof filter === "object" && filter !== null && "name" in filter
        ? [{ name: filter.name }]
        : [];
      for (const f of [filter, ...alone]) {
        const hits = assertSameAsScan(state, f, page);
        if (hits > 0 && candidateNames(f) !== undefined) indexedHits++;
      }
    }),
    { numRuns: 2000 },
  );
  assert.ok(indexedHits > 50, `only ${indexedHits} runs found resources through the index`);
});
