import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import {
  actionSockets,
  attachActionService,
  dataDirModuleId,
  mcpActions,
  readActionLayer,
} from "../../lib/actions/engine_link.ts";
import type { ActionRunner } from "../../lib/actions/ports.ts";

const runner: ActionRunner = {
  publicKey: () => Promise.resolve(new Uint8Array(32)),
  execute: () => Promise.resolve({ exitCode: 0 }),
};

Deno.test("AC1 MP2 a module rooted at data/ has its actions read from data/actions, shown with its id", async () => {
  const ws = new MemoryWorkspace({
    "data/module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n',
    "data/actions/a.toml": 'name = "a"\nexec = [["true"]]\n',
    "data/actions/readme.md": "not an action",
    "data/runtimes/run.sh": "#!/bin/sh\n",
  });
  const l = await readActionLayer("mod1", ws, false, "1.0.0");
  assertEquals(l.files.map((f) => [f.path, f.displayPath]), [[
    "actions/a.toml",
    "mod1/actions/a.toml",
  ]]);
  assertEquals((await l.runtimeFiles()).map((f) => f.path), ["run.sh"]);
  assertEquals(await l.readFile("actions/a.toml") !== undefined, true);
});

/** An engine over a host and a `ping` action (plus `files`), built, its actions expanded. */
async function linkedEngine(files: Record<string, string>) {
  const engine = new GraphEngine({
    workspace: new MemoryWorkspace({
      ...files,
      "assets/host.csv": "name\nh1\n",
      "actions/a.toml": 'name = "ping"\norigin_resource = "host"\nexec = [["true"]]\n',
    }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  const link = attachActionService(engine, { runner });
  await engine.rebuild();
  await link.service.whenRefreshed();
  return link;
}

Deno.test("AC5 R74 AC32 the engine link expands after builds; MCP tools and sockets go through the service", async () => {
  const link = await linkedEngine({});
  const tools = mcpActions(link.service);
  assertEquals(await tools.list(), [{
    module: "data",
    name: "ping-h1",
    description: "run action ping-h1",
    inputs: [],
  }]);
  const record = await tools.invoke("data", "ping-h1", {}) as { id: string; status: string };
  assertEquals(record.status, "queued");
  assertEquals((await link.service.settled(record.id))!.status, "succeeded");
  assertEquals(actionSockets(link.service).socketFor("data", undefined, "ping-h1"), undefined);
  link.detach();
  await link.service.stopAll();
});

Deno.test("MP7 AC11 the data directory's actions use its module id: the slug of its declared name", async () => {
  assertEquals(dataDirModuleId("Web Shop!", []), "web-shop");
  assertEquals(dataDirModuleId(undefined, ["net"]), "data");
  assertEquals(dataDirModuleId("net", ["net", "net-2"]), "net-3");
  assertEquals(dataDirModuleId("runs", []), "runs-2");
  const link = await linkedEngine({
    "module.toml": '[module]\nname = "Web Shop"\nversion = "2.0.0"\n',
  });
  assertEquals(link.service.list().map((a) => [a.module, a.name]), [["web-shop", "ping-h1"]]);
  const built = await link.service.bundle("web-shop", "ping-h1", {});
  assertEquals([built.manifest.module, built.manifest.module_version], ["web-shop", "2.0.0"]);
  link.detach();
  await link.service.stopAll();
});
