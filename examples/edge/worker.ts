/**
 * graphsvc in an edge runtime (Cloudflare Workers, served locally by `workerd`): the portable
 * core (`mod.ts`) only, no UI files, built from a seed workspace bundled into the worker.
 *
 * Two ways to hold the workspace, chosen by the worker's bindings:
 * - with a Durable Object namespace bound as `GRAPH`, every request goes to one Durable Object
 *   whose storage holds the workspace (`KvWorkspace` over `durableObjectStore`): writes survive
 *   the isolate, and the object serialises them;
 * - without it, the workspace is a `MemoryWorkspace` in the isolate: reads and writes work, and
 *   writes last as long as the isolate.
 *
 * In both, the build a write causes is handed to the runtime's `waitUntil` by `createApp`, so
 * the next read that asks for its generation (`Graphsvc-Min-Generation`) gets it.
 *
 * `scripts/edge-bundle.ts` bundles this with a seed into one ES module; see docs/edge.md.
 *
 * @module
 */
import {
  createApp,
  createTemplateRenderer,
  decodeSnapshot,
  defaultPhases,
  type DurableObjectStorageLike,
  durableObjectStore,
  type ExecutionContextLike,
  GraphEngine,
  type GraphsvcApp,
  KvWorkspace,
  MemoryWorkspace,
  type Workspace,
} from "../../mod.ts";

/**
 * A worker serving a snapshot built elsewhere (`build --snapshot FILE`): no build at the edge,
 * reads only (writes would change nothing durable). `snapshot` is the file's bytes, base64.
 *
 * @example
 * ```ts ignore
 * export default snapshotWorker(SNAPSHOT_BASE64);
 * ```
 */
export function snapshotWorker(snapshotBase64: string) {
  let app: Promise<GraphsvcApp> | undefined;
  const load = async () => {
    const bytes = Uint8Array.from(atob(snapshotBase64), (c) => c.charCodeAt(0));
    const engine = new GraphEngine({
      workspace: new MemoryWorkspace({}, "snapshot:"),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
      snapshot: await decodeSnapshot(bytes),
    });
    return createApp(engine, { edition: "ce", version: "edge", writes: false });
  };
  return {
    async fetch(request: Request, _env: unknown, ctx: ExecutionContextLike): Promise<Response> {
      app ??= load();
      return (await app).fetch(request, {}, ctx);
    },
  };
}

/** The bindings this worker reads. */
export interface Env {
  /** The Durable Object namespace holding the workspace; absent: an in-memory workspace. */
  GRAPH?: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

/** An engine over `workspace`, built once, with its app (writes enabled, no UI). */
async function serveWorkspace(workspace: Workspace): Promise<GraphsvcApp> {
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  return createApp(engine, { edition: "ce", version: "edge" });
}

/**
 * The worker's module exports for a seed workspace: `default` (the fetch handler) and
 * `GraphObject` (the Durable Object class).
 *
 * @example
 * ```ts ignore
 * const worker = graphWorker({ "assets/host.csv": "name\nweb-1\n" });
 * export default worker.default;
 * export const GraphObject = worker.GraphObject;
 * ```
 */
export function graphWorker(seed: Readonly<Record<string, string>>) {
  // Built on the first request: edge runtimes refuse timers and random numbers at start-up.
  let memory: Promise<GraphsvcApp> | undefined;

  class GraphObject {
    readonly #app: Promise<GraphsvcApp>;
    readonly #state: { storage: DurableObjectStorageLike; waitUntil?(p: Promise<unknown>): void };

    constructor(
      state: { storage: DurableObjectStorageLike; waitUntil?(p: Promise<unknown>): void },
    ) {
      this.#state = state;
      const workspace = new KvWorkspace(durableObjectStore(state.storage), "durable-object:");
      this.#app = workspace.seed(seed).then(() => serveWorkspace(workspace));
    }

    async fetch(request: Request): Promise<Response> {
      const app = await this.#app;
      const state = this.#state;
      // A Durable Object stays in memory while it works; waitUntil, where present, says so.
      const ctx: ExecutionContextLike = { waitUntil: (p) => state.waitUntil?.(p) };
      return app.fetch(request, {}, ctx);
    }
  }

  return {
    default: {
      async fetch(request: Request, env: Env, ctx: ExecutionContextLike): Promise<Response> {
        if (env.GRAPH) return env.GRAPH.get(env.GRAPH.idFromName("graph")).fetch(request);
        memory ??= serveWorkspace(new MemoryWorkspace({ ...seed }, "memory:"));
        return (await memory).fetch(request, env, ctx);
      },
    },
    GraphObject,
  };
}
