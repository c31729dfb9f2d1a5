/**
 * The one way a contract is called (reference AC43–AC44), shared by `POST /api/contracts/{name}`
 * and the MCP tools `contract.<name>`: look the contract up, refuse when writes are disabled,
 * wait for a first build (declarations and parameters), then validate the inputs and apply the
 * writes in one transaction of the write service.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { TemplateRenderer } from "../pipeline/context.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { LayerSource } from "../workspace/sources.ts";
import type { WriteService } from "../writes/service.ts";
import { callContract, type ContractCallResult } from "./execute.ts";
import { ContractLoader } from "./load.ts";
import { type Contract, ContractCallError } from "./types.ts";

/** What the service needs from the engine (a `GraphEngine` fits). */
export interface ContractHost {
  /** The data directory. */
  readonly workspace: Workspace;
  /** Module layers in load order. */
  readonly modules: readonly LayerSource[];
  /** The published snapshot: its resolved parameters render the templates. */
  readonly current: { readonly params: Readonly<Record<string, unknown>> };
  /** A template renderer for the given parameters. */
  createTemplates(params: Readonly<Record<string, JsonValue>>): TemplateRenderer;
}

/**
 * Lists and calls contracts. Listing and lookup throw `ParseError` when a contract file does not
 * parse; a call throws {@link ContractCallError} when it is refused (nothing written).
 *
 * @example
 * ```ts ignore
 * const contracts = new ContractService(engine, writes, settled);
 * const result = await contracts.call("RequestCertificate", { host: "web-1" });
 * console.log(result.generation);
 * ```
 */
export class ContractService {
  readonly #loader: ContractLoader;

  /**
   * Creates the service.
   * @param host the engine (workspace, modules, parameters, templates)
   * @param writes the one write path (its `enabled` flag refuses calls)
   * @param settled resolves once a first build has published declarations and parameters
   */
  constructor(
    private readonly host: ContractHost,
    readonly writes: WriteService,
    private readonly settled: () => Promise<void>,
  ) {
    this.#loader = new ContractLoader(host.workspace, host.modules);
  }

  /** Every contract, modules first then the data directory. */
  list(): Promise<Contract[]> {
    return this.#loader.load();
  }

  /** The contract called `name`, or `undefined`. */
  find(name: string): Promise<Contract | undefined> {
    return this.#loader.find(name);
  }

  /**
   * Calls a contract (given or by name) with a JSON object of inputs: `404 not-found` for an
   * unknown name, `403 forbidden` when writes are disabled, else the outcome of
   * `callContract`.
   */
  async call(contract: Contract | string, body: unknown): Promise<ContractCallResult> {
    const found = typeof contract === "string" ? await this.find(contract) : contract;
    if (!found) throw new ContractCallError(404, "not-found", `no contract named '${contract}'`);
    if (!this.writes.enabled) {
      throw new ContractCallError(403, "forbidden", "asset writes are disabled");
    }
    await this.settled();
    const params = this.host.current.params as Readonly<Record<string, JsonValue>>;
    return await callContract(found, body, {
      writes: this.writes,
      templates: this.host.createTemplates(params),
      params,
    });
  }
}
