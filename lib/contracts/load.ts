/**
 * Loading of every contract (reference AC40): `contracts/*.toml` of each module (rooted at
 * `data/` when the module keeps its files there, MP2) and of the data directory. Names are unique
 * across modules (AC41). Files are read per call and parsed again only when their text changed;
 * a broken file is reported with its location and leaves the other contracts usable.
 *
 * @module
 */
import { ParseError } from "../formats/errors.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { layerPrefix, type LayerSource, layerTomlFiles } from "../workspace/sources.ts";
import { parseContractFile } from "./parse.ts";
import type { Contract } from "./types.ts";

/** A source of contracts: one layer's workspace. */
interface ContractFile {
  module: string;
  display: string;
  text: string;
}

/** What one load found: the usable contracts and the files that could not be used. */
export interface ContractCatalog {
  /** Contracts that parse, modules first then the data directory. */
  contracts: Contract[];
  /** One located error per file that does not parse or repeats a name (AC40, AC41). */
  errors: ParseError[];
}

/**
 * Reads and parses contracts, caching the parse of unchanged files. A file that does not parse
 * (or repeats a name already taken) is left out and reported; the others stay usable (AC40).
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { ContractLoader } from "./load.ts";
 * const ws = new MemoryWorkspace({
 *   "contracts/a.toml": 'name = "A"\n[[write]]\ntarget_asset = "t"\nrecord = { name = "x" }\n',
 *   "contracts/b.toml": 'name = "B"\n',
 * });
 * const { contracts, errors } = await new ContractLoader(ws).loadAll();
 * console.log(contracts.map((c) => c.name), errors[0].file); // ["A"] "contracts/b.toml"
 * ```
 */
export class ContractLoader {
  #cache = new Map<string, { text: string; result: Contract | ParseError }>();

  /**
   * Creates a loader.
   * @param dataDir the data directory
   * @param modules the module layers in load order
   */
  constructor(readonly dataDir: Workspace, readonly modules: readonly LayerSource[] = []) {}

  /**
   * Every usable contract and every file's error, modules first then the data directory, whose
   * contracts carry the module id `dataId` (MP7: the slug of its name; `data` when unnamed).
   */
  async loadAll(dataId = "data"): Promise<ContractCatalog> {
    const files: ContractFile[] = [];
    for (const m of this.modules) files.push(...await readLayer(m.workspace, m.id, false));
    files.push(...await readLayer(this.dataDir, dataId, true));
    const contracts: Contract[] = [];
    const errors: ParseError[] = [];
    const byName = new Map<string, Contract>();
    const seen = new Set<string>();
    for (const f of files) {
      const cacheKey = `${f.module}\0${f.display}`;
      seen.add(cacheKey);
      const cached = this.#cache.get(cacheKey);
      let result: Contract | ParseError;
      if (cached && cached.text === f.text) result = cached.result;
      else {
        try {
          result = parseContractFile(f.text, f.display, f.module);
        } catch (e) {
          if (!(e instanceof ParseError)) throw e;
          result = e;
        }
        this.#cache.set(cacheKey, { text: f.text, result });
      }
      if (result instanceof ParseError) {
        errors.push(result);
        continue;
      }
      const other = byName.get(result.name);
      if (other) {
        errors.push(
          new ParseError(
            `contract '${result.name}' is also defined in ${other.file} (names are unique across modules); this file is ignored`,
            result.file,
            1,
            1,
            "contract_duplicate",
          ),
        );
        continue;
      }
      byName.set(result.name, result);
      contracts.push(result);
    }
    for (const key of [...this.#cache.keys()]) if (!seen.has(key)) this.#cache.delete(key);
    return { contracts, errors };
  }

  /** Every usable contract, modules first then the data directory (see {@link loadAll}). */
  async load(): Promise<Contract[]> {
    return (await this.loadAll()).contracts;
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
  const prefix = await layerPrefix(workspace, isDataDir);
  return (await layerTomlFiles(workspace, "contracts", prefix)).map(({ path, text }) => ({
    module: id,
    display: isDataDir ? path : `${id}/${path}`,
    text,
  }));
}
