// Issue 28 point 3: `build --snapshot` files. A decoded snapshot serves exactly what the build it
// came from serves (graph, artifacts, issues, provenance, GraphQL schema and answers) over the
// example and every corpus module; damaged or foreign bytes are a SnapshotError, never another
// exception or a half-read graph.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import fc from "fast-check";
import { deflateSync, inflateSync } from "fflate";
import {
  decodeSnapshot,
  encodeSnapshot,
  SNAPSHOT_VERSION,
  SnapshotError,
} from "../../lib/snapshot/format.ts";
import { GraphEngine, type Snapshot } from "../../lib/engine.ts";
import { createApp } from "../../lib/api/app.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import type { LayerSource } from "../../lib/workspace/sources.ts";
import { CORPUS_DIR, corpusEntries, SKIP_CORPUS } from "../corpus/_corpus.ts";

const example = new URL("../../testdata/example", import.meta.url).pathname;

async function built(workspace: DenoFsWorkspace | MemoryWorkspace, modules?: LayerSource[]) {
  const engine = new GraphEngine({
    workspace,
    modules,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  return engine;
}

function canonical(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(
      value,
      (_k, v) => v instanceof Map ? { map: [...v] } : v instanceof Set ? { set: [...v] } : v,
    ),
  );
}

const INTROSPECTION = "{ __schema { types { name fields { name type { name kind } } } } }";

async function graphql(engine: GraphEngine, query: string): Promise<unknown> {
  const res = await createApp(engine, { writes: false }).fetch(
    new Request("http://x/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    }),
  );
  return await res.json();
}

/** Everything a server answers from, compared between the built and the loaded snapshot. */
async function assertSameService(engine: GraphEngine, loaded: Snapshot): Promise<void> {
  const snap = engine.current;
  assertEquals(loaded.graph.toJSON(), snap.graph.toJSON());
  assertEquals(loaded.artifacts, snap.artifacts);
  assertEquals(loaded.issues, snap.issues);
  assertEquals(loaded.generation, snap.generation);
  // Maps stay Maps; absent and undefined fields are the same to every reader.
  assertEquals(canonical(loaded.manifest), canonical(snap.manifest));
  assert(loaded.manifest.assets instanceof Map);
  assertEquals(canonical(loaded.assets), canonical(snap.assets));
  assertEquals(canonical(loaded.params), canonical(snap.params));
  assertEquals(canonical(loaded.stats), canonical(snap.stats));
  for (const type of snap.graph.types()) {
    for (const r of snap.graph.resourcesOf(type)) {
      const l = loaded.graph.getResource(r.type, r.name)!;
      assertEquals(
        loaded.provenance?.entriesOf(l, loaded.assets),
        snap.provenance?.entriesOf(r, snap.assets),
      );
    }
  }
  const served = new GraphEngine({
    workspace: new MemoryWorkspace(),
    createTemplates: createTemplateRenderer,
    snapshot: loaded,
  });
  assertEquals(served.current.generation, snap.generation);
  assertEquals(await graphql(served, INTROSPECTION), await graphql(engine, INTROSPECTION));
  // The first type's list with every scalar field, as a client would ask for it.
  const types = snap.graph.types().filter((t) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(t));
  if (types.length > 0) {
    const q = `{ ${types[0]} { name } }`;
    assertEquals(await graphql(served, q), await graphql(engine, q));
  }
}

Deno.test("a decoded snapshot of testdata/example serves what its build serves", async () => {
  const engine = await built(new DenoFsWorkspace(example));
  const bytes = await encodeSnapshot(engine.current);
  await assertSameService(engine, await decodeSnapshot(bytes));
  // Writing the same snapshot twice gives the same bytes.
  assertEquals(await encodeSnapshot(engine.current), bytes);
});

Deno.test({
  name: "a decoded snapshot of every corpus module serves what its build serves",
  ignore: SKIP_CORPUS,
  async fn() {
    for (const { name, layout } of corpusEntries()) {
      const root = `${CORPUS_DIR}${name}`;
      const engine = layout === "project"
        ? await built(new DenoFsWorkspace(`${root}/data`))
        : await built(new MemoryWorkspace(), [{ id: name, workspace: new DenoFsWorkspace(root) }]);
      const loaded = await decodeSnapshot(await encodeSnapshot(engine.current));
      await assertSameService(engine, loaded);
    }
  },
});

async function sample(): Promise<Uint8Array> {
  const engine = await built(new DenoFsWorkspace(example));
  return await encodeSnapshot(engine.current);
}

async function expectSnapshotError(bytes: Uint8Array): Promise<void> {
  try {
    await decodeSnapshot(bytes);
  } catch (e) {
    assert(e instanceof SnapshotError, `not a SnapshotError: ${e}`);
    return;
  }
  throw new Error("damaged bytes were accepted");
}

/** Re-packs a (mutated) body with a valid header and checksum: only the body's checks remain. */
async function pack(body: Uint8Array): Promise<Uint8Array> {
  const compressed = deflateSync(body);
  const out = new Uint8Array(48 + compressed.length);
  out.set(new TextEncoder().encode("GSVCSNAP"));
  const view = new DataView(out.buffer);
  view.setUint32(8, SNAPSHOT_VERSION, true);
  view.setUint32(12, compressed.length, true);
  out.set(new Uint8Array(await crypto.subtle.digest("SHA-256", compressed)), 16);
  out.set(compressed, 48);
  return out;
}

Deno.test("foreign, truncated and damaged bytes are SnapshotErrors saying what is wrong", async () => {
  const good = await sample();
  await assertRejects(
    () => decodeSnapshot(new TextEncoder().encode("name\nweb-1\n")),
    SnapshotError,
  );
  await assertRejects(() => decodeSnapshot(good.subarray(0, good.length - 1)), SnapshotError);
  const other = good.slice();
  new DataView(other.buffer).setUint32(8, 99, true);
  const e = await assertRejects(() => decodeSnapshot(other), SnapshotError);
  assert(e.message.includes("version 99"), e.message);
  await fc.assert(
    fc.asyncProperty(fc.nat(good.length - 1), fc.integer({ min: 1, max: 255 }), async (at, x) => {
      const bad = good.slice();
      bad[at] ^= x;
      await expectSnapshotError(bad);
    }),
    { numRuns: 200 },
  );
});

Deno.test("a body damaged behind a valid checksum is a SnapshotError, never a half-read graph", async () => {
  const good = await sample();
  const body = inflateSync(good.subarray(48));
  await fc.assert(
    fc.asyncProperty(
      fc.nat(body.length - 1),
      fc.integer({ min: 1, max: 255 }),
      fc.boolean(),
      async (at, x, truncate) => {
        const bad = truncate ? body.slice(0, at) : body.slice();
        if (!truncate) bad[at] ^= x;
        try {
          const s = await decodeSnapshot(await pack(bad));
          // A change inside a string's bytes or a property value can still be a valid graph.
          assert(s.graph.sealed);
        } catch (e) {
          assert(e instanceof SnapshotError, `not a SnapshotError: ${e}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});
