// Actions benchmark (issue 13): expansion of one action template over N origin resources and
// bundle creation.
//  1. expansion (AC4, AC5): one template with `origin_resource = "host"` and a templated
//     `match_on` over N hosts built in memory (like bench/generate.ts's hosts: a third are prod):
//     time and retained heap of the concrete actions (heap figures need --expose-gc);
//  2. rendering (AC3): the templated `exec`, `[env]` and `[[file]]` of every matched action;
//  3. bundles (AC15–AC17, AC21): median time per `tar.gz` bundle through the action service, plain
//     and with two sealed vault secrets (libsodium sealed boxes to a runner key).
//
//   deno run -A --v8-flags=--expose-gc bench/actions_bench.ts [sizes…]   (default: 10000 100000)
//
// Prints a markdown table. Bounded: a fixed number of bundles per size.
import { Graph, type JsonValue } from "../lib/graph/graph.ts";
import { createTemplateRenderer } from "../lib/pipeline/templates.ts";
import { parseActionFile } from "../lib/actions/declarations.ts";
import { expandActions, renderAction } from "../lib/actions/expand.ts";
import { type ActionLayer, ActionService } from "../lib/actions/service.ts";
import { generateKeyPair } from "../lib/actions/seal.ts";

const BUNDLES = 200;

const ACTION = `name = "restart"
description = "Restart the app on a production host"
origin_resource = "host"
match_on = [{ property = "env", value = "{{ stage | lower }}" }]
exec = [
  ["sh", "-c", "./restart.sh --host {{ origin_resource.name }} --port {{ origin_resource.port }}"],
  ["sh", "-c", "echo {{ input.reason | default(value='maintenance') }} on {{ origin_resource.net }}"],
]
[[input]]
name = "reason"
[env]
HOST = "{{ origin_resource.name }}"
PORT = "{{ origin_resource.port }}"
NETWORK = "{{ origin_resource.net | upper }}"
STAGE = "{{ params.stage }}"
[[file]]
path = "host.txt"
template = "{{ origin_resource.name }}:{{ origin_resource.port }} in {{ origin_resource.net }}\\n"
`;
const SEALED = ACTION.replace('name = "restart"', 'name = "rotate"') +
  `[vault_secrets]
DB_PASSWORD = { collection = "db", secret = "password" }
API_TOKEN = { collection = "api", secret = "token" }
`;

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return Deno.memoryUsage().heapUsed;
};

function hosts(n: number): Graph {
  const g = new Graph();
  for (let i = 0; i < n; i++) {
    g.upsertResource("host", `host-${i}`, {
      env: i % 3 === 0 ? "prod" : "dev",
      port: 8000 + (i % 1000),
      net: `net-${i % 50}`,
    });
  }
  return g;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function bundleTimes(
  service: ActionService,
  names: string[],
  key: Uint8Array,
  sealedSecrets: number,
): Promise<{ medianMs: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (const name of names) {
    const t0 = performance.now();
    const b = await service.bundle("data", name, { reason: "bench" }, key);
    times.push(performance.now() - t0);
    bytes = b.bytes.length;
    if (b.secrets.length !== sealedSecrets) throw new Error(`${name}: ${b.secrets.length} sealed`);
  }
  return { medianMs: median(times), bytes };
}

async function measure(n: number) {
  const graph = hosts(n);
  const params: Record<string, JsonValue> = { stage: "PROD" };
  const templates = createTemplateRenderer(params);
  const scope = { graph, params, templates };
  const template = parseActionFile(ACTION, "actions/restart.toml", "data");
  expandActions([template], { ...scope, graph: hosts(100) }); // warm-up

  const before = heap();
  const t0 = performance.now();
  const actions = expandActions([template], scope);
  const expandMs = performance.now() - t0;
  const retained = heap() - before;

  const t1 = performance.now();
  for (const a of actions) renderAction(a, { reason: "bench" }, scope);
  const renderMs = performance.now() - t1;

  const secrets = new Map([["db/password", "correct horse battery"], ["api/token", "tok-123"]]);
  const service = new ActionService({
    secrets: { read: (c, s) => Promise.resolve(secrets.get(`${c}/${s}`)) },
  });
  const layer: ActionLayer = {
    id: "data",
    files: [
      { path: "actions/restart.toml", displayPath: "actions/restart.toml", text: ACTION },
      { path: "actions/rotate.toml", displayPath: "actions/rotate.toml", text: SEALED },
    ],
    readFile: () => Promise.resolve(undefined),
    runtimeFiles: () =>
      Promise.resolve([{ path: "restart.sh", bytes: new TextEncoder().encode("#!/bin/sh\n") }]),
  };
  await service.refresh([layer], { generation: 1, graph, params, artifacts: [], templates });
  const key = generateKeyPair().publicKey;
  const step = Math.max(1, Math.floor(actions.length / BUNDLES));
  const picked = actions.filter((_, i) => i % step === 0).slice(0, BUNDLES).map((a) => a.origin!);
  await bundleTimes(service, picked.slice(0, 10).map((o) => `restart-${o.name}`), key, 0); // warm-up
  const plain = await bundleTimes(service, picked.map((o) => `restart-${o.name}`), key, 0);
  const sealed = await bundleTimes(service, picked.map((o) => `rotate-${o.name}`), key, 2);
  await service.stopAll();
  return {
    n,
    matched: actions.length,
    expandMs,
    retainedMb: retained / 1e6,
    perAction: retained / Math.max(1, actions.length),
    renderMs,
    plain,
    sealed,
  };
}

const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [10_000, 100_000];
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error("usage: deno run -A --v8-flags=--expose-gc bench/actions_bench.ts [sizes…]");
  Deno.exit(2);
}
console.log(
  `One action template (templated match_on, exec, env, file) over N hosts; bundles: median of ` +
    `${BUNDLES}${gc ? "" : "; heap figures without --expose-gc are approximate"}.\n`,
);
console.log(
  "| origins | matched | expand ms | expand heap Δ MB | B/action | render exec+env+file, all ms | " +
    "bundle median ms | bundle + 2 sealed secrets median ms | bundle bytes |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const n of sizes) {
  const r = await measure(n);
  console.log(
    `| ${r.n} | ${r.matched} | ${r.expandMs.toFixed(0)} | ${r.retainedMb.toFixed(1)} | ` +
      `${r.perAction.toFixed(0)} | ${r.renderMs.toFixed(0)} | ${r.plain.medianMs.toFixed(2)} | ` +
      `${r.sealed.medianMs.toFixed(2)} | ${r.sealed.bytes} |`,
  );
}
