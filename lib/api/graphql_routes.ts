/**
 * Mounts the GraphQL endpoint and the GraphiQL explorer. The schema depends only on the shape
 * of a snapshot (types, fields, relations) and on the mutation mode and mutable assets, so a
 * snapshot of an unchanged shape reuses the previous schema; every request reads its own
 * snapshot through the execution context, so it runs against one consistent graph.
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphQLSchema } from "graphql";
import type { GraphEngine, Snapshot } from "../engine.ts";
import { sharedGraphQLSchema } from "./graphql/schema.ts";
import { createGraphQLHandler } from "./graphql/http.ts";
import { GRAPHIQL_ASSETS, graphiqlHtml } from "./graphql/graphiql.ts";
import { problem } from "./problem.ts";
import { GENERATION_HEADER, snapshotFor, withHeader } from "./consistency.ts";
import {
  type MutableAsset,
  mutationFields,
  type MutationRoot,
  type MutationWriter,
  refusingWriter,
} from "./graphql/mutations.ts";
import { assetType } from "../pipeline/assets.ts";
import { formatIssue } from "../pipeline/issues.ts";
import type { EmbeddedAsset } from "./assets/embedded.ts";
import { UI_MISSING } from "./ui_assets.ts";
import { embeddedResponse } from "./assets/embedded.ts";

/**
 * Reads a static file by path relative to `node_modules/`; `undefined` when missing. Only needed
 * to serve other files than the embedded ones (lib/api/assets/).
 */
export type StaticAssetReader = (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;

/** How a request's mutations are carried out: a writer, or a refusal with its reason. */
export interface MutationMode {
  /** Cache key of the schema variant (`write`, `disabled`, `unauthorized`). */
  readonly key: string;
  /** The writer used by the mutation resolvers. */
  readonly writer: MutationWriter;
}

const schemas = new WeakMap<Snapshot, Map<string, GraphQLSchema>>();

/** Asset types of a snapshot that get mutations: loaded files, then declared-only assets (G17). */
export function mutableAssets(snapshot: Snapshot): MutableAsset[] {
  const out = new Map<string, MutableAsset>();
  for (const a of snapshot.assets) {
    if (!out.has(a.type)) {
      out.set(a.type, { type: a.type, columns: a.header, declaration: a.declaration });
    }
  }
  for (const d of snapshot.manifest.assets.values()) {
    const type = assetType(d.file, d);
    if (!out.has(type)) out.set(type, { type, columns: [...d.columns.keys()], declaration: d });
  }
  return [...out.values()];
}

/** What of the mutable assets shapes the mutation inputs (G18): columns and declarations. */
function assetsSignature(assets: readonly MutableAsset[]): string {
  return JSON.stringify(assets.map((a) => [
    a.type,
    a.columns,
    a.declaration?.nameTemplate !== undefined,
    [...(a.declaration?.columns ?? new Map()).entries()]
      .map(([name, spec]) => [name, spec?.type ?? null, spec?.required === true]),
  ]));
}

/**
 * The GraphQL schema of a snapshot for a mutation mode: shared with every snapshot of the same
 * shape, mode and mutable assets (built on first use). Mutations write through the request's
 * `MutationRoot.writer`, so a shared schema never carries another server's writer into a request.
 */
export function schemaOf(snapshot: Snapshot, mode?: MutationMode): GraphQLSchema {
  let variants = schemas.get(snapshot);
  if (!variants) schemas.set(snapshot, variants = new Map());
  const key = mode?.key ?? "read-only";
  const cached = variants.get(key);
  if (cached) return cached;
  let schema: GraphQLSchema;
  if (mode) {
    const assets = mutableAssets(snapshot);
    schema = sharedGraphQLSchema(snapshot.graph, `${key}\n${assetsSignature(assets)}`, {
      mutations: (ctx) => mutationFields(ctx, assets, mode.writer),
    });
  } else {
    schema = sharedGraphQLSchema(snapshot.graph, key);
  }
  variants.set(key, schema);
  return schema;
}

/**
 * Registers `/graphql` (GET, POST), `/graphiql` and its static assets: `graphiql`'s embedded
 * files, or files read by `readStaticAsset`; with neither, `/graphiql` answers `404`.
 */
export function registerGraphQLRoutes(
  app: Hono,
  engine: GraphEngine,
  readStaticAsset?: StaticAssetReader,
  graphiql?: ReadonlyMap<string, EmbeddedAsset>,
  mutationMode: (request: Request) => Promise<MutationMode> = () =>
    Promise.resolve({ key: "disabled", writer: refusingWriter("asset writes are disabled") }),
): void {
  app.on(["GET", "POST"], "/graphql", async (c) => {
    const request = c.req.raw;
    const snapshot = snapshotFor(engine, request);
    const mode = await mutationMode(request);
    const root: MutationRoot = { generations: [], writer: mode.writer };
    const status = engine.status;
    const degraded = status !== undefined && status.status !== "ok";
    const handler = createGraphQLHandler(() => ({
      schema: schemaOf(snapshot, mode),
      graph: snapshot.graph,
      rootValue: root,
      // Queries answer from the snapshot alone unless the answer carries the build's status.
      cacheResponses: !degraded,
      // Clients see when the newest build is not ok and which graph they were answered from.
      extensions: degraded
        ? {
          build: {
            generation: status.generation,
            status: status.status,
            served_generation: snapshot.generation,
            errors: status.issues.filter((i) => i.severity === "error").slice(0, 20)
              .map(formatIssue),
            error_count: status.errorCount,
          },
        }
        : undefined,
    }));
    const response = await handler(request);
    // A request that wrote names the generation that will contain its writes.
    if (root.generations.length === 0) return response;
    const newest = root.generations.reduce((a, b) => Math.max(a, b));
    return withHeader(response, GENERATION_HEADER, String(newest));
  });
  app.get(
    "/graphiql",
    (c) =>
      graphiql || readStaticAsset
        ? c.html(graphiqlHtml("/graphql"))
        : problem(404, "not-found", `GraphiQL: ${UI_MISSING}`),
  );
  app.get("/graphiql/assets/:file", async (c) => {
    const asset = GRAPHIQL_ASSETS[c.req.path];
    if (!asset) return problem(404, "not-found", "no such GraphiQL asset");
    if (!readStaticAsset) {
      const embedded = graphiql?.get(asset.path);
      if (!embedded) return problem(404, "not-found", "no such GraphiQL asset");
      return await embeddedResponse(embedded, c.req.raw);
    }
    const bytes = await readStaticAsset(asset.path);
    if (!bytes) return problem(404, "not-found", "no such GraphiQL asset");
    return new Response(bytes, {
      headers: { "content-type": asset.contentType, "cache-control": "public, max-age=86400" },
    });
  });
}
