// The explorer's data access: only the public REST and GraphQL API of graphsvc, same origin.

/** The generation the next reads must include (set after a write: read-your-writes). */
let minGeneration = 0;

/** sessionStorage key of the API token writes send under `--protect-writes`. */
const TOKEN_KEY = "graphsvc.apiToken";

/** Header the server checks the token in (lib/api/auth.ts). */
const TOKEN_HEADER = "X-API-Token";

/**
 * Asks the user for the API token: `(message) => Promise<string | null>` (null: cancelled).
 * Set by the shell with {@link onTokenNeeded}.
 */
let askToken = () => Promise.resolve(null);

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
  // 504: the build with our write is still running after the server's wait bound; ask again.
  for (let attempt = 1;; attempt++) {
    const headers = { accept: "application/json" };
    if (minGeneration > 0) headers["Graphsvc-Min-Generation"] = String(minGeneration);
    const res = await fetch(url, { headers });
    if (minGeneration > 0 && res.status === 409) {
      // The build that was to contain our write failed: the served graph is the newest there
      // will be until the next build, so read it (the build status shows the failure).
      await res.body?.cancel();
      minGeneration = 0;
      continue;
    }
    if (res.status !== 504 || minGeneration === 0 || attempt >= 6) return parse(res);
    await res.body?.cancel();
  }
}

/** The API token kept for this tab, or "" (never sent anywhere but this origin's writes). */
export function apiToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

/** Keeps (or, with "", forgets) the API token for this tab. */
export function setApiToken(token) {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch { /* storage disabled: the token lives for this write only */ }
}

/** Registers the prompt asking for the API token when a write is refused for want of it. */
export function onTokenNeeded(ask) {
  askToken = ask;
}

/** True when the server refused a write for a missing or wrong `X-API-Token` (`401`). */
function needsToken(res) {
  return res.status === 401;
}

/**
 * Sends a write to the auto-CRUD endpoints; remembers the generation that will contain it.
 * Under `--protect-writes` it sends the tab's API token, asking for one when the server refuses
 * the write without a valid token.
 */
export async function write(method, path, body) {
  let token = apiToken();
  for (;;) {
    const headers = { "content-type": "application/json", accept: "application/json" };
    if (token) headers[TOKEN_HEADER] = token;
    const res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (needsToken(res)) {
      const problem = await res.json().catch(() => ({}));
      const given = await askToken(problem.detail || "This server needs an API token for writes.");
      if (!given) throw new ApiError(res.status, problem);
      setApiToken(given);
      token = given;
      continue;
    }
    const result = await parse(res);
    const gen = Number(res.headers.get("Graphsvc-Generation") || result.generation || 0);
    if (gen > minGeneration) minGeneration = gen;
    return result;
  }
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
