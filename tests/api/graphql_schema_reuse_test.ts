/**
 * Schema reuse across snapshots (G4, G5–G15): the GraphQL schema depends only on a snapshot's
 * shape, so a rebuild that changes values but no types, fields or relations reuses the schema
 * object, and every request still answers from its own snapshot (G4).
 */
import assert from "node:assert/strict";
import { Graph } from "../../lib/graph/graph.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { schemaOf } from "../../lib/api/graphql_routes.ts";
import { executeGraphQL } from "../../lib/api/graphql/execute.ts";
import { buildGraphQLSchema, sharedGraphQLSchema } from "../../lib/api/graphql/schema.ts";
import { refusingWriter } from "../../lib/api/graphql/mutations.ts";

async function engineWith(files: Record<string, string>) {
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  return { workspace, engine };
}

async function query(schema: import("graphql").GraphQLSchema, graph: Graph, q: string) {
  const result = await executeGraphQL(schema, graph, { query: q });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return JSON.parse(JSON.stringify(result.data));
}

Deno.test("G4/G5 a snapshot with the same shape reuses the schema and answers from its own graph", async () => {
  const { workspace, engine } = await engineWith({
    "assets/host.csv": "name,port,site\nweb-1,80,zrh\n",
    "assets/site.csv": "name,city\nzrh,Zurich\n",
  });
  const first = engine.current;
  const schema = schemaOf(first);
  const q = "{ host { name port site { node { name } } } countNodes }";
  assert.deepEqual((await query(schema, first.graph, q)).host, [
    { name: "web-1", port: "80", site: [{ node: { name: "zrh" } }] },
  ]);

  await workspace.writeTextAtomic("assets/host.csv", "name,port,site\nweb-1,8080,zrh\n");
  const second = await engine.rebuild();
  assert.notEqual(second.graph, first.graph);
  assert.equal(schemaOf(second), schema, "same shape → same schema object");
  assert.equal((await query(schema, second.graph, q)).host[0].port, "8080");
  // The older snapshot still answers its own values through the shared schema.
  assert.equal((await query(schema, first.graph, q)).host[0].port, "80");

  // Mutation variants are shared too, and keyed by their mode.
  const write = { key: "disabled", writer: refusingWriter("off") };
  assert.equal(schemaOf(second, write), schemaOf(first, write));
  assert.notEqual(schemaOf(second, write), schema);
});

Deno.test("G11 a new property column gives a new schema with the new field", async () => {
  const { workspace, engine } = await engineWith({
    "assets/host.csv": "name,port\nweb-1,80\n",
  });
  const first = engine.current;
  const before = schemaOf(first);
  assert.equal(before.getType("host")?.toString(), "host");
  await workspace.writeTextAtomic("assets/host.csv", "name,port,owner\nweb-1,80,ops\n");
  const second = await engine.rebuild();
  const after = schemaOf(second);
  assert.notEqual(after, before);
  const fields = (t: import("graphql").GraphQLSchema) =>
    Object.keys((t.getType("host") as import("graphql").GraphQLObjectType).getFields());
  assert.ok(!fields(before).includes("owner"));
  assert.ok(fields(after).includes("owner"));
  assert.deepEqual((await query(after, second.graph, "{ host { name owner } }")).host, [
    { name: "web-1", owner: "ops" },
  ]);
});

Deno.test("G4 a shared schema refuses a graph of another shape; counts come from the request's graph", async () => {
  const a = new Graph();
  a.upsertResource("zone", "a.org", { ttl: 60 });
  a.seal();
  const b = new Graph();
  b.upsertResource("zone", "b.org", { ttl: 300 });
  b.upsertResource("zone", "c.org", { ttl: 300 });
  b.seal();
  const c = new Graph();
  c.upsertResource("zone", "d.org", { ttl: 60, owner: "ops" });
  c.seal();
  const schema = sharedGraphQLSchema(a, "test");
  assert.equal(sharedGraphQLSchema(b, "test"), schema);
  assert.notEqual(sharedGraphQLSchema(c, "test"), schema);
  assert.deepEqual(await query(schema, b, "{ countNodes countNodeProperties zone { ttl } }"), {
    countNodes: 2,
    countNodeProperties: 4,
    zone: [{ ttl: 300 }, { ttl: 300 }],
  });
  await assert.rejects(
    () => executeGraphQL(schema, c, { query: "{ countNodes }" }),
    /different shape/,
  );
  // A schema built for one graph (buildGraphQLSchema) still refuses any other snapshot.
  await assert.rejects(
    () => executeGraphQL(buildGraphQLSchema(a), b, { query: "{ countNodes }" }),
    /different graph snapshot/,
  );
});
