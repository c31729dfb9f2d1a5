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

Deno.test("G11 G13 a spliced graph's state (rows added) equals a scan: model, counts, sorted lists", async () => {
  const { GraphState, graphState, shapeSignature } = await import(
    "../../../lib/api/graphql/snapshot.ts"
  );
  const { buildSchemaModel } = await import("../../../lib/api/graphql/model.ts");
  const { splicedModel } = await import("../../../lib/api/graphql/spliced_model.ts");
  const types = ["host", "zone", "app"];
  let carried = 0;
  const value = fc.oneof(fc.constant(1), fc.constant("x"), fc.constant(true), fc.constant(2.5));
  const row = fc.record({
    type: fc.nat(2),
    name: fc.string({ minLength: 1, maxLength: 3 }),
    key: fc.constantFrom("port", "env", "size"),
    value,
    links: fc.array(fc.tuple(fc.constantFrom("zone", "runs"), fc.nat(2), fc.nat(5)), {
      maxLength: 3,
    }),
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(row, { minLength: 1, maxLength: 40 }),
      fc.array(row, { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      async (rows, additions, rich) => {
        const g = new Graph();
        for (const t of types) for (let i = 0; i < 6; i++) g.upsertResource(t, `${t}-${i}`);
        if (rich) {
          // Every key with every kind, every label between every pair of types: additions fit.
          const kinds = [1, "x", true, 2.5];
          for (const t of types) {
            for (const key of ["port", "env", "size"]) {
              kinds.forEach((v, k) => g.upsertResource(t, `${t}-${key}-${k}`, { [key]: v }));
            }
            for (const label of ["zone", "runs"]) {
              for (const u of types) {
                g.upsertRelation(g.getResource(t, `${t}-0`)!, label, g.getResource(u, `${u}-1`)!);
              }
            }
          }
        }
        for (const r of rows) {
          const source = g.upsertResource(types[r.type], r.name, { [r.key]: r.value });
          for (const [label, t, i] of r.links) {
            g.upsertRelation(source, label, g.getResource(types[t], `${types[t]}-${i}`)!);
          }
        }
        g.seal();
        const base = graphState(g);
        await base.warm();
        // Additions of names the graph does not have, grouped into one splice per type.
        const byType = new Map<string, typeof additions>();
        for (const a of additions) {
          const type = types[a.type];
          if (g.getResource(type, `new-${a.name}`)) continue;
          const list = byType.get(type) ?? [];
          if (list.some((b) => b.name === a.name)) continue;
          list.push(a);
          byType.set(type, list);
        }
        const splices = [...byType].map(([type, list]) => {
          const run = g.resourcesOf(type);
          return {
            type,
            at: run[run.length - 1].id + 1,
            removed: 0,
            added: list.map((a) => ({
              name: `new-${a.name}`,
              properties: { name: "", [a.key]: a.value } as Record<string, unknown>,
            })),
          };
        });
        const linksOf = new Map(
          additions.map((a) => [`${types[a.type]}\u0000new-${a.name}`, a.links]),
        );
        const s = g.spliced(
          splices as never,
          (r, find) =>
            (linksOf.get(`${r.type}\u0000${r.name}`) ?? []).map(([label, t, i]) =>
              [label, find(types[t], `${types[t]}-${i}`)!] as const
            ),
        );
        if (typeof s === "string") throw new Error(s);
        const inherited = graphState(s);
        await inherited.warm();
        const scanned = new GraphState(s);
        const a = inherited.model;
        const b = scanned.model;
        const counts = (m: typeof a) => ({
          signature: shapeSignature(m),
          kinds: m.types.map((t) => t.properties.map((p) => p.kinds)),
          nodes: m.nodePropertyCount,
          edges: m.edgePropertyCount,
          relationTypes: m.relationTypeCount,
          resources: [...m.resourceCounts].sort(),
          relationEdges: [...m.relationEdgeCounts].sort(),
        });
        assertEquals(counts(a), counts(b));
        assertEquals(counts(a), counts(buildSchemaModel(s)));
        const direct = splicedModel(buildSchemaModel(g), s, s.splicing!);
        if (direct) {
          carried++;
          assertEquals(counts(direct), counts(b));
        }
        for (const t of types) {
          assertEquals(inherited.sortedOf(t), s.resourcesOfSorted(t));
          assertEquals(inherited.countOf(t), s.resourcesOf(t).length);
        }
      },
    ),
    { numRuns: 150 },
  );
  // Most additions fit the base model, so the carried-over path is what was compared.
  if (carried < 30) throw new Error(`only ${carried} of 150 splices kept the base model`);
});

Deno.test("G4 a snapshot warmed with the graph it replaces has the sorted lists of a sort, with its own resources", async () => {
  const { graphState } = await import("../../../lib/api/graphql/snapshot.ts");
  const build = (names: readonly [string, string][], stamp: number) => {
    const g = new Graph();
    for (const [type, name] of names) g.upsertResource(type, name, { stamp });
    g.seal();
    return g;
  };
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(
        fc.tuple(fc.constantFrom("host", "zone"), fc.string({ unit: "binary", maxLength: 4 })),
        { maxLength: 60, selector: ([t, n]) => `${t}\u0000${n}` },
      ),
      // 0: the same names (properties changed); 1: one resource renamed; 2: one left out.
      fc.constantFrom(0, 1, 2),
      fc.nat(),
      async (names, change, at) => {
        const before = build(names, 1);
        await graphState(before).warm();
        const next = names.slice();
        if (next.length > 0 && change > 0) {
          const i = at % next.length;
          const [type, name] = next[i];
          const renamed = `${name}\u00ff`;
          const taken = next.some(([t, n]) => t === type && n === renamed);
          if (change === 1 && !taken) next[i] = [type, renamed];
          if (change === 2) next.splice(i, 1);
        }
        const after = build(next, 2);
        await graphState(after).warm({ previous: before });
        for (const type of after.types()) {
          const sorted = graphState(after).sortedOf(type);
          assertEquals(sorted.map((r) => r.name), after.resourcesOfSorted(type).map((r) => r.name));
          for (const r of sorted) {
            if (r !== after.getResourceById(r.id)) {
              throw new Error(`${type} '${r.name}' is not the new graph's`);
            }
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("G11 a derived graph's warm compares shapes in slices and inherits the model only when every changed shape is the same", async () => {
  const { graphState } = await import("../../../lib/api/graphql/snapshot.ts");
  const count = 10_000;
  const base = new Graph();
  for (let i = 0; i < count; i++) base.upsertResource("host", `h-${i}`, { port: i, env: "prod" });
  base.seal();
  const baseModel = graphState(base).model;
  const derivedWith = (last: Record<string, number | string>) => {
    const changes = new Map<number, Record<string, number | string>>();
    for (let i = 0; i < count; i++) {
      changes.set(i, i === count - 1 ? last : { name: `h-${i}`, port: i + 1, env: "prod" });
    }
    return base.derive(changes);
  };
  // Same shapes: the base's model object, after more than one turn (10k comparisons pause).
  const same = derivedWith({ name: `h-${count - 1}`, port: 0, env: "test" });
  let turns = 0;
  await graphState(same).warm({ sliceMs: 0, turn: () => (turns++, Promise.resolve()) });
  assertEquals(graphState(same).model === baseModel, true);
  assertEquals(turns > 1, true);
  // The last changed resource's port turns into a string: a scan, which infers the new kind.
  const other = derivedWith({ name: `h-${count - 1}`, port: "eighty", env: "test" });
  await graphState(other).warm({ sliceMs: 0, turn: () => Promise.resolve() });
  const model = graphState(other).model;
  assertEquals(model === baseModel, false);
  assertEquals(model.resourceCounts.get("host"), count);
});
