/**
 * Contracts (reference AC40–AC45): curated, typed mutation endpoints defined in
 * `contracts/*.toml`, whose templated writes are applied atomically through the write service,
 * with the lifecycle convention of spec §3.
 *
 * @example
 * ```ts
 * import { parseContractFile } from "./mod.ts";
 * const c = parseContractFile(
 *   'name = "Ping"\n[[write]]\ntarget_asset = "t"\nrecord = { name = "x" }\n',
 *   "contracts/ping.toml",
 *   "data",
 * );
 * console.log(c.name); // "Ping"
 * ```
 *
 * @module
 */
export { parseContractFile } from "./parse.ts";
export { parseInputDeclaration, validateInputs } from "./inputs.ts";
export { type ContractCatalog, ContractLoader } from "./load.ts";
export { callContract, type ContractCallDeps, type ContractCallResult } from "./execute.ts";
export { applyWrite, type WriteOutcome, type WriteResult } from "./apply.ts";
export { renderContract, type RenderedRequire, type RenderedWrite } from "./render.ts";
export {
  effectiveState,
  isExpired,
  LIFECYCLE_STATES,
  type LifecycleState,
  predecessors,
  TERMINAL_STATES,
} from "./lifecycle.ts";
export * from "./types.ts";
