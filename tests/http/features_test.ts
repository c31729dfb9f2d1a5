/**
 * `GET /api/features` (R60) names exactly what the server does: `admin_assets` and `contracts`
 * with asset writes, `actions` with an action runtime, `vault` with `--vault`, `mcp` always and
 * `mcp_write` with `--mcp-write`.
 */
import { assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";
import { attachActionService } from "../../lib/actions/engine_link.ts";
import type { ActionRunner } from "../../lib/actions/ports.ts";
import { VaultServer } from "../../lib/vault/server.ts";
import { MemoryVaultStore } from "../../lib/vault/state.ts";

const runner: ActionRunner = {
  publicKey: () => Promise.resolve(new Uint8Array(32)),
  execute: () => Promise.resolve({ exitCode: 0 }),
};

function engine() {
  return new GraphEngine({
    workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
}

async function features(options: AppOptions, e = engine()): Promise<string[]> {
  const app = createApp(e, options);
  const res = await app.fetch(new Request("http://127.0.0.1/api/features"));
  assertEquals(res.status, 200);
  return await res.json();
}

Deno.test("R60 features: defaults, read-only and --mcp-write", async () => {
  assertEquals(await features({}), ["admin_assets", "contracts", "mcp"]);
  // --read-only: neither asset writes nor contract calls.
  assertEquals(await features({ writes: false }), ["mcp"]);
  assertEquals(await features({ mcp: { write: true } }), [
    "admin_assets",
    "contracts",
    "mcp",
    "mcp_write",
  ]);
  // The edition's own names (given by the server) come first and are not repeated.
  assertEquals(await features({ features: ["admin_assets", "generate_schema", "contracts"] }), [
    "admin_assets",
    "generate_schema",
    "contracts",
    "mcp",
  ]);
});

Deno.test("R60 features: actions with an action runtime, vault with --vault", async () => {
  const e = engine();
  const link = attachActionService(e, { runner });
  await e.rebuild();
  await link.ready;
  const vault = await VaultServer.open(new MemoryVaultStore());
  assertEquals(await features({ actions: link.service, vault }, e), [
    "admin_assets",
    "actions",
    "contracts",
    "vault",
    "mcp",
  ]);
  await link.service.stopAll();
});
