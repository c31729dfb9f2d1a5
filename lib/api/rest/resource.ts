/**
 * Read-only resource views over REST, what the built-in explorer is a client of:
 *
 * - `GET /api/resources`: types and relation labels with counts, generation, totals;
 * - `GET /api/resources/{type}?sort=&desc=1&offset=&limit=&f.<column>=`: a sorted, filtered page;
 * - `GET /api/resources/{type}/{name}`: properties, relations both ways with edge properties,
 *   output artifacts, compliance entries, rule issues, source files and how to edit it;
 * - `GET /api/neighbourhood?type=&name=&depth=1..3&label=`: nodes and edges around a resource.
 *
 * Every read honours `Graphsvc-Min-Generation` (read-your-writes).
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphEngine } from "../../engine.ts";
import { problem } from "../problem.ts";
import { readConsistency, snapshotFor } from "../consistency.ts";
import { registerSearchRoute } from "./search.ts";
import { graphSummary, resourceDetail, typeTable } from "../../explorer/views.ts";
import { neighbourhood } from "../../explorer/neighbourhood.ts";

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function intParam(
  raw: string | undefined,
  name: string,
  max: number,
): number | undefined | Response {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max) {
    return problem(400, "bad-request", `'${name}' must be an integer from 0 to ${max}`);
  }
  return Number(raw);
}

/**
 * Registers the resource reads and `GET /api/search` on `app`.
 *
 * @example
 * ```ts ignore
 * registerResourceRoutes(app, engine);
 * ```
 */
export function registerResourceRoutes(app: Hono, engine: GraphEngine, waitMs?: number): void {
  const consistent = readConsistency(engine, waitMs);
  for (const path of ["/api/resources", "/api/resources/*", "/api/neighbourhood", "/api/search"]) {
    app.use(path, (c, next) => c.req.method === "GET" ? consistent(c, next) : next());
  }
  registerSearchRoute(app, engine);
  app.get("/api/resources", (c) => Response.json(graphSummary(snapshotFor(engine, c.req.raw))));
  app.get("/api/resources/*", (c) => {
    const snapshot = snapshotFor(engine, c.req.raw);
    // Split the raw path so that `%2F` inside a name stays part of the name.
    const raw = c.req.path.slice("/api/resources/".length);
    const cut = raw.indexOf("/");
    const type = decode(cut < 0 ? raw : raw.slice(0, cut));
    const name = cut < 0 ? undefined : decode(raw.slice(cut + 1));
    if (type === undefined || (cut >= 0 && name === undefined)) {
      return problem(400, "bad-request", "path segments are not valid percent-encoding");
    }
    if (!snapshot.graph.hasType(type)) {
      return problem(404, "not-found", `no resource type '${type}'`);
    }
    if (name !== undefined) {
      const detail = resourceDetail(snapshot, type, name);
      return detail
        ? Response.json(detail)
        : problem(404, "not-found", `no ${type} named '${name}'`);
    }
    const offset = intParam(c.req.query("offset"), "offset", 1e9);
    if (offset instanceof Response) return offset;
    const limit = intParam(c.req.query("limit"), "limit", 500);
    if (limit instanceof Response) return limit;
    const filters: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.req.query())) {
      if (k.startsWith("f.")) filters[k.slice(2)] = v;
    }
    const page = typeTable(snapshot.graph, type, {
      sort: c.req.query("sort") || undefined,
      desc: c.req.query("desc") === "1" || c.req.query("desc") === "true",
      filters,
      offset,
      limit,
    });
    return Response.json({ ...page, generation: snapshot.generation });
  });
  app.get("/api/neighbourhood", (c) => {
    const snapshot = snapshotFor(engine, c.req.raw);
    const type = c.req.query("type");
    const name = c.req.query("name");
    // Both are required (documented 400): a 404 would say the path does not exist.
    if (!type || name === undefined) {
      return problem(400, "bad-request", "query parameters 'type' and 'name' are required");
    }
    const depth = intParam(c.req.query("depth"), "depth", 3);
    if (depth instanceof Response) return depth;
    const labels = c.req.queries("label")?.flatMap((l) => l.split(",")).filter((l) => l) ?? [];
    const view = neighbourhood(snapshot.graph, type, name, Math.max(1, depth ?? 1), labels);
    if (!view) return problem(404, "not-found", `no ${type} named '${name}'`);
    return Response.json({ ...view, generation: snapshot.generation });
  });
}
