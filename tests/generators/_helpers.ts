/**
 * Test helpers for generators: a local HTTP server on 127.0.0.1 that records every request, and
 * an in-memory data directory with modification times (nothing leaves the machine).
 */
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { GeneratorScheduler, type GeneratorSchedulerOptions } from "../../lib/generators/mod.ts";
import type { GeneratorHost } from "../../lib/generators/ports.ts";

/** A request as the server saw it. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** A local server: `base` is `http://127.0.0.1:<port>`. */
export interface LocalServer {
  base: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** Starts a server on an ephemeral port of 127.0.0.1. */
export function startServer(
  handler: (req: Seen) => Response | Promise<Response>,
): LocalServer {
  const seen: Seen[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const s: Seen = {
        method: req.method,
        url: new URL(req.url),
        headers: req.headers,
        body: await req.text(),
      };
      seen.push(s);
      return handler(s);
    },
  );
  const addr = server.addr as Deno.NetAddr;
  return {
    base: `http://127.0.0.1:${addr.port}`,
    seen,
    close: async () => {
      await server.shutdown();
    },
  };
}

/** JSON response helper. */
export function json(value: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(value), {
    ...init,
    headers: { "content-type": "application/json", ...(init.headers ?? {}) },
  });
}

/** A memory data directory whose files have modification times (set on write). */
export class TimedMemory extends MemoryWorkspace {
  readonly times = new Map<string, Date>();
  now = () => new Date();
  constructor(files: Record<string, string> = {}) {
    super(files, "/mem/data");
    for (const p of Object.keys(files)) this.times.set(p, new Date(0));
  }
  override async writeTextAtomic(path: string, text: string): Promise<void> {
    await super.writeTextAtomic(path, text);
    this.times.set(path, this.now());
  }
  host(extra: Partial<GeneratorHost> = {}): GeneratorHost {
    return {
      modifiedAt: async (p) =>
        (await this.readText(p)) === undefined ? undefined : this.times.get(p) ?? new Date(0),
      absolutePath: (p) => p === "" ? "/mem/data" : `/mem/data/${p}`,
      ...extra,
    };
  }
}

/** A scheduler over `ws` with a manifest text and collected log lines. */
export function scheduler(
  ws: TimedMemory,
  options: Partial<GeneratorSchedulerOptions> = {},
): { s: GeneratorScheduler; lines: string[] } {
  const lines: string[] = [];
  const s = new GeneratorScheduler({ workspace: ws, host: ws.host(), ...options });
  const run = s.run.bind(s);
  s.run = (log) =>
    run((level, text) => {
      lines.push(`${level} ${text}`);
      log(level, text);
    });
  return { s, lines };
}

/** Runs the scheduler once, collecting lines; returns the summary or the thrown error. */
export async function runOnce(
  s: GeneratorScheduler,
): Promise<Awaited<ReturnType<GeneratorScheduler["run"]>> | Error> {
  try {
    return await s.run(() => {});
  } catch (e) {
    return e as Error;
  }
}
