/**
 * Deno adapter of the apps' `UnixFetch` port: HTTP requests over a Unix domain socket (the
 * sockets of running service actions, reference AP16/AC32). One HTTP client per socket path.
 *
 * @module
 */
import type { UnixFetch } from "../../apps/proxy.ts";

/**
 * Creates a {@link UnixFetch} backed by `Deno.createHttpClient` with a Unix socket transport.
 * `close()` releases every client.
 *
 * @example
 * ```ts ignore
 * const unix = createUnixFetch();
 * const res = await unix.fetch("/run/action.sock", new Request("http://localhost/health"));
 * unix.close();
 * ```
 */
export function createUnixFetch(): { fetch: UnixFetch; close(): void } {
  const clients = new Map<string, Deno.HttpClient>();
  return {
    fetch: (socketPath, request) => {
      let client = clients.get(socketPath);
      if (!client) {
        client = Deno.createHttpClient({ proxy: { transport: "unix", path: socketPath } });
        clients.set(socketPath, client);
      }
      return fetch(request, { client });
    },
    close() {
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
}
