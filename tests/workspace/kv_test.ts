// Issue 28 point 4: a Workspace over a key-value store (Durable Objects storage, Deno KV) keeps
// files of any size in chunks, reads back exactly what was written, leaves no stale chunk, and
// an interrupted write leaves each file old or new, never a mix.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import fc from "fast-check";
import { KvWorkspace, MapKvStore } from "../../lib/workspace/kv.ts";
import { durableObjectStore } from "../../lib/workspace/durable_object_store.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { UnsafePathError } from "../../lib/workspace/workspace.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";

const paths = fc.constantFrom("assets/host.csv", "assets/zone.csv", "models/a.toml", "x/y/z.txt");
// Long texts and astral characters, so that chunk edges fall inside surrogate pairs too.
const texts = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.tuple(fc.string({ unit: "binary", maxLength: 30 }), fc.nat(40)).map(([s, n]) => s.repeat(n)),
);
const op = fc.array(fc.tuple(paths, texts), { minLength: 1, maxLength: 3 });

Deno.test("KvWorkspace behaves like MemoryWorkspace over any sequence of writes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (writes) => {
      const store = new MapKvStore(4, 128); // tiny limits: many chunks, many batches
      const kv = new KvWorkspace(store);
      const mem = new MemoryWorkspace();
      for (const write of writes) {
        const files = [...new Map(write)].map(([path, text]) => ({ path, text }));
        await kv.writeTextsAtomic(files);
        for (const f of files) await mem.writeTextAtomic(f.path, f.text);
      }
      for (const dir of ["", "assets", "x"]) {
        assertEquals(await kv.listFiles(dir), await mem.listFiles(dir));
      }
      for (const p of await mem.listFiles("")) {
        assertEquals(await kv.readText(p), await mem.readText(p));
      }
      assertEquals(await kv.readText("missing.csv"), undefined);
      // No stale chunk: exactly the chunks the manifests name are stored.
      let named = 0;
      for (const [k, v] of store.entries) if (k.startsWith("f/")) named += JSON.parse(v).n;
      assertEquals([...store.entries.keys()].filter((k) => k.startsWith("c/")).length, named);
    }),
    { numRuns: 150 },
  );
});

/** A store whose puts fail after `budget` of them: a crash in the middle of a write. */
class FailingStore extends MapKvStore {
  budget = Infinity;
  override put(entries: ReadonlyMap<string, string>): Promise<void> {
    if (this.budget-- <= 0) return Promise.reject(new Error("storage failed"));
    return super.put(entries);
  }
}

Deno.test("an interrupted write leaves every file old or new, and the next write cleans up", async () => {
  await fc.assert(
    fc.asyncProperty(texts, texts, fc.nat(12), async (before, after, budget) => {
      const store = new FailingStore(4, 128);
      const kv = new KvWorkspace(store);
      await kv.writeTextAtomic("assets/host.csv", before);
      store.budget = budget;
      try {
        await kv.writeTextAtomic("assets/host.csv", after);
      } catch { /* the crash */ }
      const seen = await kv.readText("assets/host.csv");
      assert(seen === before || seen === after, "old or new");
      store.budget = Infinity;
      await kv.writeTextAtomic("assets/host.csv", "name\n");
      assertEquals([...store.entries.keys()].filter((k) => k.startsWith("c/")).length, 1);
    }),
    { numRuns: 150 },
  );
});

Deno.test("seed writes only into an empty store; unsafe paths are refused", async () => {
  const kv = new KvWorkspace(new MapKvStore());
  assert(await kv.seed({ "assets/host.csv": "name\nweb-1\n" }));
  assert(!await kv.seed({ "assets/host.csv": "name\nweb-2\n" }));
  assertEquals(await kv.readText("assets/host.csv"), "name\nweb-1\n");
  await assertRejects(() => kv.writeTextAtomic("../etc/passwd", "x"), UnsafePathError);
  await assertRejects(() => kv.readText("/abs"), UnsafePathError);
});

Deno.test("the engine builds from a KvWorkspace and a write through it is read back", async () => {
  // The Durable Objects adapter over an in-memory stand-in of its storage API (the real one
  // runs in workerd: tests/edge/workerd_test.ts).
  const data = new Map<string, unknown>();
  const storage = {
    get: (keys: string[]) =>
      Promise.resolve(new Map(keys.filter((k) => data.has(k)).map((k) => [k, data.get(k)]))),
    list: ({ prefix }: { prefix: string }) =>
      Promise.resolve(
        new Map([...data].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => a < b ? -1 : 1)),
      ),
    put: (entries: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(entries)) data.set(k, v);
      return Promise.resolve();
    },
    delete: (keys: string[]) => Promise.resolve(keys.filter((k) => data.delete(k)).length),
  };
  const workspace = new KvWorkspace(durableObjectStore(storage), "durable-object:");
  await workspace.seed({
    "assets/host.csv": "name,zone\nweb-1,eu\n",
    "assets/zone.csv": "name\neu\n",
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const snap = await engine.rebuild();
  assertEquals(snap.graph.relationCount, 1);
  await workspace.writeTextAtomic("assets/host.csv", "name,zone\nweb-1,eu\nweb-2,eu\n");
  const next = await engine.rebuild();
  assertEquals(next.graph.relationCount, 2);
});
