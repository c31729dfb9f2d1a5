/**
 * Small request bodies read once: the reading-deadline middleware (security.ts) reads a small
 * declared body whole before the handler runs. On the paths listed here the handler takes those
 * bytes from {@link prereadBody} and the request stays the runtime's own `Request` (its body
 * consumed); every other path gets a `Request` rebuilt around the bytes, for consumers that read
 * `request.body`. Rebuilding cost a third of a cached GraphQL POST in process (47 → 33 µs,
 * bench/serving_cpu_bench.ts).
 *
 * @module
 */

/** Paths whose handler reads small bodies through {@link prereadBody}: the GraphQL endpoint. */
export const PREREAD_PATHS: ReadonlySet<string> = new Set(["/graphql"]);

const bodies = new WeakMap<Request, ArrayBuffer>();

/**
 * Hands the bytes read from `request`'s body to its handler.
 *
 * @example
 * ```ts
 * const request = new Request("http://x/graphql", { method: "POST", body: "{}" });
 * handOverBody(request, await request.arrayBuffer());
 * console.log(prereadBody(request)?.byteLength); // 2
 * ```
 */
export function handOverBody(request: Request, bytes: ArrayBuffer): void {
  bodies.set(request, bytes);
}

/**
 * The body of `request` when the reading-deadline middleware has already read it, else
 * `undefined`: read `request` itself.
 *
 * @example
 * ```ts
 * const request = new Request("http://x/graphql", { method: "POST", body: "{}" });
 * const bytes = prereadBody(request) ?? await request.arrayBuffer();
 * console.log(bytes.byteLength); // 2
 * ```
 */
export function prereadBody(request: Request): ArrayBuffer | undefined {
  return bodies.get(request);
}
