/**
 * The build part of a one-row change (issue 15): the engine builds after a write that named its
 * file and handed over the text it wrote — the path the write API takes — without HTTP, fsync or
 * GraphQL, against a cold full build of the same workspace in the same run. Two workspaces per
 * size: hosts and networks without rule files, and the same with {@link HOST_RULE_FILES} (rules
 * that read `env` and `cidr`); each change sets the `port` of one host (no rule reads it, so both
 * builds are derived from the previous graph).
 *
 * Usage: deno run -A bench/row_build_bench.ts [sizes…] [--changes=N] (defaults: 10000 100000,
 * 40 changes). Prints a markdown table.
 *
 * @module
 */
import { generateHostsAndNetworks, HOST_RULE_FILES } from "./generate.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { GraphEngine } from "../lib/engine.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";

const sizes = Deno.args.filter((a) => !a.startsWith("--")).map(Number);
if (sizes.length === 0) sizes.push(10_000, 100_000);
const changes = Number(
  /^--changes=(\d+)$/.exec(Deno.args.find((a) => a.startsWith("--changes=")) ?? "")?.[1] ?? 40,
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

async function measure(size: number, rules: boolean) {
  const hosts = size - 50;
  const files = {
    ...generateHostsAndNetworks(hosts, "network"),
    ...(rules ? HOST_RULE_FILES : {}),
  };
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const c0 = performance.now();
  await engine.rebuild();
  const coldMs = performance.now() - c0;
  const lines = files["assets/host.csv"].split("\n");
  const times: number[] = [];
  let mode = "";
  engine.subscribe((e) => {
    if (e.kind === "line" && e.text.includes(" build (")) mode = e.text.replace(/^build \d+: /, "");
  });
  for (let i = 0; i < changes; i++) {
    const row = 1 + ((i * 7_919) % hosts);
    const cells = lines[row].split(",");
    cells[2] = String(40_000 + i);
    lines[row] = cells.join(",");
    const text = lines.join("\n");
    await workspace.writeTextAtomic("assets/host.csv", text);
    const t0 = performance.now();
    await engine.waitFor(
      engine.requestRebuild({
        changed: ["assets/host.csv"],
        written: new Map([["assets/host.csv", text]]),
      }),
    );
    times.push(performance.now() - t0);
  }
  return { resources: engine.current.stats.resources, coldMs, times, mode };
}

console.log(
  "| resources | rule files | cold build ms | one-row build p50 / p95 ms | ratio p50 | mode of the last build |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const size of sizes) {
  for (const rules of [false, true]) {
    const r = await measure(size, rules);
    console.log(
      `| ${r.resources} | ${rules ? "yes" : "no"} | ${r.coldMs.toFixed(0)} | ${
        median(r.times).toFixed(2)
      } / ${p95(r.times).toFixed(2)} | ${(median(r.times) / r.coldMs).toFixed(3)}× | ${r.mode} |`,
    );
  }
}
