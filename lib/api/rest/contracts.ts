/**
 * Contract endpoints (reference AC44): `GET /api/contracts` lists every contract with its
 * inputs; `POST /api/contracts/{name}` calls one with a JSON object of inputs and answers with
 * the outcome of each write and the generation that contains them (like every other write).
 *
 * @module
 */
import type { Context, Hono } from "hono";
import { ParseError } from "../../formats/errors.ts";
import type { ContractService } from "../../contracts/service.ts";
import { type Contract, ContractCallError } from "../../contracts/types.ts";
import { problem } from "../problem.ts";
import { readJsonBody, writeAccepted } from "./write_responses.ts";

/** The summary of a contract in `GET /api/contracts` (AC44). */
function describe(c: Contract) {
  return {
    name: c.name,
    description: c.description,
    module: c.module,
    inputs: c.inputs.map((i) => ({
      name: i.name,
      type: i.type,
      required: i.required,
      ...(i.default !== undefined ? { default: i.default } : {}),
      ...(i.allowedValues ? { allowed_values: i.allowedValues } : {}),
      ...(i.description !== undefined ? { description: i.description } : {}),
    })),
  };
}

/** A contract file that does not parse: the server's configuration is broken, not the call. */
function configError(e: ParseError): Response {
  return problem(503, "service-unavailable", `contracts cannot be loaded: ${e.message}`, {
    file: e.file,
    line: e.line,
  });
}

/**
 * Registers the contract routes.
 *
 * @param app the Hono app
 * @param service the contract service (shared with the MCP tools `contract.<name>`)
 * @example
 * ```ts ignore
 * registerContractRoutes(app, new ContractService(engine, writes, settled));
 * ```
 */
export function registerContractRoutes(app: Hono, service: ContractService): void {
  const load = async (): Promise<Contract[] | Response> => {
    try {
      return await service.list();
    } catch (e) {
      if (e instanceof ParseError) return configError(e);
      throw e;
    }
  };
  app.get("/api/contracts", async (c) => {
    const contracts = await load();
    if (contracts instanceof Response) return contracts;
    return c.json(contracts.map(describe));
  });
  app.post("/api/contracts/:name", async (c: Context) => {
    let name: string;
    try {
      name = decodeURIComponent(c.req.param("name") ?? "");
    } catch {
      return problem(400, "bad-request", "path segment 'name' is not valid percent-encoding");
    }
    const contracts = await load();
    if (contracts instanceof Response) return contracts;
    const contract = contracts.find((x) => x.name === name);
    if (!contract) return problem(404, "not-found", `no contract named '${name}'`);
    if (!service.writes.enabled) return problem(403, "forbidden", "asset writes are disabled");
    let body: unknown = {};
    const raw = c.req.raw;
    if (raw.headers.get("content-length") !== "0" && raw.body !== null) {
      const text = await raw.clone().text();
      if (text.trim() !== "") {
        const parsed = await readJsonBody(raw);
        if (!parsed.ok) return parsed.response;
        body = parsed.value;
      }
    }
    try {
      const result = await service.call(contract, body);
      return writeAccepted(200, { success: true, writes: result.writes }, result.generation);
    } catch (e) {
      if (e instanceof ContractCallError) {
        return problem(
          e.status,
          e.slug,
          e.message,
          e.errors.length > 0 ? { errors: e.errors } : {},
        );
      }
      throw e;
    }
  });
}
