/**
 * Contract endpoints (reference AC40, AC44): `GET /api/contracts` lists every contract with its
 * inputs (`GET /api/contracts/errors`: the files that do not parse); `POST /api/contracts/{name}` calls one with a JSON object of inputs and answers with
 * the outcome of each write and the generation that contains them (like every other write).
 *
 * @module
 */
import type { Context, Hono } from "hono";
import type { ContractService } from "../../contracts/service.ts";
import { type Contract, ContractCallError } from "../../contracts/types.ts";
import { inputSummary } from "../../actions/inputs.ts";
import { problem } from "../problem.ts";
import { CONFIG_ERRORS_HEADER, configErrorJson } from "./config_errors.ts";
import { readJsonBody, writeAccepted } from "./write_responses.ts";

/** The summary of a contract in `GET /api/contracts` (AC44). */
function describe(c: Contract) {
  return {
    name: c.name,
    description: c.description,
    module: c.module,
    inputs: c.inputs.map(inputSummary),
  };
}

/**
 * Registers the contract routes. A contract file that does not parse is left out of the listing
 * (which then carries `X-Config-Errors: <n>`) and reported, located, by
 * `GET /api/contracts/errors`; the other contracts stay callable (AC40).
 *
 * @param app the Hono app
 * @param service the contract service (shared with the MCP tools `contract.<name>`)
 * @example
 * ```ts ignore
 * registerContractRoutes(app, new ContractService(engine, writes, settled));
 * ```
 */
export function registerContractRoutes(app: Hono, service: ContractService): void {
  app.get("/api/contracts", async (c) => {
    const { contracts, errors } = await service.catalog();
    if (errors.length > 0) c.header(CONFIG_ERRORS_HEADER, String(errors.length));
    return c.json(contracts.map(describe));
  });
  app.get("/api/contracts/errors", async (c) => {
    const { errors } = await service.catalog();
    return c.json(errors.map(configErrorJson));
  });
  app.post("/api/contracts/:name", async (c: Context) => {
    let name: string;
    try {
      name = decodeURIComponent(c.req.param("name") ?? "");
    } catch {
      return problem(400, "bad-request", "path segment 'name' is not valid percent-encoding");
    }
    const { contracts, errors } = await service.catalog();
    const contract = contracts.find((x) => x.name === name);
    if (!contract) {
      const hint = errors.length > 0
        ? ` (${errors.length} contract file(s) do not parse: see GET /api/contracts/errors)`
        : "";
      return problem(404, "not-found", `no contract named '${name}'${hint}`);
    }
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
