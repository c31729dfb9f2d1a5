/**
 * The `http` runner (reference GN10–GN24): renders the request, sends it within limits, follows
 * cursor pagination, applies the response filter and shapes the result for the target file.
 *
 * @module
 */
import { runJmespath } from "../template/extensions/mod.ts";
import { describeError } from "../pipeline/errors.ts";
import type { GeneratorDeclaration, HttpDeclaration } from "./declarations.ts";
import { GeneratorRunError } from "./errors.ts";
import { type HttpLimits, type HttpResponse, sendRequest } from "./http.ts";
import { combinePages, isJsonType, parseBody, serializeTarget, toCsv } from "./output.ts";
import type { GeneratorTemplates, RenderScope } from "./render.ts";
import type { SecretMasker } from "./secrets.ts";

/** What the http runner needs besides the declaration. */
export interface HttpRunOptions {
  /** Variables (secrets are filled in by the runner). */
  scope: RenderScope;
  /** Template renderer with the secret provider. */
  templates: GeneratorTemplates;
  /** Masker of secret values. */
  masker: SecretMasker;
  /** Request limits. */
  limits: HttpLimits;
  /** fetch implementation. */
  fetchFn: typeof fetch;
  /** Default `User-Agent`. */
  userAgent: string;
  /** Validators of the current target file, for a conditional request. */
  validators?: { etag?: string; lastModified?: string };
  /** Warnings (already masked by the caller). */
  warn: (text: string) => void;
  /** Progress lines of a paginated run, one per page with the items so far (GN8). */
  progress?: (text: string) => void;
}

/** Result of an http generator run. */
export type HttpRunResult =
  | { kind: "not_modified" }
  | {
    kind: "written";
    /** Text for the target file. */
    text: string;
    /** Pages fetched. */
    pages: number;
    /**
     * Items fetched: the entries of a JSON array (or 1 for another JSON value), the data rows of
     * a CSV target; `undefined` for other text.
     */
    items?: number;
    /** Validators of the response (single-page runs only). */
    etag?: string;
    lastModified?: string;
  };

interface Rendered {
  url: string;
  headers: Headers;
  body?: string;
}

/**
 * Runs an http generator; throws {@link GeneratorRunError} (masked) on failure (GN7).
 *
 * @example
 * ```ts ignore
 * const result = await runHttpGenerator(decl, options);
 * if (result.kind === "written") console.log(result.pages);
 * ```
 */
export async function runHttpGenerator(
  decl: GeneratorDeclaration,
  o: HttpRunOptions,
): Promise<HttpRunResult> {
  const h = decl.http!;
  let shownUrl = h.url;
  const fail = (reason: string): never => {
    throw new GeneratorRunError(
      decl.name,
      decl.module,
      o.masker.mask(`${h.method} ${shownUrl}`),
      o.masker.mask(reason),
    );
  };
  const attempt = async <T>(what: string, f: () => Promise<T> | T): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof GeneratorRunError) throw e;
      return fail(`${what}: ${describeError(e)}`);
    }
  };
  const secrets: Record<string, string> = {};
  for (const [name, ref] of h.vaultSecrets) {
    secrets[name] = await attempt(
      `vault_secrets.${name}`,
      () => o.templates.secret(ref.collection, ref.secret),
    );
  }
  const scope: RenderScope = { ...o.scope, secrets };
  const paging = h.pagination;
  const results: unknown[] = [];
  let previous: { signature: string; url: string } | undefined;
  let cursor: string | undefined;
  let last: HttpResponse | undefined;
  for (let page = 1;; page++) {
    const extra = cursor === undefined ? {} : { cursor };
    const req = await attempt(
      "template",
      () => renderRequest(decl, h, scope, o, extra, page, cursor, previous?.url),
    );
    shownUrl = req.url;
    const signature = JSON.stringify([req.url, [...req.headers], req.body ?? null]);
    if (previous && signature === previous.signature) {
      o.warn(
        `generator ${decl.name}: page ${page} would repeat the previous request; ` +
          `stopping (reference the cursor in the request with {{ cursor }})`,
      );
      break;
    }
    const conditional = page === 1 && !paging && o.validators;
    if (conditional && o.validators?.etag) req.headers.set("if-none-match", o.validators.etag);
    if (conditional && o.validators?.lastModified) {
      req.headers.set("if-modified-since", o.validators.lastModified);
    }
    const res = await attempt("request failed", () =>
      sendRequest(
        { method: h.method, url: req.url, headers: req.headers, body: req.body },
        o.limits,
        o.fetchFn,
      ));
    if (res.status === 304 && conditional) return { kind: "not_modified" };
    if (res.status < 200 || res.status > 299) {
      const snippet = res.body.slice(0, 200).replace(/\s+/g, " ").trim();
      fail(`HTTP ${res.status}${snippet ? `: ${snippet}` : ""}`);
    }
    last = res;
    if (!paging && !h.responseFilter) return verbatim(decl, res, fail);
    const parsed = parseBody(res.body, res.headers.get("content-type"), res.url);
    if (paging && typeof parsed === "string") fail(`page ${page} is not valid JSON`);
    results.push(
      await attempt(`response_filter (page ${page})`, () => applyFilter(decl, h, parsed, scope, o)),
    );
    if (!paging) break;
    o.progress?.(
      `generator ${decl.name}: page ${page} fetched, ${countItems(combinePages(results))} item(s)`,
    );
    const next = await attempt(
      "cursor_jmespath",
      () => runJmespath("cursor_jmespath", parsed, paging.cursorJmespath),
    );
    const nextCursor = next === null || next === undefined
      ? ""
      : typeof next === "string"
      ? next
      : JSON.stringify(next);
    if (nextCursor === "" || nextCursor === cursor) break;
    if (page >= paging.maxPages) {
      o.warn(
        `generator ${decl.name}: stopped at max_pages = ${paging.maxPages}; more pages remain`,
      );
      break;
    }
    previous = { signature, url: req.url };
    cursor = nextCursor;
  }
  const value = combinePages(results);
  return {
    kind: "written",
    text: serializeTarget(decl.targetPath, value),
    pages: results.length,
    items: countItems(value),
    ...(results.length === 1 && last ? validators(last) : {}),
  };
}

function validators(res: HttpResponse): { etag?: string; lastModified?: string } {
  return {
    etag: res.headers.get("etag") ?? undefined,
    lastModified: res.headers.get("last-modified") ?? undefined,
  };
}

/** No filter, no pagination: the body as it is (GN13); a `.json` target must hold JSON. */
function verbatim(
  decl: GeneratorDeclaration,
  res: HttpResponse,
  fail: (reason: string) => never,
): HttpRunResult {
  let text = res.body;
  const target = decl.targetPath.toLowerCase();
  if (target.endsWith(".json")) {
    try {
      JSON.parse(text);
    } catch (e) {
      fail(`response is not valid JSON (${(e as Error).message})`);
    }
  } else if (target.endsWith(".csv") && isJsonType(res.headers.get("content-type"))) {
    try {
      text = toCsv(JSON.parse(text)) ?? text;
    } catch { /* not JSON after all: written as is */ }
  }
  return {
    kind: "written",
    text,
    pages: 1,
    items: verbatimItems(target, text),
    ...validators(res),
  };
}

/** Non-empty records of a CSV text (line breaks inside quotes do not end one). */
function csvRecords(text: string): number {
  let records = 0;
  let quoted = false;
  let filled = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === "\n" || ch === "\r")) {
      if (filled) records++;
      filled = false;
    } else filled = true;
  }
  return filled ? records + 1 : records;
}

/** Items of a fetched value: an array's entries, 1 for any other value. */
function countItems(value: unknown): number {
  return Array.isArray(value) ? value.length : 1;
}

/** Items of a body written as it came: JSON as {@link countItems}, a CSV's data rows. */
function verbatimItems(target: string, text: string): number | undefined {
  if (target.endsWith(".csv")) return Math.max(0, csvRecords(text) - 1);
  try {
    return countItems(JSON.parse(text));
  } catch {
    return undefined;
  }
}

async function applyFilter(
  decl: GeneratorDeclaration,
  h: HttpDeclaration,
  parsed: unknown,
  scope: RenderScope,
  o: HttpRunOptions,
): Promise<unknown> {
  const f = h.responseFilter;
  if (!f) return parsed;
  if (f.kind === "jmespath") return runJmespath("response_filter", parsed, f.source);
  const text = await o.templates.render(f.source, scope, `${decl.name}.response_filter`, {
    extra: { response: parsed },
  });
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`the tera! filter did not produce valid JSON (${(e as Error).message})`);
  }
}

async function renderRequest(
  decl: GeneratorDeclaration,
  h: HttpDeclaration,
  scope: RenderScope,
  o: HttpRunOptions,
  extra: Record<string, unknown>,
  page: number,
  cursor: string | undefined,
  previousUrl: string | undefined,
): Promise<Rendered> {
  const r = (src: string, field: string, vault: boolean) =>
    o.templates.render(src, scope, `${decl.name}.${field}`, { vault, extra });
  // inject_into = "url": the cursor is the next URL (relative: against the previous one, GN22).
  const url = page > 1 && h.pagination?.injectInto === "url"
    ? new URL(cursor!, previousUrl).href
    : new URL((await r(h.url, "url", true)).trim()).href;
  const headers = new Headers();
  headers.set("user-agent", h.userAgent ? await r(h.userAgent, "user_agent", false) : o.userAgent);
  for (const [k, v] of h.injectHeaders) headers.set(k, await r(v, `inject_headers.${k}`, true));
  let body: string | undefined;
  if (h.payload !== undefined && ["POST", "PUT", "PATCH"].includes(h.method)) {
    body = await r(h.payload, "payload", true);
    if (!headers.has("content-type")) {
      try {
        JSON.parse(body);
        headers.set("content-type", "application/json");
      } catch { /* not JSON: no content type implied (GN12) */ }
    }
  }
  return { url, headers, body };
}
