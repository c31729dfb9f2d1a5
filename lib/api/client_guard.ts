/**
 * Per-client accounting in the request handler: the most requests one client address may have
 * in flight at once. Over the cap a request is answered `503` with `Retry-After` and
 * `Connection: close`, without reaching the app. This replaces the connection cap of the former
 * TCP front; caps on open (idle) connections belong to the reverse proxy in front
 * (docs/deploy/haproxy.cfg).
 *
 * @module
 */
import { problem } from "./problem.ts";

/** What the runtime's server says of a request's connection (`Deno.ServeHandlerInfo`). */
export interface ClientInfo {
  /** The peer address; `hostname` is absent on Unix sockets. */
  readonly remoteAddr: { readonly hostname?: string };
}

/** A handler wrapper from {@link clientGuard}, with the number of requests in flight. */
export interface ClientGuard {
  /** Answers `request` through `next` unless its client is over the cap. */
  (
    request: Request,
    info: ClientInfo,
    next: (request: Request) => Response | Promise<Response>,
  ): Response | Promise<Response>;
  /** Requests being handled now, over every client. */
  inFlight(): number;
}

/**
 * Caps the requests in flight per client address at `max` (until the handler has answered).
 *
 * @example
 * ```ts
 * const guard = clientGuard(2);
 * const info = { remoteAddr: { hostname: "127.0.0.1" } };
 * const res = await guard(new Request("http://x/"), info, () => new Response("ok"));
 * console.log(res.status, guard.inFlight()); // 200 0
 * ```
 */
export function clientGuard(max: number): ClientGuard {
  const perClient = new Map<string, number>();
  let total = 0;
  const release = (client: string) => {
    total--;
    const left = perClient.get(client)! - 1;
    if (left > 0) perClient.set(client, left);
    else perClient.delete(client);
  };
  const guard = (
    request: Request,
    info: ClientInfo,
    next: (request: Request) => Response | Promise<Response>,
  ): Response | Promise<Response> => {
    const client = info.remoteAddr.hostname ?? "";
    const count = perClient.get(client) ?? 0;
    if (count >= max) {
      return problem(
        503,
        "service-unavailable",
        "too many requests in flight from your address",
        {},
        {
          "retry-after": "1",
          connection: "close",
        },
      );
    }
    perClient.set(client, count + 1);
    total++;
    let answer: Response | Promise<Response>;
    try {
      answer = next(request);
    } catch (e) {
      release(client);
      throw e;
    }
    if (!(answer instanceof Promise)) {
      release(client);
      return answer;
    }
    return answer.finally(() => release(client));
  };
  return Object.assign(guard, { inFlight: () => total });
}
