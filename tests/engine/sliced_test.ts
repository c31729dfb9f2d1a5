/**
 * Builds never stall readers (issue 15 item 1): the engine builds in slices, so timers and
 * requests run while a rebuild is under way, and readers see the last published snapshot —
 * unchanged and sealed — until the new one is published (O12: publication is atomic).
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";
import { generateWorkspace } from "../../bench/generate.ts";

Deno.test("issue 15: a rebuild lets the event loop run and readers keep the published snapshot", async () => {
  const workspace = new MemoryWorkspace(generateWorkspace(6_000, 6));
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const first = await engine.rebuild();
  assertEquals(first.generation, 1);
  const app = createApp(engine);
  await workspace.writeTextAtomic("assets/t0.csv", "name,env\nonly,prod\n");

  const generation = engine.requestRebuild();
  assertEquals(generation, 2);
  // A timer task runs while the build is still under way (a synchronous build would have
  // finished and published before any timer could fire).
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert(engine.busy, "the build is still running when the timer fires");
  assertEquals(engine.current, first);
  // A reader answered meanwhile sees generation 1, complete.
  const res = await app.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ countNodes }" }),
    }),
  );
  const body = await res.json();
  assertEquals(body.data?.countNodes, 6_000);
  assert(engine.busy, "the build is still running after the read");

  const status = await engine.waitFor(generation);
  assertEquals(status.status, "ok");
  assertEquals(engine.current.generation, 2);
  assertEquals(engine.current.stats.resources, 5_001);
  // The old snapshot is untouched and still read-only.
  assertEquals(first.graph.resourceCount, 6_000);
  assert(first.graph.sealed && engine.current.graph.sealed);
});

Deno.test("a build gives the engine's quick turn between slices; every request is noted as a reader", async () => {
  let quick = 0;
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace(generateWorkspace(6_000, 6)),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    quickTurn: () => {
      quick++;
      return new Promise((resolve) => setTimeout(resolve, 0));
    },
  });
  await engine.rebuild();
  // Nothing was reading: the turns between the build's slices were quick ones.
  assert(quick > 0, "the quick turn was used");
  let noted = 0;
  const noteRequest = engine.noteRequest.bind(engine);
  engine.noteRequest = () => {
    noted++;
    noteRequest();
  };
  const app = createApp(engine);
  const res = await app.fetch(new Request("http://localhost/healthz"));
  await res.body?.cancel();
  assertEquals(noted, 1, "the app notes each request");
});
