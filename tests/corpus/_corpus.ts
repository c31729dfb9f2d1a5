/**
 * Locating the real modules of ../shared/corpus and loading them as the corpus README says:
 * project layout (`<corpus>/data` is the data dir) or module layout (loaded with `--module` on
 * top of an empty data dir).
 */
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet, type SourceSet } from "../../lib/workspace/sources.ts";

/** Absolute path of ../shared/corpus, or undefined when it is not beside the checkout. */
export const CORPUS_DIR: string | undefined = (() => {
  const dir = new URL("../../../shared/corpus/", import.meta.url).pathname;
  try {
    return Deno.statSync(dir).isDirectory ? dir : undefined;
  } catch {
    return undefined;
  }
})();

/** Corpus tests are skipped without ../shared, but must run in CI. */
export const SKIP_CORPUS = CORPUS_DIR === undefined && Deno.env.get("CI") !== "true";

/** Every corpus entry with a data directory or module to load. */
export function corpusEntries(): { name: string; layout: "project" | "module" }[] {
  if (!CORPUS_DIR) return [];
  const out: { name: string; layout: "project" | "module" }[] = [];
  for (const e of [...Deno.readDirSync(CORPUS_DIR)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!e.isDirectory) continue;
    const has = (p: string) => {
      try {
        Deno.statSync(`${CORPUS_DIR}${e.name}/${p}`);
        return true;
      } catch {
        return false;
      }
    };
    if (has("data")) out.push({ name: e.name, layout: "project" });
    else if (has("module.toml")) out.push({ name: e.name, layout: "module" });
  }
  return out;
}

/** Loads one corpus entry into memory. */
export function loadCorpus(name: string): Promise<SourceSet> {
  if (!CORPUS_DIR) throw new Error("../shared/corpus is not available");
  const root = `${CORPUS_DIR}${name}`;
  try {
    Deno.statSync(`${root}/data`);
    return loadSourceSet(new DenoFsWorkspace(`${root}/data`));
  } catch {
    return loadSourceSet(new MemoryWorkspace({}), [{
      id: name,
      workspace: new DenoFsWorkspace(root),
    }]);
  }
}
