/**
 * Issue 25's corpus row: every single-cell edit of the first row of every asset CSV of the
 * corpus data directories (`tests/pipeline/_cell_edits.ts`), built incrementally from the
 * unedited build; per module, how many edits built incrementally (any mode but `full`) and the
 * median time against a full build of the same sources in the same run, and, over the `rules`
 * builds, how many model (rule, origin) pairs were evaluated of all. The corpus test
 * `incremental_corpus_cells_test.ts` checks that every such build equals a full one.
 *
 * Usage: deno run -A bench/corpus_edit_bench.ts [module…] (default: every project-layout
 * module of ../shared/corpus).
 *
 * @module
 */
import { buildGraph } from "../lib/pipeline/build.ts";
import { IncrementalBuilder } from "../lib/pipeline/incremental/builder.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { corpusEntries, loadCorpus } from "../tests/corpus/_corpus.ts";
import { firstRowEdits } from "../tests/pipeline/_cell_edits.ts";

const OPTIONS = {
  createTemplates: (params: Parameters<typeof createTemplateRenderer>[0]) =>
    createTemplateRenderer(params, { clock: () => new Date("2026-01-02T03:04:05Z"), seed: 7 }),
  phases: defaultPhases,
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const wanted = Deno.args.length > 0 ? new Set(Deno.args) : undefined;
const rows: string[] = [];
let edits = 0;
let incremental = 0;
const whyFull = new Map<string, number>();
for (const { name } of corpusEntries().filter((e) => e.layout === "project")) {
  if (wanted && !wanted.has(name)) continue;
  const base = await loadCorpus(name);
  const builder = new IncrementalBuilder();
  builder.build(base, OPTIONS);
  const modes = new Map<string, number>();
  const inc: number[] = [];
  const full: number[] = [];
  // Model (rule, origin) pairs evaluated and in all, over the module's `rules` builds.
  let evaluated = 0;
  let pairs = 0;
  for (const edit of firstRowEdits(base)) {
    let t = performance.now();
    const build = builder.build(edit.sources, OPTIONS);
    inc.push(performance.now() - t);
    t = performance.now();
    buildGraph(edit.sources, OPTIONS);
    full.push(performance.now() - t);
    modes.set(build.mode, (modes.get(build.mode) ?? 0) + 1);
    const counted = /: (\d+) of (\d+) model \(rule, origin\) pair/.exec(build.reason);
    if (counted) {
      evaluated += Number(counted[1]);
      pairs += Number(counted[2]);
    }
    if (build.mode === "full") {
      const why = build.reason.replace(/^.*?: /, "").replace(/'[^']*'/g, "'…'").slice(0, 90);
      whyFull.set(why, (whyFull.get(why) ?? 0) + 1);
    }
    builder.build(base, OPTIONS);
  }
  const n = inc.length;
  const notFull = n - (modes.get("full") ?? 0);
  edits += n;
  incremental += notFull;
  rows.push(
    `| ${name} | ${n} | ${notFull} (${[...modes].map(([m, c]) => `${m} ${c}`).join(", ")}) | ${
      pairs === 0 ? "–" : `${evaluated} of ${pairs} (${(100 * evaluated / pairs).toFixed(0)} %)`
    } | ${median(inc).toFixed(1)} | ${median(full).toFixed(1)} | ${
      (median(inc) / Math.max(median(full), 0.001)).toFixed(2)
    }× |`,
  );
}
console.log(
  "| module | edits | incremental (modes) | model pairs evaluated | median ms | full build ms | ÷ full |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of rows) console.log(r);
console.log(
  `\n${incremental} of ${edits} edits incremental (${
    (100 * incremental / Math.max(edits, 1)).toFixed(0)
  } %, goal ≥ 90 %)`,
);
for (const [why, n] of [...whyFull].sort((a, b) => b[1] - a[1])) console.log(`full ×${n}: ${why}`);
