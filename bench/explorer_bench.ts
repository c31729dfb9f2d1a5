// Explorer benchmark (issue 17): time to first render of the overview and of a resource page in
// headless Chromium, and the server-side search, on the synthetic graph (bench/generate.ts).
//
//   deno run -A bench/explorer_bench.ts [resources=100000]
//
// "First render" is from navigation start until the view's content is in the page (the route
// marker the explorer sets on <main> after rendering); cold = first visit after the build
// (includes the per-snapshot caches: relation counts, search index), warm = median of 5.
// Local addresses only; skipped (with a note) when Chromium is not installed.
import { GraphEngine } from "../lib/engine.ts";
import { MemoryWorkspace } from "../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { createApp } from "../lib/api/app.ts";
import { generateWorkspace } from "./generate.ts";
import { launch, missingBrowser } from "../tests/explorer/_browser.ts";
import type { Page } from "puppeteer-core";

const n = Number(Deno.args[0] ?? 100_000);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const t0 = performance.now();
const engine = new GraphEngine({
  workspace: new MemoryWorkspace(generateWorkspace(n, 10)),
  createTemplates: createTemplateRenderer,
  phases: defaultPhases,
});
await engine.rebuild();
const buildMs = performance.now() - t0;
const app = createApp(engine, { features: ["admin_assets"] });
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
const base = `http://127.0.0.1:${server.addr.port}`;

async function timeFetch(path: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}${path}`);
  await res.arrayBuffer();
  return performance.now() - t;
}

const searchCold = await timeFetch("/api/search?q=team-3&limit=50");
const searchWarm: number[] = [];
for (let i = 0; i < 9; i++) {
  searchWarm.push(await timeFetch(`/api/search?q=tier-${i % 5}&limit=50`));
}
const detail: number[] = [];
for (let i = 0; i < 9; i++) detail.push(await timeFetch(`/api/resources/t3/t3-${i * 97}`));

console.log(
  `graph: ${engine.current.graph.resourceCount} resources, ${engine.current.graph.relationCount} relations, built in ${
    buildMs.toFixed(0)
  } ms\n`,
);
console.log("| measurement | cold ms | warm median ms |");
console.log("| --- | --- | --- |");
console.log(
  `| GET /api/search (substring over names and values) | ${searchCold.toFixed(1)} | ${
    median(searchWarm).toFixed(1)
  } |`,
);
console.log(`| GET /api/resources/{type}/{name} | | ${median(detail).toFixed(1)} |`);

async function firstRender(page: Page, hash: string): Promise<number> {
  await page.goto("about:blank");
  const t = performance.now();
  await page.goto(`${base}/${hash}`, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(
    `document.getElementById("main")?.dataset.route === ${JSON.stringify(hash)}`,
    { timeout: 60_000 },
  );
  return performance.now() - t;
}

const missing = missingBrowser();
if (missing) {
  console.log(`\nbrowser measurements skipped: ${missing}`);
} else {
  const s = await launch();
  try {
    await s.page.setViewport({ width: 1280, height: 800 });
    for (const [label, hash] of [["overview", "#/"], ["resource page", "#/r/t3/t3-4242"]]) {
      const cold = await firstRender(s.page, hash);
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) warm.push(await firstRender(s.page, hash));
      console.log(
        `| first render: ${label} (Chromium, navigation to content) | ${cold.toFixed(0)} | ${
          median(warm).toFixed(0)
        } |`,
      );
    }
  } finally {
    await s.close();
  }
}
await server.shutdown();
