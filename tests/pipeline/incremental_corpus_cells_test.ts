/**
 * Issue 25 §3 on real modules: every single-cell edit of the first row of every asset CSV of
 * the corpus data directories (one per column), built incrementally from the unedited build,
 * equals a full build of the edited sources — graph, issues, provenance and artifacts (`dump`).
 * `bench/corpus_edit_bench.ts` counts the modes and times of the same edits.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { IncrementalBuilder } from "../../lib/pipeline/incremental/builder.ts";
import { dump, OPTIONS } from "./_incremental.ts";
import { corpusEntries, loadCorpus, SKIP_CORPUS } from "../corpus/_corpus.ts";
import { firstRowEdits } from "./_cell_edits.ts";

for (const { name, layout } of corpusEntries().filter((e) => e.layout === "project")) {
  Deno.test({
    name:
      `corpus ${name} (${layout}): every first-row cell edit builds incrementally equal to a full build`,
    ignore: SKIP_CORPUS,
    fn: async () => {
      const base = await loadCorpus(name);
      const builder = new IncrementalBuilder();
      builder.build(base, OPTIONS);
      for (const edit of firstRowEdits(base)) {
        const inc = builder.build(edit.sources, OPTIONS);
        const full = buildGraph(edit.sources, OPTIONS);
        assertEquals(dump(inc.result), dump(full), `${edit.label} (${inc.mode}: ${inc.reason})`);
        builder.build(base, OPTIONS); // back to the unedited sources
      }
    },
  });
}
