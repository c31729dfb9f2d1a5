/**
 * Mounts the GraphQL endpoint and the GraphiQL explorer. The schema is generated once per
 * published snapshot and cached with it, so every request runs against one consistent graph.
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphQLSchema } from "graphql";
import type { GraphEngine, Snapshot } from "../engine.ts";
import { buildGraphQLSchema } from "./graphql/schema.ts";
import { createGraphQLHandler } from "./graphql/http.ts";
import { GRAPHIQL_ASSETS, graphiqlHtml } from "./graphql/graphiql.ts";
import { problem } from "./problem.ts";

/** Reads a static file by path relative to `node_modules/`; `undefined` when missing. */
export type StaticAssetReader = (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;

const schemas = new WeakMap<Snapshot, GraphQLSchema>();

/** The GraphQL schema of a snapshot (built on first use, then cached). */
export function schemaOf(snapshot: Snapshot): GraphQLSchema {
  const cached = schemas.get(snapshot);
  if (cached) return cached;
  const schema = buildGraphQLSchema(snapshot.graph);
  schemas.set(snapshot, schema);
  return schema;
}

/** Registers `/graphql` (GET, POST), `/graphiql` and its static assets. */
export function registerGraphQLRoutes(
  app: Hono,
  engine: GraphEngine,
  readStaticAsset?: StaticAssetReader,
): void {
  const handler = createGraphQLHandler(() => {
    const snapshot = engine.current;
    return { schema: schemaOf(snapshot), graph: snapshot.graph };
  });
  app.on(["GET", "POST"], "/graphql", (c) => handler(c.req.raw));
  app.get("/graphiql", (c) => c.html(graphiqlHtml("/graphql")));
  app.get("/graphiql/assets/:file", async (c) => {
    const asset = GRAPHIQL_ASSETS[c.req.path];
    const bytes = asset && readStaticAsset ? await readStaticAsset(asset.path) : undefined;
    if (!asset || !bytes) return problem(404, "not-found", "no such GraphiQL asset");
    return new Response(bytes, {
      headers: { "content-type": asset.contentType, "cache-control": "public, max-age=86400" },
    });
  });
}
