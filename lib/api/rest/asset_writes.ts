/**
 * `POST`/`PUT /api/assets/{file}` (reference R3–R9): multipart form writes of asset CSV files —
 * `data` replaces the file, `remove` and `update` edit it (remove first, one atomic write).
 *
 * @module
 */
import type { Hono } from "hono";
import type { WriteService } from "../../writes/service.ts";
import type { AssetForm } from "../../writes/service.ts";
import { problem } from "../problem.ts";
import { writeAccepted, writeRefused } from "./write_responses.ts";

const FIELDS = ["data", "update", "remove"] as const;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Registers the asset write routes. */
export function registerAssetWriteRoutes(app: Hono, writes: WriteService): void {
  const handler = async (request: Request, path: string): Promise<Response> => {
    let requested: string;
    try {
      requested = decodeURIComponent(path.slice("/api/assets/".length));
    } catch {
      return problem(400, "bad-request", "asset file name is not valid percent-encoding");
    }
    const type = request.headers.get("content-type") ?? "";
    if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
      return problem(
        400,
        "bad-request",
        "asset writes are multipart/form-data with a field 'data', 'update' or 'remove'",
      );
    }
    let form: FormData;
    try {
      form = await request.formData();
    } catch (e) {
      return problem(
        400,
        "bad-request",
        `malformed form data: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const fields: AssetForm = {};
    for (const field of FIELDS) {
      const values = form.getAll(field);
      if (values.length === 0) continue;
      if (values.length > 1) {
        return problem(400, "bad-request", `form field '${field}' is given more than once`);
      }
      const value = values[0];
      let text: string;
      try {
        text = typeof value === "string" ? value : utf8.decode(await value.arrayBuffer());
      } catch {
        return problem(400, "bad-request", `form field '${field}' is not valid UTF-8`);
      }
      if (text.includes("\0")) {
        return problem(400, "bad-request", `form field '${field}' contains a NUL byte`);
      }
      fields[field] = text;
    }
    try {
      const result = await writes.writeAssetForm(requested, fields);
      return writeAccepted(
        200,
        { ok: true, file: result.file, rows: result.rows },
        result.generation,
      );
    } catch (e) {
      return writeRefused(e);
    }
  };
  app.on(["POST", "PUT"], "/api/assets/*", (c) => handler(c.req.raw, c.req.path));
}
