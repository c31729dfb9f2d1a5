// GraphQL layer benchmark: schema build time and typical query latency at 1k/10k/100k resources.
//
//   deno run bench/graphql_bench.ts            (no permissions needed)
//
// Graph shape: 10 resource types, 7 properties per resource (strings, ints, a boolean, a string
// list, a nested object), one relation from every resource to a resource of the next type.
import { Graph } from "../lib/graph/graph.ts";
import { buildGraphQLSchema } from "../lib/api/graphql/schema.ts";
import { executeGraphQL } from "../lib/api/graphql/execute.ts";

const TYPES = 10;

function makeGraph(total: number): Graph {
  const g = new Graph();
  const perType = Math.ceil(total / TYPES);
  const byType: ReturnType<Graph["upsertResource"]>[][] = [];
  for (let t = 0; t < TYPES; t++) {
    const list = [];
    for (let i = 0; i < perType && t * perType + i < total; i++) {
      list.push(g.upsertResource(`t${t}`, `t${t}-${String(i).padStart(6, "0")}`, {
        env: i % 3 === 0 ? "prod" : "dev",
        port: 1000 + (i % 500),
        enabled: i % 2 === 0,
        owner: `team-${i % 17}`,
        tags: ["a", `tag-${i % 5}`],
        meta: { rack: i % 40, zone: `z${i % 3}` },
        ratio: i / 7,
      }));
    }
    byType.push(list);
  }
  for (let t = 0; t < TYPES; t++) {
    const next = byType[(t + 1) % TYPES];
    byType[t].forEach((r, i) => {
      if (next.length > 0) g.upsertRelation(r, `LINKS_${t}`, next[i % next.length], { w: i % 9 });
    });
  }
  g.seal();
  return g;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn: () => unknown | Promise<unknown>, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

const QUERIES: Record<string, string> = {
  "lookup by name + relation": `{ t3(filter: { name: { eq: "t3-000042" } }) {
      name env port tags meta LINKS_3 { node { name owner } properties { relation w } } t2 { node { name } } } }`,
  "filtered list (1/3 of a type)":
    `{ t5(filter: { env: "prod", port: { lt: 1250 } }) { name owner enabled } }`,
  "counts": `{ countNodes countEdges countResourceTypes countRelationTypes countNodeProperties }`,
};

const rows: string[][] = [];
for (const size of [1_000, 10_000, 100_000]) {
  const graph = makeGraph(size);
  buildGraphQLSchema(graph); // warm-up (JIT)
  const build = await time(() => buildGraphQLSchema(graph), size >= 100_000 ? 5 : 11);
  const schema = buildGraphQLSchema(graph);
  const row = [size.toLocaleString("en-US"), build.toFixed(1)];
  for (const query of Object.values(QUERIES)) {
    const fresh = buildGraphQLSchema(graph);
    const t0 = performance.now();
    const cold = await executeGraphQL(fresh, graph, { query });
    const coldMs = performance.now() - t0;
    if (cold.errors) throw new Error(JSON.stringify(cold.errors));
    const warm = await time(() => executeGraphQL(schema, graph, { query }), 21);
    row.push(`${coldMs.toFixed(2)} / ${warm.toFixed(2)}`);
  }
  rows.push(row);
}

const header = [
  "resources",
  "schema build ms",
  ...Object.keys(QUERIES).map((q) => `${q} ms (cold / warm)`),
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) =>
  "| " + cells.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
console.log(line(header));
console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
for (const r of rows) console.log(line(r));
console.log(
  `\n${TYPES} types, 8 properties per resource, 1 relation per resource; median of runs;`,
);
console.log(
  "cold = first query on a fresh schema (builds the per-type sorted list), warm = median.",
);
