// The engine's incremental rebuilds (issue 15 item 2): a rebuild request naming the changed
// paths may be incremental, one without them is a full build; the published snapshot is never
// mutated by a later build (S-snapshot immutability), and the result equals a full build.
import { assert, assertEquals } from "../_assert.ts";
import { type BuildEvent, GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";

function setup(incremental?: boolean) {
  const workspace = new MemoryWorkspace({
    "assets/host.csv": "name,port,network\nweb-1,80,net-a\nweb-2,81,net-b\n",
    "assets/network.csv": "name,cidr\nnet-a,10.0.0.0/8\nnet-b,10.1.0.0/16\n",
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    incremental,
  });
  const modes: string[] = [];
  engine.subscribe((e: BuildEvent) => {
    if (e.kind === "line") {
      const m = / (full|rows|assets|properties|reuse) build \(/.exec(e.text);
      if (m) modes.push(m[1]);
    }
  });
  return { workspace, engine, modes };
}

async function rebuild(engine: GraphEngine, changed?: string[]) {
  await engine.waitFor(engine.requestRebuild(changed ? { changed } : {}));
  return engine.current;
}

Deno.test("a write naming its file rebuilds incrementally; the old snapshot keeps its values", async () => {
  const { workspace, engine, modes } = setup();
  const first = await rebuild(engine);
  const oldWeb2 = first.graph.getResource("host", "web-2")!;
  await workspace.writeTextAtomic(
    "assets/host.csv",
    "name,port,network\nweb-1,80,net-a\nweb-2,99,net-a\nweb-3,82,net-b\n",
  );
  const second = await rebuild(engine, ["assets/host.csv"]);
  // A rule-free workspace: the changed rows are spliced into the previous graph (issue 25).
  assertEquals(modes, ["full", "rows"]);
  // The published graph of the first build is untouched: a new graph was built.
  assert(second.graph !== first.graph);
  assertEquals(oldWeb2.properties.port, "81");
  assertEquals(first.graph.getResource("host", "web-3"), undefined);
  assertEquals(first.graph.outgoing(oldWeb2).map((r) => r.target.name), ["net-b"]);
  const web2 = second.graph.getResource("host", "web-2")!;
  assertEquals(web2.properties.port, "99");
  assertEquals(second.graph.outgoing(web2).map((r) => r.target.name), ["net-a"]);
  assertEquals(second.graph.toJSON(), (await fullBuildOf(workspace)).graph.toJSON());
});

Deno.test("a rebuild request without changed paths is a full build; so is any with incremental off", async () => {
  const { workspace, engine, modes } = setup();
  await rebuild(engine);
  await workspace.writeTextAtomic("assets/host.csv", "name,port,network\nweb-1,8080,net-a\n");
  await rebuild(engine);
  assertEquals(modes, ["full", "full"]);
  const off = setup(false);
  await rebuild(off.engine);
  await off.workspace.writeTextAtomic("assets/host.csv", "name,port,network\nweb-1,1,net-a\n");
  await rebuild(off.engine, ["assets/host.csv"]);
  assertEquals(off.modes, ["full", "full"]);
});

async function fullBuildOf(workspace: MemoryWorkspace) {
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  return await engine.rebuild();
}

Deno.test("O18 coalesced requests: one of them without changed paths makes the build full", async () => {
  const { workspace, engine, modes } = setup();
  const first = engine.requestRebuild();
  // Both requests arrive while build 1 runs and coalesce into build 2.
  await workspace.writeTextAtomic("assets/host.csv", "name,port,network\nweb-1,1,net-a\n");
  engine.requestRebuild({ changed: ["assets/host.csv"] });
  const second = engine.requestRebuild();
  await engine.waitFor(second);
  assert(second === first + 1);
  assertEquals(modes, ["full", "full"]);
  await workspace.writeTextAtomic("assets/host.csv", "name,port,network\nweb-1,2,net-a\n");
  await rebuild(engine, ["assets/host.csv"]);
  // Only a port changed: the graph is derived from the previous one.
  assertEquals(modes, ["full", "full", "properties"]);
  assertEquals(engine.current.graph.getResource("host", "web-1")!.properties.port, "2");
});
