import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { type AppOptions, createApp } from "../../lib/api/app.ts";

/** An engine over in-memory layers and its app; `get` sends a request to the app. */
export async function setupApps(
  data: Record<string, string>,
  modules: Record<string, Record<string, string>> = {},
  options: AppOptions = {},
) {
  const workspace = new MemoryWorkspace(data);
  const engine = new GraphEngine({
    workspace,
    modules: Object.entries(modules).map(([id, files]) => ({
      id,
      workspace: new MemoryWorkspace(files, `memory:${id}`),
    })),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, { edition: "ce", version: "0.0.0", ...options });
  const get = (path: string, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(`http://test${path}`, init)));
  return { engine, workspace, app, get };
}

/** A local upstream on 127.0.0.1 recording every request it receives. */
export function startUpstream(
  handler: (req: Request, body: string) => Response | Promise<Response> = (req, body) =>
    Response.json({ method: req.method, url: req.url, body }),
) {
  const seen: { method: string; url: URL; headers: Headers; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.text();
    seen.push({ method: req.method, url: new URL(req.url), headers: req.headers, body });
    return handler(req, body);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { server, seen, base, close: () => server.shutdown() };
}
