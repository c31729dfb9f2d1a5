/**
 * `deno task bench`: the foundation benchmark at 1k, 10k and 100k resources (each size in its own
 * process), then every other `*_bench.ts` in this folder.
 *
 * @module
 */
const here = new URL(".", import.meta.url).pathname;
const deno = Deno.execPath();

async function run(args: string[]): Promise<{ ok: boolean; out: string }> {
  const out = await new Deno.Command(deno, { args, stdout: "piped", stderr: "inherit" }).output();
  return { ok: out.success, out: new TextDecoder().decode(out.stdout) };
}

console.log("## load + build + GraphQL (synthetic workspaces, 10 types)\n");
console.log(
  "| resources | relations | build ms | build+first query ms | query median ms | p90 ms | peak RSS MB |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const n of [1_000, 10_000, 100_000]) {
  const { ok, out } = await run([
    "run",
    "-A",
    "--v8-flags=--max-old-space-size=4096",
    `${here}build_bench.ts`,
    String(n),
    "10",
  ]);
  if (!ok) {
    console.log(`| ${n} | failed | | | | | |`);
    continue;
  }
  const r = JSON.parse(out.trim().split("\n").pop()!);
  console.log(
    `| ${r.resources} | ${r.relations} | ${r.buildMs} | ${r.loadAndFirstQueryMs} | ${r.queryMedianMs} | ${r.queryP90Ms} | ${r.peakRssMb} |`,
  );
}

console.log("\n## memory and cold build (memory_bench.ts, one process per figure)\n");
console.log(
  "| resources | retained heap B/resource (goal ≤ 600) | raw rows B/resource | peak RSS across rebuilds / steady (goal ≤ 1.3×) | cold build / papaparse into Map (goal ≤ 1.5×) |",
);
console.log("| --- | --- | --- | --- | --- |");
for (const n of [10_000, 100_000]) {
  const figures: Record<string, Record<string, number>> = {};
  for (const mode of ["heap", "rss", "time"]) {
    const { ok, out } = await run([
      "run",
      "-A",
      "--v8-flags=--expose-gc", // otherwise V8's defaults, as the server runs
      `${here}memory_bench.ts`,
      String(n),
      mode,
    ]);
    figures[mode] = ok ? JSON.parse(out.trim().split("\n").pop()!) : {};
  }
  const { heap, rss, time } = figures;
  console.log(
    `| ${n} | ${heap.retainedBytesPerResource ?? "failed"} | ${
      heap.rawRowBytesPerResource ?? ""
    } | ${
      rss.ratio ?? "failed"
    }× (${rss.peakRssMb} MB vs ${rss.steadyRssMb} MB, ${rss.rebuilds} rebuilds) | ${
      time.ratio ?? "failed"
    }× (${time.buildMs} ms vs ${time.papaparseMs} ms; CPU time ${time.cpuRatio}×) |`,
  );
}

const others = [...Deno.readDirSync(here)]
  .map((e) => e.name)
  .filter((n) => n.endsWith("_bench.ts") && n !== "build_bench.ts" && n !== "memory_bench.ts")
  .sort();
for (const name of others) {
  console.log(`\n## ${name}\n`);
  const { ok, out } = await run(["run", "-A", `${here}${name}`]);
  console.log(ok ? out : `(failed)\n${out}`);
}
