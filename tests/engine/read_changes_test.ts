/**
 * Builds after named changes read only what changed (issue 15, one-row change → visible): the
 * engine reads again the paths its requests named, takes the texts a writer gave, keeps every
 * other file as the last build read it, and reads everything after a request that could not say
 * what it changed. The graph is always the one a full read gives.
 */
import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";

/** A workspace that counts the reads of each path (and can lose files). */
class CountingWorkspace extends MemoryWorkspace {
  readonly reads = new Map<string, number>();
  readonly #removed = new Set<string>();
  override readText(path: string): Promise<string | undefined> {
    this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
    return this.#removed.has(path) ? Promise.resolve(undefined) : super.readText(path);
  }
  override async listFiles(dir: string): Promise<string[]> {
    return (await super.listFiles(dir)).filter((p) => !this.#removed.has(p));
  }
  remove(path: string): void {
    this.#removed.add(path);
  }
  readsOf(path: string): number {
    return this.reads.get(path) ?? 0;
  }
}

function setup(prepare?: () => Promise<readonly string[] | void>) {
  const workspace = new CountingWorkspace({
    "assets/host.csv": "name,port\nweb-1,80\nweb-2,81\n",
    "assets/zone.csv": "name\na.org\n",
  });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    prepare: prepare && (() => prepare()),
  });
  return { workspace, engine };
}

const port = (engine: GraphEngine, name: string) =>
  engine.current.graph.getResource("host", name)?.properties.port;

Deno.test("a write that gives its text is built without reading any file again", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  const text = "name,port\nweb-1,80\nweb-2,99\n";
  await workspace.writeTextAtomic("assets/host.csv", text);
  workspace.reads.clear();
  const generation = engine.requestRebuild({
    changed: ["assets/host.csv"],
    written: new Map([["assets/host.csv", text]]),
  });
  await engine.waitFor(generation);
  assertEquals(port(engine, "web-2"), "99");
  assertEquals([workspace.readsOf("assets/host.csv"), workspace.readsOf("assets/zone.csv")], [
    0,
    0,
  ]);
});

Deno.test("a named path without a text is read again; the others are not", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/host.csv", "name,port\nweb-1,8080\n");
  workspace.reads.clear();
  await engine.waitFor(engine.requestRebuild({ changed: ["assets/host.csv"] }));
  assertEquals(port(engine, "web-1"), "8080");
  assertEquals(engine.current.graph.getResource("host", "web-2"), undefined);
  assertEquals([workspace.readsOf("assets/host.csv"), workspace.readsOf("assets/zone.csv")], [
    1,
    0,
  ]);
});

Deno.test("a later request without a text for the path wins over an earlier text", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  // The server's write, then an editor's change to the same file the watcher reports.
  const ours = "name,port\nweb-1,1\n";
  await workspace.writeTextAtomic("assets/host.csv", ours);
  engine.requestRebuild({
    changed: ["assets/host.csv"],
    written: new Map([["assets/host.csv", ours]]),
  });
  await workspace.writeTextAtomic("assets/host.csv", "name,port\nweb-1,2\n");
  await engine.waitFor(engine.requestRebuild({ changed: ["assets/host.csv"] }));
  assertEquals(port(engine, "web-1"), "2");
});

Deno.test("files added or removed show when named (the folders are listed again then)", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/site.csv", "name\nzrh\n");
  workspace.remove("assets/zone.csv");
  await engine.waitFor(
    engine.requestRebuild({ changed: ["assets/site.csv", "assets/zone.csv"] }),
  );
  assertEquals(engine.current.graph.types(), ["host", "site"]);
});

Deno.test("changes to files the last build read are read in place, without listing folders", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  let listed = 0;
  const list = workspace.listFiles.bind(workspace);
  workspace.listFiles = (dir: string) => {
    listed++;
    return list(dir);
  };
  await workspace.writeTextAtomic("assets/zone.csv", "name\ne.org\n");
  await engine.waitFor(engine.requestRebuild({ changed: ["assets/zone.csv"] }));
  assertEquals(engine.current.graph.resourcesOf("zone").map((r) => r.name), ["e.org"]);
  assertEquals(listed, 0);
});

Deno.test("a request that does not say what changed reads every file again", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/zone.csv", "name\nb.org\n");
  workspace.reads.clear();
  await engine.rebuild();
  assertEquals(workspace.readsOf("assets/zone.csv"), 1);
  assertEquals(engine.current.graph.resourcesOf("zone").map((r) => r.name), ["b.org"]);
});

Deno.test("paths the prepare hook wrote are read again; an unknown answer reads all", async () => {
  let answer: readonly string[] | void = ["assets/zone.csv"];
  const { workspace, engine } = setup(() => Promise.resolve(answer));
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/zone.csv", "name\nc.org\n");
  workspace.reads.clear();
  await engine.waitFor(engine.requestRebuild({ changed: [] }));
  assertEquals(engine.current.graph.resourcesOf("zone").map((r) => r.name), ["c.org"]);
  assertEquals(workspace.readsOf("assets/host.csv"), 0);
  answer = undefined;
  await workspace.writeTextAtomic("assets/host.csv", "name,port\nweb-7,7\n");
  await engine.waitFor(engine.requestRebuild({ changed: [] }));
  assertEquals(port(engine, "web-7"), "7");
});

Deno.test("a rule file named as changed makes the build read everything", async () => {
  const { workspace, engine } = setup();
  await engine.rebuild();
  await workspace.writeTextAtomic(
    "models/m.toml",
    'origin_resource = "host"\n[[create_resource]]\nresource_type = "app"\nname = "{{ origin_resource.name }}-app"\n',
  );
  await workspace.writeTextAtomic("assets/zone.csv", "name\nd.org\n");
  await engine.waitFor(engine.requestRebuild({ changed: ["models/m.toml"] }));
  assertEquals(engine.current.graph.resourcesOf("app").length, 2);
  assertEquals(engine.current.graph.resourcesOf("zone").map((r) => r.name), ["d.org"]);
});
