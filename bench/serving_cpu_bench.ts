/**
 * CPU per request of the serving path, in process (issue 26): `createApp(engine).fetch` on
 * testdata/example against a one-route Hono app answering the same `/healthz` (the framework's
 * floor) measured in the same run. Socket throughput on a shared 2-core machine drifts by ±25 %
 * (bench/serving_bench.ts); the time the app itself spends per request does not, so changes to
 * the middleware chain and the GraphQL handler are compared here.
 *
 * `deno run -A bench/serving_cpu_bench.ts [checkout]` (also part of `deno task bench`);
 * `checkout` measures another working copy's `mod.ts` (e.g. a `git worktree` of an older commit).
 *
 * @module
 */
import { Hono } from "hono";

const root = new URL("..", import.meta.url).pathname;
const checkout = Deno.args[0] ? `${Deno.args[0].replace(/\/$/, "")}/` : root;
const { createApp, createTemplateRenderer, defaultPhases, GraphEngine } = await import(
  `${checkout}mod.ts`
);
const { DenoFsWorkspace } = await import(`${checkout}lib/workspace/deno_fs.ts`);

const QUERY = "{ host { name cpu zone { node { name } } } }";
const HOST = "127.0.0.1:7600";
/**
 * The same selection with a used variable (an unused one is a validation error): a distinct value
 * each time is a distinct request, so each is executed from the cached document.
 */
const VARIABLE_QUERY =
  "query($x: String!) { host { name cpu zone { node { name } } } __type(name: $x) { name } }";
/** A variable inside the filter literal, as clients filter (compiled with the literal hoisted). */
const FILTER_QUERY =
  "query($n: String!) { host(filter: { name: { ne: $n } }) { name cpu zone { node { name } } } }";

const engine = new GraphEngine({
  workspace: new DenoFsWorkspace(`${checkout}testdata/example`),
  createTemplates: createTemplateRenderer,
  phases: defaultPhases,
});
await engine.rebuild();
// A server loads the query compiler in the background as its GraphQL handler is made (~60 ms);
// this loop of in-memory requests never turns the event loop, so it would never finish loading.
const compiler = await import(`${checkout}lib/api/graphql/compiled_queries.ts`).catch(() => ({}));
await compiler.loadQueryCompiler?.();
// As `serve` creates it: a request log line per request, the Host allow-list.
const app = createApp(engine, { log: () => {}, allowedHosts: () => [HOST] });
const floor = new Hono();
floor.get("/healthz", () => Response.json({ status: "ok" }));

/** Mean µs per request (answer read to the end), after a warm-up; best of three runs. */
async function perRequest(answer: () => Response | Promise<Response>): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const n = run === 0 ? 5_000 : 20_000;
    const started = performance.now();
    for (let i = 0; i < n; i++) await (await answer()).arrayBuffer();
    if (run > 0) best = Math.min(best, (performance.now() - started) * 1000 / n);
  }
  return best;
}

function post(body: unknown): Request {
  const text = JSON.stringify(body);
  return new Request(`http://${HOST}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(text.length) },
    body: text,
  });
}

for (
  const body of [
    { query: QUERY },
    { query: VARIABLE_QUERY, variables: { x: "[1]" } },
    { query: FILTER_QUERY, variables: { n: "none" } },
  ]
) {
  const check = await (await app.fetch(post(body))).json();
  if (check.errors || !check.data?.host?.length) throw new Error(JSON.stringify(check));
}

let id = 0;
const base = await perRequest(() => floor.fetch(new Request(`http://${HOST}/healthz`)));
const rows: [string, number][] = [
  ["`GET /healthz`", await perRequest(() => app.fetch(new Request(`http://${HOST}/healthz`)))],
  [
    "small query, `GET` (the same each time: cached answer)",
    await perRequest(() =>
      app.fetch(new Request(`http://${HOST}/graphql?query=${encodeURIComponent(QUERY)}`))
    ),
  ],
  [
    "small query, `POST` (the same each time: cached answer)",
    await perRequest(() => app.fetch(post({ query: QUERY }))),
  ],
  [
    "small query, `POST`, distinct variables (executed, cached document)",
    await perRequest(() =>
      app.fetch(post({
        query: VARIABLE_QUERY,
        variables: { x: `[${id++}]` },
      }))
    ),
  ],
  [
    "small query, `POST`, distinct variable inside the filter literal (executed, cached document)",
    await perRequest(() =>
      app.fetch(post({
        query: FILTER_QUERY,
        variables: { n: `none-${id++}` },
      }))
    ),
  ],
  [
    "small query, `POST`, distinct text (parsed, validated, executed)",
    await perRequest(() => app.fetch(post({ query: `${QUERY} # ${id++}` }))),
  ],
];
console.log(`in process, ${checkout}testdata/example, best of two runs of 20k requests\n`);
console.log("| request | µs per request | × one-route Hono |");
console.log("| --- | --- | --- |");
console.log(`| one-route Hono app, \`GET /healthz\` (floor) | ${base.toFixed(1)} | 1.00× |`);
for (const [name, us] of rows) {
  console.log(`| ${name} | ${us.toFixed(1)} | ${(us / base).toFixed(2)}× |`);
}
Deno.exit(0);
