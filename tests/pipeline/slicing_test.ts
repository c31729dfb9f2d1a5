/**
 * Sliced builds (issue 15 item 1): `buildGraphSliced` runs the very steps `buildGraph` runs, only
 * pausing between them, so both drivers must give identical graphs, issues and artifacts (O7
 * phase order, O12 outcomes). The sliced driver runs with a 0 ms slice: it pauses at every
 * yield point, the harshest interleaving.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { buildGraph, buildGraphSliced, type BuildResult } from "../../lib/pipeline/build.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import type { JsonValue } from "../../lib/graph/graph.ts";
import { runSteps, runStepsSliced, type Steps } from "../../lib/pipeline/slicing.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { loadSourceSet, type SourceSet } from "../../lib/workspace/sources.ts";
import { generateHostsAndNetworks, generateWorkspace } from "../../bench/generate.ts";
import { corpusEntries, loadCorpus, SKIP_CORPUS } from "../corpus/_corpus.ts";

const options = {
  // `now()` pinned: the two builds of one comparison run at different instants.
  createTemplates: (params: Readonly<Record<string, JsonValue>>) =>
    createTemplateRenderer(params, { clock: () => new Date(0) }),
  phases: defaultPhases,
};

/** Everything observable of a build, as JSON (timings excluded: they are wall-clock). */
function observable(result: BuildResult): unknown {
  const { timings: _timings, ...stats } = result.stats;
  return JSON.parse(JSON.stringify({
    ok: result.ok,
    outcome: result.outcome,
    graph: result.graph.toJSON(),
    issues: result.issues,
    artifacts: result.artifacts,
    params: result.params,
    assets: result.assets,
    stats,
  }));
}

async function assertSameBothWays(sources: SourceSet): Promise<BuildResult> {
  const sync = buildGraph(sources, options);
  const sliced = await buildGraphSliced(sources, { ...options, sliceMs: 0 });
  assert(sliced.graph.sealed, "the sliced build's graph is sealed");
  assertEquals(observable(sliced), observable(sync));
  return sync;
}

/** A generated workspace exercising every phase (models, compliance, outputs) per origin. */
function ruleWorkspace(origins: number): Record<string, string> {
  return {
    ...generateHostsAndNetworks(origins, "net"),
    "models/hosts.toml": `origin_resource = "host"

[[create_resource]]
resource_type = "vm"
name = "{{ origin_resource.name }}-vm"
relation_type = "RUNS_ON"
[create_resource.properties]
env = "{{ origin_resource.env | upper }}"
port = "{{ origin_resource.port }}"
seq = "{{ counter(key='vm') }}"

[[link_resources]]
with = "network"
join = { local = "net", remote = "name" }
create_relation = { type = "CONNECTED_TO" }
copy_properties = [ { from = "cidr", as = "net_cidr" } ]

[[copy_property]]
to = "vm"
properties = [ "net_cidr", { from = "env", as = "environment" } ]

[[create_resource]]
match_on = [ { property = "name", regexp = "^host-[0-3]$" } ]
resource_type = "broken"
name = "{{ origin_resource.missing_property | upper }}"
`,
    "compliance/policy.toml": `audit_id = "GEN-1"

[[control]]
id = "PROD-01"
name = "Production hosts are tagged"

[[control.target]]
origin_resource_type = "host"
match_on = [ { property = "env", value = "prod" } ]
[control.target.resource.properties]
tier = "gold"

[[control]]
id = "NET-02"
name = "Every vm gets a finding"

[[control.target]]
origin_resource_type = "vm"
[control.target.resource]
type = "policy_violation"
`,
    "output/cfg.toml": `origin_resource = "host"
[[output]]
resource_type = "host_config"
name = "cfg-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.json"
mimetype = "application/json"
template = '''
{ "host": {{ origin_resource.name | json_encode | safe }}, "tier": "{{ origin_resource.tier | default(value='none') }}" }
'''

[[output]]
resource_type = "host_script"
name = "script-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.sh"
mimetype = "text/x-shellscript"
jsonnet = '''
local h = std.extVar("origin_resource");
std.format("echo %s %s", [h.name, h.net_cidr])
'''
`,
  };
}

Deno.test("issue 15: sliced and synchronous builds agree on generated asset workspaces (O7)", async () => {
  for (const [resources, types] of [[0, 3], [1, 3], [300, 3], [5_000, 10]]) {
    const sources = await loadSourceSet(new MemoryWorkspace(generateWorkspace(resources, types)));
    const result = await assertSameBothWays(sources);
    assertEquals(result.stats.resources, resources);
  }
});

Deno.test("issue 15: sliced and synchronous builds agree with every rule phase, rule errors included (O12)", async () => {
  const sources = await loadSourceSet(new MemoryWorkspace(ruleWorkspace(700)));
  const result = await assertSameBothWays(sources);
  assertEquals(result.outcome, "degraded"); // the `broken` rule fails for 4 origins
  assert(result.artifacts.length >= 1400, `artifacts: ${result.artifacts.length}`);
  assert(result.graph.resourcesOf("policy_violation").length === 700);
  assert(result.graph.getResource("vm", "host-3-vm")?.properties.net_cidr === "10.3.0.0/16");
});

Deno.test({
  name: "issue 15: sliced and synchronous builds agree on every corpus module",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const entries = corpusEntries();
    assert(entries.length > 0);
    for (const { name } of entries) {
      const sources = await loadCorpus(name);
      try {
        await assertSameBothWays(sources);
      } catch (e) {
        throw new Error(`corpus ${name}: ${e instanceof Error ? e.message : e}`);
      }
    }
  },
});

function* counted(n: number, log: string[]): Steps<number> {
  try {
    for (let i = 0; i < n; i++) yield;
    return n;
  } finally {
    log.push("closed");
  }
}

// Steps that take ~60 ms of CPU in total, each short.
function* busy(): Steps<number> {
  let s = 0;
  const end = performance.now() + 60;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) s += i;
    yield;
  }
  return s;
}

Deno.test("issue 15: the sliced driver gives the event loop turns between slices", async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    const value = await runStepsSliced(busy(), { sliceMs: 2 });
    assert(value > 0);
    assert(ticks > 0, "timers ran while the sliced steps ran");
  } finally {
    clearInterval(timer);
  }
  assertEquals(runSteps(counted(5, [])), 5);
  assertEquals(runSteps(42), 42);
  assertEquals(await runStepsSliced(42), 42);
});

Deno.test("issue 15: an aborted sliced run rejects with the reason and closes the steps", async () => {
  const log: string[] = [];
  const controller = new AbortController();
  const run = runStepsSliced(counted(1_000_000, log), { sliceMs: 0, signal: controller.signal });
  controller.abort(new Error("stop"));
  assertEquals((await assertRejects(() => run, Error)).message, "stop");
  assertEquals(log, ["closed"]);
  const sources = await loadSourceSet(new MemoryWorkspace(generateWorkspace(10, 1)));
  const early = await assertRejects(
    () => buildGraphSliced(sources, { ...options, signal: AbortSignal.abort(new Error("early")) }),
    Error,
  );
  assertEquals(early.message, "early");
});
