// Scale cliff (issue 16 item 4): one CSV of a million rows with one compliance rule and one
// output rule touching every resource must build. `push(...array)` with >~120k elements threw
// "Maximum call stack size exceeded" (compliance origins, output writes, rule paths).
// No timing assertion; see the report in the commit for the measured duration.
import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";

const ROWS = 1_000_000;

function hostsCsv(n: number): string {
  const lines = ["name,env,port"];
  for (let i = 0; i < n; i++) {
    lines.push(`h${i},${i % 3 === 0 ? "prod" : "dev"},${8000 + (i % 1000)}`);
  }
  return lines.join("\n") + "\n";
}

Deno.test("scale: 1M resources of one type, one compliance and one output rule (C5, OU5, A1)", async () => {
  const workspace = new MemoryWorkspace({
    "assets/host.csv": hostsCsv(ROWS),
    "compliance/all.toml": `audit_id = "A1"
[[control]]
id = "TAG"
name = "Tag everything"
[[control.target]]
description = "Every host is tagged."
origin_resource_types = ["host"]
[control.target.resource.properties]
audited = "yes"
`,
    "output/all.toml": `origin_resource = "host"
[[output]]
resource_type = "host_config"
name = "{{ origin_resource.name }}"
match_on = [{ property = "env", regexp = "^(prod|dev)$" }]
template = '{ "port": {{ origin_resource.port }} }'
`,
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const snap = await engine.rebuild();
  const errors = snap.issues.filter((i) => i.severity === "error");
  assertEquals(errors, []);
  assertEquals(snap.graph.getResource("host", `h${ROWS - 1}`)?.properties.audited, "yes");
  assertEquals(snap.graph.getResource("host_config", `h${ROWS - 1}`)?.properties.port, 8999);
  assertEquals(snap.graph.resourcesOfSorted("host_config").length, ROWS);
});
