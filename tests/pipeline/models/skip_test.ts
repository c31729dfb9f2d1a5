/**
 * Skipping unchanged rules in later passes (lib/pipeline/models/reads.ts): the read analysis,
 * cases where a naive analysis would skip wrongly, and a differential check over the corpus —
 * every module builds the same graph with and without skipping.
 */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { blockReads } from "../../../lib/pipeline/models/reads.ts";
import { compileModelBlock } from "../../../lib/pipeline/models/compile.ts";
import { compileHeader } from "../../../lib/pipeline/rules/header.ts";
import type { JsonValue } from "../../../lib/graph/graph.ts";
import { buildModels, buildSources, errors, get } from "./_support.ts";
import { corpusEntries, loadCorpus, SKIP_CORPUS } from "../../corpus/_corpus.ts";

function reads(
  origin: string | undefined,
  kind: string,
  body: Record<string, JsonValue>,
  header: Record<string, JsonValue> = {},
) {
  const rule = compileModelBlock({
    kind,
    index: 0,
    position: { line: 1, column: 1 },
    keys: new Map(),
    body,
  });
  const h = compileHeader(Object.entries(header).map(([key, value]) => ({ key, value })));
  const r = blockReads(origin, rule, h);
  return {
    impure: r.impure,
    reads: r.reads === "all"
      ? "all"
      : Object.fromEntries([...r.reads].map(([t, f]) => [t, [...f].sort()])),
  };
}

Deno.test("reads: single-key origin paths, conditions and create_from are field reads", () => {
  assertEquals(
    reads("host", "create_resource", {
      resource_type: "vm",
      name: "{{ origin_resource.name }}-vm",
      match_on: [{ property: "env", value: "{{ params_env }}" }],
      create_from: { property: "disks" },
      properties: { size: "{{ origin_resource.size__value | upper }}", n: 1 },
    }),
    { impure: false, reads: { host: ["@members", "disks", "env", "name", "size"] } },
  );
});

Deno.test("reads: link_resources reads both types' join keys and target_resource fields", () => {
  assertEquals(
    reads("host", "link_resources", {
      with: "network",
      join: { local: "net", remote: "name" },
      match_with: [{ expression: "target_resource.zone == origin_resource.zone" }],
      copy_properties: [{ from: "cidr", as: "net_cidr" }],
    }),
    {
      impure: false,
      reads: { host: ["@members", "net", "zone"], network: ["@members", "cidr", "name", "zone"] },
    },
  );
});

Deno.test("reads: traversal, whole-object use, dotted paths and pulls read everything", () => {
  const all = (origin: string, kind: string, body: Record<string, JsonValue>) =>
    equal(reads(origin, kind, body).reads, "all", JSON.stringify(body));
  all("host", "create_resource", {
    resource_type: "x",
    name: "{{ origin_resource.vm[0].name }}",
  });
  all("host", "create_resource", {
    resource_type: "x",
    name: "{{ origin_resource | json_encode }}",
  });
  all("host", "create_resource", {
    resource_type: "x",
    name: "{% set o = origin_resource %}{{ o.name }}",
  });
  all("host", "create_resource", {
    resource_type: "x",
    name: "n",
    match_on: [{ property: "vm.size", value: "l" }],
  });
  all("host", "copy_property", { from: "network.zone", properties: ["zone"] });
  // a header block evaluated per origin counts for every block of the chunk
  equal(
    reads("host", "create_resource", { resource_type: "x", name: "n" }, {
      h: { "template!": "{{ origin_resource.vm[0].name }}" },
    }).reads,
    "all",
  );
});

Deno.test("reads: counter() and get_random() make a block impure (never skipped)", () => {
  ok(
    reads("host", "create_resource", { resource_type: "x", name: "{{ counter(key='a') }}" }).impure,
  );
  ok(
    reads("host", "create_resource", {
      resource_type: "x",
      name: "n",
      properties: { r: "{{ get_random(end=9) }}" },
    }).impure,
  );
});

Deno.test("O11 skip: a rule reading through a relation re-runs when the related resource changes", async () => {
  // a.toml reads vm sizes through the host's relation list (key `vm`, also a single-key path);
  // b.toml sets the sizes. Document order runs a.toml first, so only a second pass that does
  // NOT skip a.toml sees the sizes.
  const files = {
    "assets/host.csv": "name\nh1\nh2\n",
    "models/a.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "report"
name = "{{ origin_resource.name }}"
[create_resource.properties]
sizes = "{% for v in origin_resource.vm %}{{ v.size | default(value='?') }}{% endfor %}"
`,
    "models/b.toml": `origin_resource = "vm"
[[create_resource]]
resource_type = "vm"
name = "{{ origin_resource.name }}"
[create_resource.properties]
size = "L"
`,
    "models/c.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "vm"
name = "{{ origin_resource.name }}-vm"
relation_type = "RUNS"
`,
  };
  for (const rerunUnchangedRules of [false, true]) {
    const r = await buildModels(files, { rerunUnchangedRules });
    assertEquals(errors(r), []);
    equal(get(r.graph, "report", "h1").properties.sizes, "L", `rerun=${rerunUnchangedRules}`);
    ok(r.converged);
  }
});

Deno.test("O11 skip: a block whose inputs did not change is skipped in the confirming pass", async () => {
  const r = await buildModels({
    "assets/host.csv": "name,env\nh1,prod\nh2,dev\n",
    "models/vm.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "vm"
name = "{{ origin_resource.name }}-vm"
relation_type = "RUNS_ON"
[create_resource.properties]
env = "{{ origin_resource.env | upper }}"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(r.skippedPerPass, [0, 1]);
  assertEquals(r.changesPerPass.at(-1), 0);
  equal(get(r.graph, "vm", "h1-vm").properties.env, "PROD");
});

Deno.test("O11 skip: counters disable skipping for the whole phase", async () => {
  const r = await buildModels({
    "assets/host.csv": "name\nh1\nh2\n",
    "models/vm.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "vm"
name = "{{ origin_resource.name }}-vm"
[create_resource.properties]
n = "{{ counter(key='vm') }}"
[[create_resource]]
resource_type = "disk"
name = "{{ origin_resource.name }}-disk"
`,
  });
  assertEquals(errors(r), []);
  assertEquals(r.skippedPerPass, [0, 0]);
  equal(get(r.graph, "vm", "h2-vm").properties.n, "1");
});

Deno.test({
  name: "O11 skip: every corpus module builds the same graph with and without skipping",
  ignore: SKIP_CORPUS,
  fn: async () => {
    let skipped = 0;
    for (const { name } of corpusEntries()) {
      const sources = await loadCorpus(name);
      const fast = buildSources(sources);
      const full = buildSources(sources, { rerunUnchangedRules: true });
      assertEquals(
        JSON.stringify(fast.graph.toJSON()),
        JSON.stringify(full.graph.toJSON()),
        `${name}: graphs differ`,
      );
      assertEquals(errors(fast), errors(full), name);
      assertEquals(fast.passes, full.passes, name);
      skipped += fast.skippedPerPass.reduce((a, b) => a + b, 0);
    }
    ok(skipped > 0, "some corpus rules are skipped in confirming passes");
  },
});
