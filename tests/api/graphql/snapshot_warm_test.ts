// The GraphQL state of a new snapshot is made before it is published, in time slices beside
// readers (issue 15: the first query after a publish neither scans nor sorts the graph): the
// sorted lists, the schema model and the relation averages it gives equal what a query makes.
import fc from "fast-check";
import { assertEquals } from "../../_assert.ts";
import { Graph } from "../../../lib/graph/graph.ts";
import { runSteps } from "../../../lib/pipeline/slicing.ts";
import { sortByNameSteps } from "../../../lib/api/graphql/sort_steps.ts";

Deno.test("G4 sortByNameSteps orders like resourcesOfSorted, across run and merge boundaries", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ unit: "binary", maxLength: 5 }), { maxLength: 300 }),
      fc.constantFrom(0, 1, 4095, 4096, 4097, 9000, 20_000),
      (names, extra) => {
        const g = new Graph();
        for (const name of names) g.upsertResource("t", name);
        for (let i = 0; i < extra; i++) g.upsertResource("t", `x-${(i * 7919) % 100_003}`);
        const resources = g.resourcesOf("t");
        const before = resources.slice();
        assertEquals(runSteps(sortByNameSteps(resources)), g.resourcesOfSorted("t"));
        assertEquals(resources, before);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("G16 relation averages from the schema model's edge counts equal a scan of the graph", async () => {
  const { GraphState } = await import("../../../lib/api/graphql/snapshot.ts");
  const types = ["host", "zone", "app"];
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.nat(20),
          fc.nat(2),
          fc.constantFrom("zone", "runs", "host"),
          fc.nat(20),
          fc.nat(2),
        ),
        { minLength: 40, maxLength: 300 },
      ),
      (edges) => {
        const g = new Graph();
        for (const t of types) for (let i = 0; i < 3; i++) g.upsertResource(t, `${t}-${i}`);
        for (const [a, ta, label, b, tb] of edges) {
          const source = g.upsertResource(types[ta], `${types[ta]}-${a % 4}`);
          const target = g.upsertResource(types[tb], `${types[tb]}-${b % 4}`);
          g.upsertRelation(source, label, target);
        }
        g.seal();
        const scanned = new GraphState(g);
        const modelled = new GraphState(g);
        modelled.model; // the model counts edges; averages then come from it
        for (const parent of types) {
          for (const raw of [...types, "runs", "nope"]) {
            assertEquals(
              modelled.relationAverage(parent, raw),
              scanned.relationAverage(parent, raw),
            );
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("the app warms each snapshot before the engine publishes it", async () => {
  const { GraphEngine } = await import("../../../lib/engine.ts");
  const { MemoryWorkspace } = await import("../../../lib/workspace/memory.ts");
  const { createTemplateRenderer } = await import("../../../lib/pipeline/templates.ts");
  const { createApp } = await import("../../../lib/api/app.ts");
  const { graphState } = await import("../../../lib/api/graphql/snapshot.ts");
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({
      "assets/host.csv": "name,zone\nb,z1\na,z1\n",
      "assets/zone.csv": "name\nz1\n",
    }),
    createTemplates: createTemplateRenderer,
  });
  createApp(engine);
  const seen: number[] = [];
  engine.beforePublish((snapshot) => {
    seen.push(engine.current.generation, snapshot.generation);
    return Promise.resolve();
  });
  const snapshot = await engine.rebuild();
  assertEquals(seen, [0, 1]); // the hook saw generation 1 while 0 was still published
  assertEquals(graphState(snapshot.graph).modelReady, true);
  assertEquals(graphState(snapshot.graph).sortedOf("host").map((r) => r.name), ["a", "b"]);
});
