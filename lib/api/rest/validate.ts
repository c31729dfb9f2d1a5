/**
 * `GET /api/validate-workspace[?strict=true]` (reference R30, SV30, SV40): the validation report
 * of the last built graph, always `200`. The snapshot is the one the read-consistency middleware
 * pinned (`Graphsvc-Min-Generation`); reports are computed once per snapshot and mode.
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphEngine, Snapshot } from "../../engine.ts";
import { type LayerSource, loadSourceSet } from "../../workspace/sources.ts";
import { prepareSchemaTexts, validateWorkspace } from "../../schema/validate.ts";
import type { SchemaFetcher } from "../../schema/sources.ts";
import type { ValidationReport } from "../../schema/types.ts";
import { snapshotFor } from "../consistency.ts";

/**
 * Registers the route. `fetcher` reads remote schema locations (Git, files outside the module
 * folders); without it only in-memory files and HTTP(S) URLs are read.
 *
 * @example
 * ```ts ignore
 * registerValidateRoutes(app, engine);
 * ```
 */
export function registerValidateRoutes(
  app: Hono,
  engine: GraphEngine,
  fetcher?: SchemaFetcher,
): void {
  const cache = new WeakMap<Snapshot, Map<boolean, Promise<ValidationReport>>>();
  const reportOf = (snapshot: Snapshot, strict: boolean): Promise<ValidationReport> => {
    let bySnapshot = cache.get(snapshot);
    if (!bySnapshot) cache.set(snapshot, bySnapshot = new Map());
    let p = bySnapshot.get(strict);
    if (!p) {
      p = compute(engine, snapshot, strict, fetcher);
      p.catch(() => bySnapshot!.delete(strict));
      bySnapshot.set(strict, p);
    }
    return p;
  };
  app.get("/api/validate-workspace", async (c) => {
    const strict = c.req.query("strict") === "true";
    return c.json(await reportOf(snapshotFor(engine, c.req.raw), strict), 200);
  });
}

async function compute(
  engine: GraphEngine,
  snapshot: Snapshot,
  strict: boolean,
  fetcher?: SchemaFetcher,
): Promise<ValidationReport> {
  const modules = (engine as unknown as { modules?: readonly LayerSource[] }).modules ?? [];
  const sources = await loadSourceSet(engine.workspace, [...modules]);
  const texts = await prepareSchemaTexts(sources, snapshot.manifest, fetcher);
  return validateWorkspace({
    sources,
    graph: snapshot.graph,
    manifest: snapshot.manifest,
    assets: snapshot.assets,
    buildIssues: snapshot.issues,
  }, { strict, texts });
}
