/**
 * Action endpoints (reference AC5, AC10–AC13, AC23, S§4.4): `GET /api/actions` (the files
 * left out by the last expansion: `GET /api/actions/errors`),
 * `POST /api/actions/{module}/{action}` (`202` + run id; `?download=true` returns the bundle),
 * `GET /api/actions/runs`, `GET /api/actions/runs/{id}`, `DELETE /api/actions/runs/{id}`.
 * Queueing, downloading and cancelling are writes: refused with `403` when writes are disabled
 * (`--read-only`) and guarded by the API token under `--protect-writes` (R91).
 *
 * @module
 */
import type { Context, Hono } from "hono";
import { ActionService } from "../../actions/service.ts";
import {
  ActionBundleError,
  ActionInputError,
  ActionNotFoundError,
  RunStateError,
} from "../../actions/errors.ts";
import { fromBase64 } from "../../actions/seal.ts";
import type { RunRecord } from "../../actions/ports.ts";
import type { RunEvent } from "../../actions/runs.ts";
import { streamSSE } from "hono/streaming";
import { checkApiToken } from "../auth.ts";
import { problem } from "../problem.ts";
import { CONFIG_ERRORS_HEADER, configErrorJson } from "./config_errors.ts";

/** Options of {@link registerActionRoutes}. */
export interface ActionRouteOptions {
  /** The action service (absent: no actions are listed). */
  service?: ActionService;
  /** Whether writes are enabled (default true). */
  writes?: boolean;
  /** Require the API token on POST and DELETE (`--protect-writes`). */
  protectWrites?: boolean;
  /** The API token. */
  apiToken?: string;
}

function segment(c: Context, name: string): string | Response {
  try {
    return decodeURIComponent(c.req.param(name) ?? "");
  } catch {
    return problem(400, "bad-request", `path segment '${name}' is not valid percent-encoding`);
  }
}

async function inputsOf(request: Request): Promise<unknown | Response> {
  const text = await request.text();
  if (text.trim() === "") return {};
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return problem(
      400,
      "bad-request",
      "the request body must be JSON (Content-Type: application/json)",
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return problem(
      400,
      "bad-request",
      `the request body is not valid JSON: ${(e as Error).message}`,
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return problem(400, "bad-request", "the body must be a JSON object of inputs");
  }
  return value;
}

function refused(e: unknown): Response {
  if (e instanceof ActionNotFoundError) return problem(404, "not-found", e.message);
  if (e instanceof ActionInputError) {
    return problem(400, "validation-failed", e.message, { errors: e.fields });
  }
  if (e instanceof RunStateError) return problem(409, "invalid-transition", e.message);
  if (e instanceof ActionBundleError) return problem(422, "validation-failed", e.message);
  throw e;
}

/**
 * Registers the action routes.
 *
 * @example
 * ```ts ignore
 * registerActionRoutes(app, { service });
 * ```
 */
export function registerActionRoutes(app: Hono, options: ActionRouteOptions = {}): void {
  const service = options.service ?? new ActionService();
  const guard = async (request: Request): Promise<Response | undefined> => {
    if (options.writes === false) {
      return problem(403, "forbidden", "actions are disabled: the server is read-only");
    }
    if (options.protectWrites) return await checkApiToken(request, options.apiToken, "actions");
    return undefined;
  };

  app.get("/api/actions", async (c) => {
    await service.whenRefreshed();
    const errors = service.errors.length;
    if (errors > 0) c.header(CONFIG_ERRORS_HEADER, String(errors));
    return c.json(service.list());
  });
  // AC5: the action files the last expansion left out, located.
  app.get("/api/actions/errors", async (c) => {
    await service.whenRefreshed();
    return c.json(service.errors.map(configErrorJson));
  });
  app.get("/api/actions/runs", (c) => c.json(service.runs()));
  app.get("/api/actions/runs/:id", (c) => {
    const id = segment(c, "id");
    if (id instanceof Response) return id;
    const run = service.run(id);
    return run ? c.json(run) : problem(404, "not-found", `no run '${id}'`);
  });
  // A run's output as Server-Sent Events (AC30): lines so far, live lines, then `RUN_<STATUS>`.
  app.get("/api/actions/runs/:id/log", (c) => {
    const id = segment(c, "id");
    if (id instanceof Response) return id;
    if (!service.run(id)) return problem(404, "not-found", `no run '${id}'`);
    return streamSSE(c, async (stream) => {
      const send = (text: string) => stream.writeSSE({ data: text.replace(/\r?\n|\r/g, " ") });
      const endLine = (r: RunRecord) =>
        `RUN_${r.status.toUpperCase()}${r.error ? `: ${r.error}` : ""}`;
      const queue: RunEvent[] = [];
      let wake = () => {};
      const unsubscribe = service.watch(id, (event) => {
        queue.push(event);
        wake();
      });
      const gone = () => c.req.raw.signal.aborted || stream.aborted;
      stream.onAbort(() => wake());
      c.req.raw.signal.addEventListener("abort", () => wake());
      try {
        const record = service.run(id)!; // read right after subscribing: no line is missed
        for (const l of record.log_tail) await send(l);
        if (record.status !== "queued" && record.status !== "running") {
          await send(endLine(record));
          return;
        }
        for (;;) {
          while (queue.length > 0) {
            const event = queue.shift()!;
            if (event.kind === "line") {
              await send(event.line);
              continue;
            }
            await send(endLine(event.record));
            return;
          }
          if (gone()) return;
          await new Promise<void>((resolve) => wake = resolve);
        }
      } finally {
        unsubscribe?.();
      }
    });
  });
  app.delete("/api/actions/runs/:id", async (c) => {
    const denied = await guard(c.req.raw);
    if (denied) return denied;
    const id = segment(c, "id");
    if (id instanceof Response) return id;
    try {
      return c.json(service.cancel(id));
    } catch (e) {
      return refused(e);
    }
  });
  app.post("/api/actions/:module/:action", async (c) => {
    const denied = await guard(c.req.raw);
    if (denied) return denied;
    const module = segment(c, "module");
    if (module instanceof Response) return module;
    const action = segment(c, "action");
    if (action instanceof Response) return action;
    const body = await inputsOf(c.req.raw);
    if (body instanceof Response) return body;
    await service.whenRefreshed();
    try {
      if (c.req.query("download") === "true") {
        const header = c.req.header("x-runner-key");
        let key: Uint8Array | undefined;
        if (header !== undefined) {
          try {
            key = fromBase64(header);
          } catch { /* checked below */ }
          if (key?.length !== 32) {
            return problem(400, "bad-request", "X-Runner-Key must be a base64 X25519 public key");
          }
        }
        const built = await service.bundle(module, action, body, key);
        return new Response(built.bytes as Uint8Array<ArrayBuffer>, {
          status: 200,
          headers: {
            "content-type": "application/gzip",
            "content-disposition": `attachment; filename="${action.replace(/["\\]/g, "_")}.tar.gz"`,
          },
        });
      }
      const run = await service.trigger(module, action, body);
      return c.json({ id: run.id, status: run.status }, 202);
    } catch (e) {
      return refused(e);
    }
  });
}
