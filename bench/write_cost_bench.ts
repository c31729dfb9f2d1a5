/**
 * Issue 25's table: what a write costs against a cold build of the same workspace in the same
 * run, through the service (in-process `createApp(engine).fetch` over a `DenoFsWorkspace` in a
 * temp dir), each write followed by a GraphQL read with `Graphsvc-Min-Generation` that must show
 * it:
 *
 * - `add`: `POST /api/mutations/t3` adds one row to a relation-heavy workspace without rules
 *   (`generateWorkspace`: 10 types, each row a single and a quoted two-name relation cell);
 * - `env`: `PUT /api/mutations/host/<name>` changes `env` in a workspace whose rules read it
 *   (a model creating an `envgroup/<env>` relation and a `profile` per host from `env`/`tier`, a
 *   `copy_property` onto the profile, one text output per host).
 *
 * - `addrule`: `POST /api/mutations/host` adds one host to the `env` row's rule workspace (its
 *   profile must be visible);
 * - `dns`: the corpus module public_dns (when ../shared is beside the checkout): one record's
 *   address changes in its CSV and a rebuild names the file; the zone file must show it.
 *
 * Usage: deno run -A bench/write_cost_bench.ts [size] [--samples=N] [--warmup=N]
 * [--only=add|env|addrule|dns] [--timer-turns] (defaults: 100000, 20 samples, no warm-up: the
 * samples are the first writes after the cold build; `--warmup=N` makes N writes before them, for
 * the steady state). The engine gives the event loop Deno's quick turns between build slices while
 * no request is about, as the CLI's does; `--timer-turns` makes every turn a `setTimeout(0)` one
 * (the engine without `quickTurn`), for a before/after. Prints a markdown table and the mode of
 * the last build.
 *
 * @module
 */
import { generateWorkspace } from "./generate.ts";
import { DenoFsWorkspace } from "../lib/workspace/deno_fs.ts";
import { GraphEngine } from "../lib/engine.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { defaultPhases } from "../lib/pipeline/phases.ts";
import { createApp, type GraphsvcApp } from "../lib/api/app.ts";
import { denoQuickTurn } from "../lib/runtime/deno/event_loop_turn.ts";

const flags = new Map<string, string>();
const sizes: number[] = [];
for (const arg of Deno.args) {
  const m = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
  if (m) flags.set(m[1], m[2] ?? "");
  else sizes.push(Number(arg));
}
const SIZE = sizes[0] ?? 100_000;
const SAMPLES = Number(flags.get("samples") ?? 20);
// Writes made and not timed before the samples: the first writes after a cold build run while
// the JIT still tiers up the code they use (~17 writes for a 100k splice), later ones do not.
const WARMUP = Number(flags.get("warmup") ?? 0);
const ONLY = flags.get("only");
const QUICK_TURN = flags.has("timer-turns") ? undefined : denoQuickTurn;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** Hosts with env/tier, the rule files of the `env` row. */
function ruleWorkspace(hosts: number): Record<string, string> {
  const lines = ["name,env,tier,port"];
  for (let i = 0; i < hosts; i++) lines.push(`host-${i},e${i % 7},tier-${i % 3},${8000 + i % 100}`);
  const envs = ["name,zone"];
  for (let i = 0; i < 7; i++) envs.push(`e${i},z${i % 2}`);
  return {
    "assets/host.csv": lines.join("\n") + "\n",
    "assets/envgroup.csv": envs.join("\n") + "\n",
    "models/profile.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "profile"
name = "profile-{{ origin_resource.name }}"
relation_type = "HAS_PROFILE"
[create_resource.properties]
label = "{{ origin_resource.env }}/{{ origin_resource.tier }}"

[[link_resources]]
with = "envgroup"
join = { local = "env", remote = "name" }
create_relation = { type = "IN_ENV" }
`,
    "models/copy.toml": `origin_resource = "host"
[[copy_property]]
to = "profile"
properties = [ "tier", { from = "env", as = "env_copy" } ]
`,
    "output/host.toml": `origin_resource = "host"
[[output]]
resource_type = "host_card"
name = "card-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.txt"
mimetype = "text/plain"
template = "{{ origin_resource.name }} {{ origin_resource.env }} {{ origin_resource.tier }}"
`,
  };
}

async function write(app: GraphsvcApp, method: string, path: string, body: unknown) {
  const res = await app.fetch(
    new Request(`http://bench${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  const json = await res.json();
  if (res.status >= 300 || json.success !== true) {
    throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  }
  return json.generation as number;
}

async function read(app: GraphsvcApp, query: string, generation: number) {
  const res = await app.fetch(
    new Request("http://bench/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "Graphsvc-Min-Generation": String(generation),
      },
      body: JSON.stringify({ query }),
    }),
  );
  const body = await res.json();
  if (res.status !== 200 || body.errors) {
    throw new Error(`read → ${res.status} ${JSON.stringify(body.errors ?? body)}`);
  }
  return body.data;
}

interface Row {
  write: string;
  coldMs: number;
  times: number[];
  mode: string;
}

async function measure(
  label: string,
  files: Record<string, string>,
  change: (app: GraphsvcApp, i: number, at: { engine: GraphEngine; dir: string }) => Promise<void>,
): Promise<Row> {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-write-cost-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(dir),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
      quickTurn: QUICK_TURN,
    });
    const t0 = performance.now();
    await engine.rebuild();
    const coldMs = performance.now() - t0;
    if (engine.status?.status !== "ok") throw new Error(`build failed: ${engine.status?.error}`);
    let mode = "";
    engine.subscribe((e) => {
      if (e.kind === "line" && e.text.includes(" build (")) {
        mode = e.text.replace(/^build \d+: /, "");
      }
    });
    const app = createApp(engine);
    await change(app, -1, { engine, dir }); // the first write also builds the GraphQL schema once
    for (let i = 0; i < WARMUP; i++) await change(app, SAMPLES + i, { engine, dir });
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      await change(app, i, { engine, dir });
      times.push(performance.now() - start);
    }
    // Each sample in order: the first writes after the cold build run while the JIT tiers up.
    console.error(`${label}: samples in order, ms: ${times.map((t) => t.toFixed(0)).join(" ")}`);
    return { write: label, coldMs, times, mode };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const rows: Row[] = [];
if (ONLY === undefined || ONLY === "add") {
  rows.push(
    await measure(
      `add one row (POST), ${SIZE} resources, relation-heavy, no rules`,
      generateWorkspace(SIZE, 10),
      async (app, i) => {
        const name = `new-${i + 1}`;
        const generation = await write(app, "POST", "/api/mutations/t3", {
          name,
          env: "prod",
          tier: "tier-1",
          owner: "team-2",
          size: String(i + 1),
          t4: `t4-${i + 1}`,
          t5: `t5-${i + 2}, t5-${i + 3}`,
        });
        const data = await read(
          app,
          `{ t3(filter: { name: { eq: "${name}" } }) { name t4 { node { name } } } }`,
          generation,
        );
        if (data.t3[0]?.name !== name) throw new Error(`${name} not visible`);
      },
    ),
  );
}
if (ONLY === undefined || ONLY === "env") {
  const hosts = Math.round(SIZE / 3);
  rows.push(
    await measure(
      `change env (PUT) that rules read, ${hosts} hosts (≈${SIZE} resources)`,
      ruleWorkspace(hosts),
      async (app, i) => {
        const k = i + 1;
        const name = `host-${(k * 7_919) % hosts}`;
        const env = `e${(k * 3) % 7}`;
        const generation = await write(app, "PUT", `/api/mutations/host/${name}`, { env });
        const data = await read(
          app,
          `{ host(filter: { name: { eq: "${name}" } }) { env } }`,
          generation,
        );
        if (data.host[0]?.env !== env) throw new Error(`${name}.env=${env} not visible`);
      },
    ),
  );
}
if (ONLY === undefined || ONLY === "addrule") {
  const hosts = Math.round(SIZE / 3);
  rows.push(
    await measure(
      `add one host (POST) in the rule workspace, ${hosts} hosts (≈${SIZE} resources)`,
      ruleWorkspace(hosts),
      async (app, i) => {
        const name = `new-host-${i + 1}`;
        const env = `e${(i + 1) % 7}`;
        const generation = await write(app, "POST", "/api/mutations/host", {
          name,
          env,
          tier: "tier-1",
          port: "9000",
        });
        const data = await read(
          app,
          `{ profile(filter: { name: { eq: "profile-${name}" } }) { env_copy } }`,
          generation,
        );
        if (data.profile[0]?.env_copy !== env) throw new Error(`profile-${name} not visible`);
      },
    ),
  );
}

// A real module whose Jsonnet outputs cost most of its build (307 artifacts over 2,540
// resources): one DNS record's address changes in its CSV, and a rebuild names the file (what a
// Git sync or the reload webhook with paths does); the zone's outputs must show it.
const DNS = new URL("../../shared/corpus/public_dns/data", import.meta.url).pathname;
if ((ONLY === undefined || ONLY === "dns") && exists(DNS)) {
  const path = "assets/inventx/a.csv";
  rows.push(
    await measure(
      "public_dns: one record's address (CSV rewritten, rebuild naming it), 305 Jsonnet outputs",
      filesOf(DNS),
      async (_app, i, { engine, dir }) => {
        const text = await Deno.readTextFile(`${dir}/${path}`);
        const address = `149.126.4.${(i + 2) % 250}`;
        const edited = text.replace(/,149\.126\.4\.\d+,14400,/, `,${address},14400,`);
        await Deno.writeTextFile(`${dir}/${path}`, edited);
        await engine.waitFor(engine.requestRebuild({ changed: [path] }));
        const zone = engine.current.graph.getResource("zone_file", "zone_file_abrs.ch");
        const content = zone?.properties.content;
        if (typeof content !== "string" || !content.includes(address)) {
          throw new Error(`${address} not in the zone file of abrs.ch`);
        }
      },
    ),
  );
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Every file under `dir`, by path relative to it. */
function filesOf(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of Deno.readDirSync(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) Object.assign(out, filesOf(dir, rel));
    else if (e.isFile) out[rel] = Deno.readTextFileSync(`${dir}/${rel}`);
  }
  return out;
}

console.log(`load average: ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log(
  "| write | cold build ms | write→visible p50 / p95 ms | p95 ÷ cold (goal ≤ 0.1×) | mode |",
);
console.log("| --- | --- | --- | --- | --- |");
for (const r of rows) {
  const p50 = percentile(r.times, 50);
  const p95 = percentile(r.times, 95);
  console.log(
    `| ${r.write} | ${r.coldMs.toFixed(0)} | ${p50.toFixed(0)} / ${p95.toFixed(0)} | ${
      (p95 / r.coldMs).toFixed(2)
    }× | ${r.mode} |`,
  );
}
