// Shared helpers for the GraphQL tests: build a schema for a graph and run one query.
import assert from "node:assert/strict";
import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import { Graph, type Properties } from "../../../lib/graph/graph.ts";
import { buildGraphQLSchema } from "../../../lib/api/graphql/schema.ts";
import { executeDocument, executeGraphQL, parseQuery } from "../../../lib/api/graphql/execute.ts";
import { COMPILE_AFTER, loadQueryCompiler } from "../../../lib/api/graphql/compiled_queries.ts";

export { assert, Graph };

// Hot documents compile from the first hot run on (the compiler loads lazily otherwise).
assert.equal(await loadQueryCompiler(), true);

/**
 * Executes `document` once by graphql-js, then `runs` times with compiling on (compiled from
 * run `COMPILE_AFTER + 1` on, where the document can be), and asserts that every run answers
 * like graphql-js. The graphql-js result is returned.
 */
export async function bothWays(
  schema: GraphQLSchema,
  graph: Graph,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  options: { label: string; runs?: number; maxResponseBytes?: number },
): Promise<ExecutionResult> {
  const { label, runs = COMPILE_AFTER + 1, maxResponseBytes } = options;
  const reference = await executeDocument(schema, graph, document, variables, null, undefined, {
    compileHotQueries: false,
    maxResponseBytes,
  });
  const expected = JSON.parse(JSON.stringify(reference));
  for (let i = 0; i < runs; i++) {
    const hot = await executeDocument(schema, graph, document, variables, null, undefined, {
      maxResponseBytes,
    });
    assert.deepEqual(
      JSON.parse(JSON.stringify(hot)),
      expected,
      `compiled and graphql-js results differ for ${label} (run ${i + 1})`,
    );
  }
  return reference;
}

/**
 * Runs `query` against a fresh schema of `graph`, by graphql-js and, once hot, compiled
 * (`compiled_queries.ts`): every query of the GraphQL tests checks that both give the same
 * result. The graphql-js result is returned.
 */
export async function run(
  graph: Graph,
  query: string,
  variables?: Record<string, unknown>,
): Promise<ExecutionResult> {
  const schema = buildGraphQLSchema(graph);
  const document = parseQuery(query);
  if (!("kind" in document)) return await executeGraphQL(schema, graph, { query, variables });
  return await bothWays(schema, graph, document, variables, { label: query });
}

/** Runs `query` and returns `data` as plain JSON, failing on any error. */
export async function data(
  graph: Graph,
  query: string,
  variables?: Record<string, unknown>,
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  const result = await run(graph, query, variables);
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return JSON.parse(JSON.stringify(result.data));
}

/** Runs `query` and returns the error messages (fails when there are none). */
export async function errors(graph: Graph, query: string): Promise<string[]> {
  const result = await run(graph, query);
  assert.ok(result.errors && result.errors.length > 0, "expected errors");
  return result.errors.map((e) => e.message);
}

/** Adds resources from a compact table: [type, name, properties?][]. */
export function resources(graph: Graph, rows: [string, string, Properties?][]): void {
  for (const [type, name, props] of rows) graph.upsertResource(type, name, props);
}

/** Adds a relation between two existing resources. */
export function relate(
  graph: Graph,
  from: [string, string],
  type: string,
  to: [string, string],
  props?: Properties,
): void {
  const s = graph.getResource(...from);
  const t = graph.getResource(...to);
  if (!s || !t) throw new Error(`missing resource ${from} or ${to}`);
  graph.upsertRelation(s, type, t, props);
}

/**
 * A small DNS graph shaped like the public_dns corpus module: zones with typed columns,
 * record relations (`has_a_record`, ...), and `DESCRIBED_BY` outputs of three types.
 */
export function dnsGraph(): Graph {
  const g = new Graph();
  resources(g, [
    ["zone", "example.org", {
      type: "zone",
      multi_provider: false,
      vanity_name_server: ["ns1.example.net", "ns2.example.net"],
      dns_topology: "active-active",
      provider_roles: '[{"provider":"cloudflare","role":"primary"}]',
      view: "default",
      zone_format: "FORWARD",
      disabled: "False",
      dnssec: "True",
      provider: "rescile",
    }],
    ["zone", "example.com", {
      type: "zone",
      multi_provider: true,
      vanity_name_server: [],
      dns_topology: "active",
      provider_roles: "[]",
      view: "default",
      zone_format: "FORWARD",
      disabled: "True",
      dnssec: "False",
      provider: "cloudflare",
    }],
    ["a_record", "www.example.org", {
      original_name: "www",
      address: "192.0.2.10",
      ttl: 300,
      disabled: false,
    }],
    ["a_record", "api.example.org", {
      original_name: "api",
      address: "192.0.2.11",
      ttl: 3600,
      disabled: true,
    }],
    ["apex_ns_record", "example.org/ns1", {
      original_name: "@",
      content: "ns1.example.net.",
      ttl: 86400,
      disabled: "False",
    }],
    ["zone_file", "example.org", { filename: "example.org.zone" }],
    ["cloudflare_py", "example.org", { filename: "cloudflare.py" }],
    ["tfvars", "example.org", { filename: "terraform.tfvars.json" }],
  ]);
  relate(g, ["zone", "example.org"], "has_a_record", ["a_record", "www.example.org"]);
  relate(g, ["zone", "example.org"], "has_a_record", ["a_record", "api.example.org"]);
  relate(g, ["zone", "example.org"], "has_apex_ns_record", ["apex_ns_record", "example.org/ns1"]);
  relate(g, ["zone", "example.org"], "DESCRIBED_BY", ["zone_file", "example.org"]);
  relate(g, ["zone", "example.org"], "DESCRIBED_BY", ["cloudflare_py", "example.org"]);
  relate(g, ["zone", "example.org"], "DESCRIBED_BY", ["tfvars", "example.org"]);
  g.seal();
  return g;
}
