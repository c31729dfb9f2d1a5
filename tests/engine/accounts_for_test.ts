/**
 * GraphEngine.accountsFor: whether the builds already requested account for the current content
 * of some data-directory files (what a file watcher asks before requesting a rebuild of its own).
 */
import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";

function engineOver(workspace: MemoryWorkspace): GraphEngine {
  return new GraphEngine({ workspace, createTemplates: createTemplateRenderer });
}

Deno.test("accountsFor: nothing read yet is no account; a built file is", async () => {
  const workspace = new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" });
  const engine = engineOver(workspace);
  assertEquals(await engine.accountsFor(["assets/host.csv"]), false);
  await engine.rebuild();
  assertEquals(await engine.accountsFor(["assets/host.csv"]), true);
});

Deno.test("accountsFor: a file changed after the build read it is not accounted for", async () => {
  const workspace = new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" });
  const engine = engineOver(workspace);
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/host.csv", "name\nweb-1\nweb-2\n");
  assertEquals(await engine.accountsFor(["assets/host.csv"]), false);
  // A write that requests its build is accounted for from the request on: that build reads it.
  const generation = engine.requestRebuild({ changed: ["assets/host.csv"] });
  assertEquals(await engine.accountsFor(["assets/host.csv"]), true);
  await engine.waitFor(generation);
  assertEquals(await engine.accountsFor(["assets/host.csv"]), true);
  assertEquals(engine.current.graph.resourcesOf("host").length, 2);
});

Deno.test("accountsFor: new, removed and unread files are never taken as built", async () => {
  const workspace = new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n", "notes.txt": "x" });
  const engine = engineOver(workspace);
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/zone.csv", "name\na.org\n");
  assertEquals(await engine.accountsFor(["assets/zone.csv"]), false);
  assertEquals(await engine.accountsFor(["notes.txt"]), false);
  assertEquals(await engine.accountsFor(["assets/host.csv", "assets/zone.csv"]), false);
});

Deno.test("accountsFor: a build that failed before reading the workspace leaves no pending read", async () => {
  const workspace = new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" });
  const engine = engineOver(workspace);
  await engine.rebuild();
  await workspace.writeTextAtomic("assets/host.csv", "name\nweb-9\n");
  const generation = engine.requestRebuild({
    before: () => Promise.reject(new Error("sync failed")),
  });
  assertEquals((await engine.waitFor(generation)).status, "failed");
  assertEquals(await engine.accountsFor(["assets/host.csv"]), false);
});
