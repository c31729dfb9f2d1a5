/**
 * `GET /api/build/stream` (reference R50–R54): Server-Sent Events carrying the build log. Each log
 * line is one `data:` event; a build ends with `data: BUILD_COMPLETE` or
 * `data: BUILD_FAILED: <message>`. A client that connects while idle immediately receives the last
 * build's final line; one that connects during a build receives that build's lines from the start.
 *
 * @module
 */
import type { Hono } from "hono";
import type { GraphEngine } from "../../engine.ts";

const KEEP_ALIVE_MS = 15_000;

/** Registers the build stream route, replaying the current build for late joiners. */
export function registerBuildStreamRoute(app: Hono, engine: GraphEngine): void {
  app.get("/api/build/stream", (c) => {
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(`data: ${text.replace(/\r?\n/g, " ")}\n\n`));
          } catch { /* closed */ }
        };
        const log = engine.buildLog;
        if (engine.busy) { for (const l of log.lines) send(l); }
        else if (log.final) send(log.final);
        unsubscribe = engine.subscribe((event) => {
          if (event.kind === "line") send(event.text);
          else if (event.kind === "end") send(event.message);
        });
        timer = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
          } catch { /* closed */ }
        }, KEEP_ALIVE_MS);
        c.req.raw.signal.addEventListener("abort", () => {
          unsubscribe();
          clearInterval(timer);
          try {
            controller.close();
          } catch { /* already closed */ }
        });
      },
      cancel() {
        unsubscribe();
        clearInterval(timer);
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "connection": "keep-alive",
      },
    });
  });
}
