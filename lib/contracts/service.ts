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
import { dataDirModuleId } from "../workspace/module_source.ts";
import type { WriteService } from "../writes/service.ts";
import { callContract, type ContractCallResult } from "./execute.ts";
import { type ContractCatalog, ContractLoader } from "./load.ts";
import { type Contract, ContractCallError } from "./types.ts";

/** What the service needs from the engine (a `GraphEngine` fits). */
export interface ContractHost {
  /** The data directory. */
  readonly workspace: Workspace;
  /** Module layers in load order. */
  readonly modules: readonly LayerSource[];
  /**
   * The published snapshot: its resolved parameters render the templates; its manifest's
   * data-directory name gives the data directory's module id (MP7).
   */
  readonly current: {
    readonly params: Readonly<Record<string, unknown>>;
    readonly manifest?: { readonly modules: readonly { layer: string; name: string }[] };
  };
  /** A template renderer for the given parameters. */
  createTemplates(params: Readonly<Record<string, JsonValue>>): TemplateRenderer;
}

/**
 * Lists and calls contracts. A contract file that does not parse is left out, logged once (per
 * distinct error) and reported by {@link ContractService.catalog}; the other contracts stay
 * usable (AC40). A call throws {@link ContractCallError} when it is refused (nothing written).
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
  readonly #log: (text: string) => void;
  #reported = new Set<string>();

  /**
   * Creates the service.
   * @param host the engine (workspace, modules, parameters, templates)
   * @param writes the one write path (its `enabled` flag refuses calls)
   * @param settled resolves once a first build has published declarations and parameters
   * @param log where broken contract files are reported (default: `console.warn`)
   */
  constructor(
    private readonly host: ContractHost,
    readonly writes: WriteService,
    private readonly settled: () => Promise<void>,
    log?: (text: string) => void,
  ) {
    this.#loader = new ContractLoader(host.workspace, host.modules);
    this.#log = log ?? ((text) => console.warn(`WARN ${text}`));
  }

  /** Every usable contract and the located error of every broken file (AC40). */
  async catalog(): Promise<ContractCatalog> {
    const declared = this.host.current.manifest?.modules.find((m) => m.layer === "data")?.name;
    const catalog = await this.#loader.loadAll(
      dataDirModuleId(declared, this.host.modules.map((m) => m.id)),
    );
    const now = new Set(catalog.errors.map((e) => e.message));
    for (const message of now) {
      if (!this.#reported.has(message)) this.#log(`contracts: ${message}`);
    }
    this.#reported = now;
    return catalog;
  }

  /** Every usable contract, modules first then the data directory. */
  async list(): Promise<Contract[]> {
    return (await this.catalog()).contracts;
  }

  /** The contract called `name`, or `undefined`. */
  async find(name: string): Promise<Contract | undefined> {
    return (await this.list()).find((c) => c.name === name);
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
