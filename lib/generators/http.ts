/**
 * One HTTP exchange with safety limits (reference GN11, issue item 4): a connect time-out (until
 * the response headers arrive), a total time-out, a response size cap and a redirect cap.
 * Web-standard `fetch` only; the fetch function is injectable for embedders.
 *
 * @module
 */

/** Limits of every generator request. */
export interface HttpLimits {
  /** ms until the response headers must have arrived (default 10 000). */
  connectTimeoutMs: number;
  /** ms for the whole exchange, body included (default 60 000, GN11). */
  totalTimeoutMs: number;
  /** Largest accepted body in bytes (default 64 MiB). */
  maxResponseBytes: number;
  /** Redirects followed (default 10, GN11). */
  maxRedirects: number;
}

/** Defaults of {@link HttpLimits}. */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 60_000,
  maxResponseBytes: 64 * 1024 * 1024,
  maxRedirects: 10,
});

/** A request to send. */
export interface HttpRequest {
  /** Method. */
  method: string;
  /** Absolute URL. */
  url: string;
  /** Headers. */
  headers: Headers;
  /** Body, if any. */
  body?: string;
}

/** A received response (body fully read). */
export interface HttpResponse {
  /** Status code. */
  status: number;
  /** Headers. */
  headers: Headers;
  /** Body text (UTF-8). */
  body: string;
  /** Body size in bytes. */
  bytes: number;
  /** URL after redirects. */
  url: string;
}

/** A transport failure (network error, time-out, limit exceeded). */
export class HttpTransportError extends Error {
  /** @param message what went wrong */
  constructor(message: string) {
    super(message);
    this.name = "HttpTransportError";
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sends `request` and reads the whole body within `limits`. Redirects are followed by hand so
 * they can be counted; `303` (and `301`/`302` after a non-GET) continue as a bodiless GET.
 *
 * @example
 * ```ts ignore
 * const res = await sendRequest({ method: "GET", url: "http://127.0.0.1:8080/", headers: new Headers() });
 * console.log(res.status);
 * ```
 */
export async function sendRequest(
  request: HttpRequest,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
  fetchFn: typeof fetch = fetch,
): Promise<HttpResponse> {
  const total = new AbortController();
  const totalTimer = setTimeout(() => total.abort(), limits.totalTimeoutMs);
  let { method, url, body } = request;
  try {
    for (let hop = 0;; hop++) {
      const connect = new AbortController();
      const connectTimer = setTimeout(() => connect.abort(), limits.connectTimeoutMs);
      let res: Response;
      try {
        res = await fetchFn(url, {
          method,
          headers: request.headers,
          body,
          redirect: "manual",
          signal: AbortSignal.any([total.signal, connect.signal]),
        });
      } catch (e) {
        if (total.signal.aborted) {
          throw new HttpTransportError(`timed out after ${limits.totalTimeoutMs} ms`);
        }
        if (connect.signal.aborted) {
          throw new HttpTransportError(
            `no response within ${limits.connectTimeoutMs} ms (connect time-out)`,
          );
        }
        throw new HttpTransportError(`network error: ${(e as Error).message ?? e}`);
      } finally {
        clearTimeout(connectTimer);
      }
      const location = res.headers.get("location");
      if (REDIRECTS.has(res.status) && location) {
        await res.body?.cancel();
        if (hop >= limits.maxRedirects) {
          throw new HttpTransportError(`more than ${limits.maxRedirects} redirects`);
        }
        url = new URL(location, url).href;
        if (res.status === 303 || (method !== "GET" && res.status <= 302)) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      const bytes = await readLimited(res, limits, total.signal);
      return {
        status: res.status,
        headers: res.headers,
        body: new TextDecoder().decode(bytes),
        bytes: bytes.length,
        url,
      };
    }
  } finally {
    clearTimeout(totalTimer);
  }
}

async function readLimited(
  res: Response,
  limits: HttpLimits,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limits.maxResponseBytes) {
    await res.body?.cancel();
    throw new HttpTransportError(
      `response of ${declared} bytes exceeds the limit of ${limits.maxResponseBytes} bytes`,
    );
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limits.maxResponseBytes) {
        await reader.cancel();
        throw new HttpTransportError(
          `response exceeds the limit of ${limits.maxResponseBytes} bytes`,
        );
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof HttpTransportError) throw e;
    if (signal.aborted) throw new HttpTransportError(`timed out reading the response`);
    throw new HttpTransportError(`network error reading the response: ${(e as Error).message}`);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
