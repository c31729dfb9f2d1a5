// G1/G21 GraphQL over HTTP conformance: graphql-http's server audits run against the app's fetch
// must all pass, with zero warnings (MUST, SHOULD and MAY items).
import { serverAudits } from "graphql-http";
import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

Deno.test("G1/G21 graphql-http server audits pass with zero warnings", async () => {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({ "assets/zone.csv": "name\na.org\n" }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine);
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(input, init)));
  const problems: string[] = [];
  for (const audit of serverAudits({ url: "http://localhost/graphql", fetchFn })) {
    const result = await audit.fn();
    if (result.status !== "ok") {
      problems.push(`${result.status} ${audit.id} ${audit.name}: ${result.reason}`);
    }
  }
  assertEquals(problems, []);
});
