// Compiled execution of hot queries (issue 26 §1, G1): which documents are compiled, when, and
// that a compiled run with errors is answered by graphql-js. Every query of the other GraphQL
// tests is also run both ways by `_helpers.ts`'s `run`, which compares the two results.
import fc from "fast-check";
import {
  getNamedType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isLeafType,
  isObjectType,
  isUnionType,
  parse,
} from "graphql";
import { assert, bothWays, dnsGraph } from "./_helpers.ts";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { executeDocument } from "../../../lib/api/graphql/execute.ts";
import { COMPILE_AFTER, compiledQueryFor } from "../../../lib/api/graphql/compiled_queries.ts";

const json = (value: unknown) => JSON.parse(JSON.stringify(value));

Deno.test("issue 26 G1: a query is compiled once it ran COMPILE_AFTER times on a schema", () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  const document = parse("{ zone { name } }");
  for (let i = 0; i < COMPILE_AFTER; i++) {
    assert.equal(compiledQueryFor(schema, document, null), undefined, `run ${i + 1}`);
  }
  const compiled = compiledQueryFor(schema, document, null);
  assert.equal(typeof compiled?.query, "function");
  assert.equal(compiledQueryFor(schema, document, null), compiled, "kept");
  // Another schema counts its own runs.
  assert.equal(compiledQueryFor(buildGraphQLSchema(graph), document, null), undefined);
});

Deno.test("issue 26 G1: mutations, subscriptions and documents with directives stay on graphql-js", () => {
  const schema = buildGraphQLSchema(dnsGraph());
  for (
    const text of [
      "mutation { __typename }",
      "subscription { __typename }",
      "query($s: Boolean!) { zone { name @skip(if: $s) } }",
      "{ zone { ...Z @include(if: true) } } fragment Z on zone { name }",
    ]
  ) {
    const document = parse(text);
    for (let i = 0; i <= COMPILE_AFTER + 2; i++) {
      assert.equal(compiledQueryFor(schema, document, null), undefined, text);
    }
  }
});

Deno.test("issue 26 G1: the operation named by the request is the one compiled", async () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  const document = parse("query A { zone { name } } query B { countNodes }");
  for (let i = 0; i <= COMPILE_AFTER; i++) {
    await executeDocument(schema, graph, document, null, "B");
  }
  const b = await executeDocument(schema, graph, document, null, "B");
  assert.deepEqual(Object.keys(b.data ?? {}), ["countNodes"]);
  const a = await executeDocument(schema, graph, document, null, "A");
  assert.deepEqual(Object.keys(a.data ?? {}), ["zone"]);
});

Deno.test("issue 26 G1: a hot query that errs answers exactly as graphql-js (limits, variables)", async () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  const cases: [string, Record<string, unknown> | null, number | undefined][] = [
    // The response budget is exceeded: only the limit error, no partial data.
    ["{ zone { name has_a_record { node { name address } } } }", null, 40],
    // Variable coercion errors carry graphql-js's messages.
    ["query($f: JSON) { zone(filter: $f) { name } }", { f: "not an object" }, undefined],
    ['query($n: Int!) { __type(name: "zone") { name } n: __typename }', { n: "x" }, undefined],
    ["query($n: Int!) { n: __typename }", {}, undefined],
  ];
  for (const [text, variables, maxResponseBytes] of cases) {
    const document = parse(text);
    await bothWays(schema, graph, document, variables, {
      label: text,
      runs: COMPILE_AFTER + 2,
      maxResponseBytes,
    });
  }
});

Deno.test("issue 26 G1: a string literal holding graphql-jit's date marker is never compiled into code", async () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  // graphql-jit 0.8.9 turns `"__MAGIC_DATE__<its uuid>X"` in generated code into `new Date(X)`.
  const marker = "__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d";
  const probe = "__graphsvc_jit_probe";
  const text =
    `{ zone(filter: { name: { eq: "${marker}0)&&(globalThis.${probe}=1)&&(0" } }) { name } }`;
  // Escaped in the query text, the same value: the check reads the parsed literal.
  const escaped = text.replace("__MAGIC", "\\u005F_MAGIC");
  for (const query of [text, escaped]) {
    const document = parse(query);
    await bothWays(schema, graph, document, null, { label: query, runs: COMPILE_AFTER + 2 });
    assert.equal(compiledQueryFor(schema, document, null), undefined);
  }
  assert.equal(probe in globalThis, false, "the literal ran as code");
});

Deno.test("issue 26 G1: a variable inside a JSON argument literal reads each request's value, compiled", async () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  const document = parse("query($k: String!) { zone(filter: { name: { eq: $k } }) { name } }");
  const names = graph.resourcesOf("zone").map((z) => z.name);
  assert.ok(names.length >= 2);
  for (let round = 0; round <= COMPILE_AFTER + 1; round++) {
    for (const name of [...names, "none"]) {
      const result = await executeDocument(schema, graph, document, { k: name });
      assert.deepEqual(json(result), { data: { zone: name === "none" ? [] : [{ name }] } });
    }
  }
  // The literal became a variable of its own: the document is compiled.
  assert.equal(typeof compiledQueryFor(schema, document, null)?.query, "function");
});

/** A random query over `schema`'s types from `seed`: selections, aliases, fragments, arguments. */
function randomQuery(schema: GraphQLSchema, seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const definitions: string[] = [];
  const variables: Record<string, unknown> = {};
  const filters = [
    `{ name: { ne: "none" } }`,
    `{ name: { contains: "example" } }`,
    `{ ttl: { gt: 100 } }`,
    `{ disabled: false }`,
    `{ name: { in: ["example.org", "example.net"] } }`,
    `{ nope: { exists: false } }`,
  ];
  const args = (field: GraphQLField<unknown, unknown>): string => {
    const out: string[] = [];
    for (const arg of field.args) {
      if (next() < 0.5) continue;
      const variable = next() < 0.4 ? `$v${definitions.length}` : undefined;
      if (arg.name === "filter" && variable && next() < 0.4) {
        // A variable inside the literal.
        definitions.push(`${variable}: String`);
        variables[variable.slice(1)] = pick(["example.org", "example.net", "none"]);
        out.push(`filter: { name: { eq: ${variable} } }`);
      } else if (arg.name === "filter") {
        const literal = pick(filters);
        if (variable) {
          definitions.push(`${variable}: JSON`);
          variables[variable.slice(1)] = JSON.parse(literal.replace(/(\w+):/g, '"$1":'));
        }
        out.push(`filter: ${variable ?? literal}`);
      } else if (arg.name === "limit" || arg.name === "offset") {
        const value = Math.floor(next() * 4);
        if (variable) {
          definitions.push(`${variable}: Int`);
          variables[variable.slice(1)] = value;
        }
        out.push(`${arg.name}: ${variable ?? value}`);
      }
    }
    return out.length ? `(${out.join(", ")})` : "";
  };
  const selection = (type: GraphQLNamedType, depth: number): string => {
    if (isUnionType(type)) {
      return `{ __typename ${
        type.getTypes().filter(() => next() < 0.6).map((t) =>
          `... on ${t.name} ${selection(t, depth + 1)}`
        ).join(" ")
      } }`;
    }
    if (!isObjectType(type)) return "";
    const fields = Object.values(type.getFields()).filter((f) => {
      const named = getNamedType(f.type);
      return isLeafType(named) || depth < 3;
    });
    const chosen = fields.filter(() => next() < 0.4);
    if (chosen.length === 0) chosen.push(fields[0]);
    const parts = chosen.map((f) => {
      const alias = next() < 0.2 ? `a${Math.floor(next() * 1000)}: ` : "";
      const named = getNamedType(f.type);
      const sub = isLeafType(named) ? "" : ` ${selection(named, depth + 1)}`;
      return `${alias}${f.name}${args(f)}${sub}`;
    });
    if (next() < 0.2) parts.push(`... on ${type.name} { __typename }`);
    return `{ ${parts.join(" ")} }`;
  };
  const body = selection(schema.getQueryType()!, 0);
  const header = definitions.length ? `query(${definitions.join(", ")}) ` : "";
  return { text: `${header}${body}`, variables };
}

Deno.test("issue 26 G1: random queries answer the same compiled and by graphql-js (fast-check)", async () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  let compiledCount = 0;
  await fc.assert(
    fc.asyncProperty(fc.integer(), async (seed) => {
      const { text, variables } = randomQuery(schema, seed);
      const document = parse(text);
      await bothWays(schema, graph, document, variables, { label: text });
      if (compiledQueryFor(schema, document, null)) compiledCount++;
    }),
    { numRuns: 200, seed: 26 },
  );
  // The property is about compiled runs: most generated documents must have been compiled.
  assert.ok(compiledCount > 100, `${compiledCount} of 200 documents compiled`);
});

Deno.test("issue 26 G1: a document whose own variable looks like a hoisted one is not compiled", async () => {
  const graph = dnsGraph();
  const schema = buildGraphQLSchema(graph);
  const document = parse(
    "query($__graphsvc_literal_0: String!, $k: String!) { a: zone(filter: { name: { eq: $k } }) { name } b: zone(filter: { name: { eq: $__graphsvc_literal_0 } }) { name } }",
  );
  const variables = { __graphsvc_literal_0: "example.net", k: "example.org" };
  await bothWays(schema, graph, document, variables, {
    label: "colliding names",
    runs: COMPILE_AFTER + 2,
  });
  assert.equal(compiledQueryFor(schema, document, null), undefined);
});
