// The explorer's data access: only the public REST and GraphQL API of graphsvc, same origin.

/** The generation the next reads must include (set after a write: read-your-writes). */
let minGeneration = 0;

/** An API error carrying the problem document. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function parse(res) {
  const type = res.headers.get("content-type") || "";
  const body = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(res.status, typeof body === "object" ? body : { detail: body });
  return body;
}

/** GET a JSON document; waits for the last write's generation. */
export async function get(path, params = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
  }
  const headers = { accept: "application/json" };
  if (minGeneration > 0) headers["Graphsvc-Min-Generation"] = String(minGeneration);
  // 504: the build with our write is still running after the server's wait bound; ask again.
  for (let attempt = 1;; attempt++) {
    const res = await fetch(url, { headers });
    if (res.status !== 504 || minGeneration === 0 || attempt >= 6) return parse(res);
    await res.body?.cancel();
  }
}

/** Sends a write to the auto-CRUD endpoints; remembers the generation that will contain it. */
export async function write(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const result = await parse(res);
  const gen = Number(res.headers.get("Graphsvc-Generation") || result.generation || 0);
  if (gen > minGeneration) minGeneration = gen;
  return result;
}

/** Path of one resource's REST read. */
export function resourcePath(type, name) {
  return `/api/resources/${encodeURIComponent(type)}/${encodeURIComponent(name)}`;
}

/** Path of an auto-CRUD row. */
export function rowPath(asset, name) {
  return `/api/mutations/${encodeURIComponent(asset)}` +
    (name === undefined ? "" : `/${encodeURIComponent(name)}`);
}
