/**
 * Connecting the action service to a {@link GraphEngine} (reference AC5): after every published
 * build the action files of every layer (modules in load order, the data directory last, under
 * its derived module id, MP7) are read again and expanded against the new graph. Also adapts the service to the MCP action seam
 * (R74) and the proxy's `action://` sockets (AC32).
 *
 * @module
 */
import type { GraphEngine } from "../engine.ts";
import type { JsonValue } from "../graph/graph.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { layerPrefix, layerTomlFiles } from "../workspace/sources.ts";
import type { McpActions } from "../mcp/server.ts";
import type { ActionSockets } from "../apps/proxy.ts";
import { dataDirModuleId } from "../workspace/module_source.ts";

export { dataDirModuleId };
import { type ActionLayer, ActionService, type ActionServiceOptions } from "./service.ts";

const encoder = new TextEncoder();

async function readBytes(ws: Workspace, path: string): Promise<Uint8Array | undefined> {
  if (ws.readBytes) return await ws.readBytes(path);
  const text = await ws.readText(path);
  return text === undefined ? undefined : encoder.encode(text);
}

/**
 * Reads one layer's action files. A module whose root has no `module.toml` but a
 * `data/module.toml` is rooted at `data/` (MP2).
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { readActionLayer } from "./engine_link.ts";
 * const l = await readActionLayer("data", new MemoryWorkspace({ "actions/a.toml": 'name = "a"' }), true);
 * console.log(l.files[0].displayPath); // "actions/a.toml"
 * ```
 */
export async function readActionLayer(
  id: string,
  ws: Workspace,
  isDataDir: boolean,
  version?: string,
): Promise<ActionLayer> {
  const prefix = await layerPrefix(ws, isDataDir);
  const files = (await layerTomlFiles(ws, "actions", prefix)).map(({ path, text }) => ({
    path,
    displayPath: isDataDir ? path : `${id}/${path}`,
    text,
  }));
  return {
    id,
    version,
    files,
    readFile: (path) => readBytes(ws, prefix + path),
    runtimeFiles: async () => {
      const out = [];
      for (const path of await ws.listFiles(`${prefix}runtimes`)) {
        const bytes = await readBytes(ws, path);
        if (bytes) out.push({ path: path.slice(`${prefix}runtimes/`.length), bytes });
      }
      return out;
    },
  };
}

/**
 * Creates an action service that re-expands after every successful build of `engine` (and
 * once for the snapshot already published). `ready` resolves after that first expansion.
 *
 * @example
 * ```ts ignore
 * const { service } = attachActionService(engine, { runner });
 * ```
 */
export function attachActionService(
  engine: GraphEngine,
  options: ActionServiceOptions = {},
): { service: ActionService; ready: Promise<void>; detach(): void } {
  const service = new ActionService(options);
  let chain: Promise<void> = Promise.resolve();
  let seen = -1;
  const refresh = () => {
    chain = chain.then(async () => {
      const snapshot = engine.current;
      if (snapshot.generation === 0 || snapshot.generation === seen) return;
      seen = snapshot.generation;
      const versions = new Map(snapshot.manifest.modules.map((m) => [m.layer, m.version]));
      const layers: ActionLayer[] = [];
      for (const m of engine.modules) {
        layers.push(await readActionLayer(m.id, m.workspace, false, versions.get(m.id)));
      }
      const declared = snapshot.manifest.modules.find((m) => m.layer === "data")?.name;
      const dataId = dataDirModuleId(declared, engine.modules.map((m) => m.id));
      layers.push(await readActionLayer(dataId, engine.workspace, true, versions.get("data")));
      await service.refresh(layers, {
        generation: snapshot.generation,
        graph: snapshot.graph,
        params: snapshot.params as Record<string, JsonValue>,
        artifacts: snapshot.artifacts,
        templates: engine.createTemplates(snapshot.params),
      });
    }).catch((e) => {
      options.log?.("error", `actions: ${e instanceof Error ? e.message : String(e)}`);
    });
    return chain;
  };
  service.whenRefreshed = () => chain;
  const unsubscribe = engine.subscribe((event) => {
    if (event.kind === "end" && event.ok) refresh();
  });
  return { service, ready: refresh(), detach: unsubscribe };
}

/**
 * The MCP action seam (R74) over the service: tools list the concrete actions of the newest
 * expansion with their declared inputs; invoking one queues a run (inputs validated as over
 * REST, AC6) and answers with its record.
 *
 * @example
 * ```ts ignore
 * registerMcpRoutes(app, engine, live, { actions: mcpActions(service) }, info);
 * ```
 */
export function mcpActions(service: ActionService): McpActions {
  return {
    list: async () => {
      await service.whenRefreshed();
      return service.list().map((a) => ({
        module: a.module,
        name: a.name,
        description: a.description || `run action ${a.name}`,
        inputs: a.inputs.map((i) => ({
          name: i.name,
          type: i.type,
          required: i.required,
          ...(i.default !== undefined ? { default: i.default } : {}),
          ...(i.allowed_values ? { allowedValues: i.allowed_values } : {}),
          ...(i.description !== undefined ? { description: i.description } : {}),
        })),
      }));
    },
    invoke: async (module, name, input) =>
      (await service.trigger(module, name, input)) as unknown as JsonValue,
  };
}

/**
 * The proxy's `action://` seam (AC32) over the service.
 *
 * @example
 * ```ts ignore
 * const sockets = actionSockets(service);
 * ```
 */
export function actionSockets(service: ActionService): ActionSockets {
  return { socketFor: (appId, module, action) => service.socketFor(appId, module, action) };
}
