/**
 * Loading of every contract (reference AC40): `contracts/*.toml` of each module (rooted at
 * `data/` when the module keeps its files there, MP2) and of the data directory. Names are unique
 * across modules (AC41). Files are read per call and parsed again only when their text changed.
 *
 * @module
 */
import { ParseError } from "../formats/errors.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { LayerSource } from "../workspace/sources.ts";
import { parseContractFile } from "./parse.ts";
import type { Contract } from "./types.ts";

/** A source of contracts: one layer's workspace. */
interface ContractFile {
  module: string;
  display: string;
  text: string;
}

/**
 * Reads and parses contracts, caching the parse of unchanged files.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { ContractLoader } from "./load.ts";
 * const ws = new MemoryWorkspace({
 *   "contracts/a.toml": 'name = "A"\n[[write]]\ntarget_asset = "t"\nrecord = { name = "x" }\n',
 * });
 * const contracts = await new ContractLoader(ws).load();
 * console.log(contracts.map((c) => c.name)); // ["A"]
 * ```
 */
export class ContractLoader {
  #cache = new Map<string, { text: string; contract: Contract }>();

  /**
   * Creates a loader.
   * @param dataDir the data directory
   * @param modules the module layers in load order
   */
  constructor(readonly dataDir: Workspace, readonly modules: readonly LayerSource[] = []) {}

  /** Every contract, modules first then the data directory; throws {@link ParseError}. */
  async load(): Promise<Contract[]> {
    const files: ContractFile[] = [];
    for (const m of this.modules) files.push(...await readLayer(m.workspace, m.id, false));
    files.push(...await readLayer(this.dataDir, "data", true));
    const out: Contract[] = [];
    const byName = new Map<string, Contract>();
    const seen = new Set<string>();
    for (const f of files) {
      const cacheKey = `${f.module}\0${f.display}`;
      seen.add(cacheKey);
      const cached = this.#cache.get(cacheKey);
      let contract: Contract;
      if (cached && cached.text === f.text) contract = cached.contract;
      else {
        contract = parseContractFile(f.text, f.display, f.module);
        this.#cache.set(cacheKey, { text: f.text, contract });
      }
      const other = byName.get(contract.name);
      if (other) {
        throw new ParseError(
          `contract '${contract.name}' is also defined in ${other.file} (names are unique across modules)`,
          contract.file,
          1,
          1,
          "contract_duplicate",
        );
      }
      byName.set(contract.name, contract);
      out.push(contract);
    }
    for (const key of [...this.#cache.keys()]) if (!seen.has(key)) this.#cache.delete(key);
    return out;
  }

  /** The contract called `name`, or `undefined`. */
  async find(name: string): Promise<Contract | undefined> {
    return (await this.load()).find((c) => c.name === name);
  }
}

async function readLayer(
  workspace: Workspace,
  id: string,
  isDataDir: boolean,
): Promise<ContractFile[]> {
  let prefix = "";
  if (!isDataDir && (await workspace.readText("module.toml")) === undefined) {
    if ((await workspace.readText("data/module.toml")) !== undefined) prefix = "data/";
  }
  const out: ContractFile[] = [];
  for (const path of await workspace.listFiles(`${prefix}contracts`)) {
    if (!path.endsWith(".toml")) continue;
    const text = await workspace.readText(path);
    if (text === undefined) continue;
    const rel = path.slice(prefix.length);
    out.push({ module: id, display: isDataDir ? rel : `${id}/${rel}`, text });
  }
  return out;
}
