/**
 * `GET /api/build/stream` (reference R50–R54): Server-Sent Events carrying the build log. Each log
 * line is one `data:` event; a build ends with `data: BUILD_COMPLETE` or
 * `data: BUILD_FAILED: <message>`. A client that connects while idle immediately receives the last
 * build's final line; one that connects during a build receives that build's lines from the start.
 * The framing is Hono's `streamSSE`.
 *
 * @module
 */
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { GraphEngine } from "../../engine.ts";

const KEEP_ALIVE_MS = 15_000;

/** Registers the build stream route, replaying the current build for late joiners. */
export function registerBuildStreamRoute(app: Hono, engine: GraphEngine): void {
  app.get("/api/build/stream", (c) =>
    streamSSE(c, async (stream) => {
      // One event per line (R54): a line break inside a message would split it into two
      // `data:` lines of one event, which clients join with "\n".
      const send = (text: string) => {
        stream.writeSSE({ data: text.replace(/\r?\n|\r/g, " ") });
      };
      const log = engine.buildLog;
      if (engine.busy) { for (const l of log.lines) send(l); }
      else if (log.final) send(log.final);
      const unsubscribe = engine.subscribe((event) => {
        if (event.kind === "line") send(event.text);
        else if (event.kind === "end") send(event.message);
      });
      let wake = () => {};
      const closed = new Promise<void>((resolve) => wake = resolve);
      stream.onAbort(() => wake());
      c.req.raw.signal.addEventListener("abort", () => wake());
      const timer = setInterval(() => stream.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      try {
        await closed; // until the client goes away
      } finally {
        clearInterval(timer);
        unsubscribe();
      }
    }));
}
