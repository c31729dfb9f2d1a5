/**
 * Auto-CRUD over REST (reference R10–R14): `POST /api/mutations/{asset}` adds a row,
 * `PUT /api/mutations/{asset}/{name}` merges fields into it, `DELETE` removes it. Every write
 * lands in the asset's CSV file and answers with the generation that will contain it.
 *
 * @module
 */
import type { Context, Hono } from "hono";
import type { JsonValue } from "../../graph/graph.ts";
import type { WriteService } from "../../writes/service.ts";
import { problem } from "../problem.ts";
import { bodyProblem } from "../openapi/body.ts";
import { RowFields } from "../openapi/schemas.ts";
import { readJsonBody, writeAccepted, writeRefused } from "./write_responses.ts";

function segment(c: Context, name: string): string | Response {
  try {
    return decodeURIComponent(c.req.param(name) ?? "");
  } catch {
    return problem(400, "bad-request", `path segment '${name}' is not valid percent-encoding`);
  }
}

async function fieldsOf(request: Request): Promise<Record<string, JsonValue> | Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const value = body.value;
  // The shape the API document gives (R13): scalars, null or arrays of them per field.
  const refused = bodyProblem(
    RowFields,
    value,
    "a JSON object of field values",
    "a string, number, boolean, null or an array of them (objects cannot be stored in a cell)",
  );
  return refused ?? value as Record<string, JsonValue>;
}

/** Registers the auto-CRUD routes. */
export function registerMutationRoutes(app: Hono, writes: WriteService): void {
  app.post("/api/mutations/:asset", async (c) => {
    const asset = segment(c, "asset");
    if (asset instanceof Response) return asset;
    const fields = await fieldsOf(c.req.raw);
    if (fields instanceof Response) return fields;
    try {
      const r = await writes.addRow(asset, fields);
      return writeAccepted(201, { success: true, message: r.message, name: r.name }, r.generation);
    } catch (e) {
      return writeRefused(e);
    }
  });
  app.put("/api/mutations/:asset/:name{.+}", async (c) => {
    const asset = segment(c, "asset");
    if (asset instanceof Response) return asset;
    const name = segment(c, "name");
    if (name instanceof Response) return name;
    const fields = await fieldsOf(c.req.raw);
    if (fields instanceof Response) return fields;
    try {
      const r = await writes.changeRow(asset, name, fields);
      return writeAccepted(200, { success: true, message: r.message, name: r.name }, r.generation);
    } catch (e) {
      return writeRefused(e);
    }
  });
  app.delete("/api/mutations/:asset/:name{.+}", async (c) => {
    const asset = segment(c, "asset");
    if (asset instanceof Response) return asset;
    const name = segment(c, "name");
    if (name instanceof Response) return name;
    try {
      const r = await writes.deleteRow(asset, name);
      return writeAccepted(200, { success: true, message: r.message, name: r.name }, r.generation);
    } catch (e) {
      return writeRefused(e);
    }
  });
}
