/**
 * Reading and validating generator declarations (reference GN1–GN4, GN10, GN14, GN20, GN30):
 * `[generator.<name>]` and `[generators.<name>]` tables of every manifest, in run order (modules
 * in load order, the data directory last; declaration order within a manifest, GN5).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { normalizeWorkspacePath, UnsafePathError } from "../workspace/workspace.ts";
import { parseDuration } from "./duration.ts";
import { GeneratorConfigError } from "./errors.ts";

/** A manifest of one layer, parsed. */
export interface ManifestLayer {
  /** Layer id: `data` for the data directory, else the module id. */
  id: string;
  /** Whether this is the data directory. */
  isDataDir: boolean;
  /** Where the layer lives (its `generators/` folder holds exec scripts, GN31). */
  location: string;
  /** The parsed `module.toml`. */
  doc: Record<string, JsonValue>;
  /** The manifest text (gives the declaration order across both spellings). */
  text?: string;
}

/** Pagination settings (GN20). */
export interface PaginationDeclaration {
  /** Only `cursor`. */
  strategy: "cursor";
  /** JMESPath evaluated on each raw page. */
  cursorJmespath: string;
  /** Where the cursor goes. */
  injectInto: "url" | "query" | "payload" | "header";
  /** Page cap (default 100). */
  maxPages: number;
}

/** Keys of the `http` runner (GN10). */
export interface HttpDeclaration {
  /** URL template. */
  url: string;
  /** HTTP method. */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Header templates in declaration order. */
  injectHeaders: [string, string][];
  /** Body template. */
  payload?: string;
  /** User-Agent template. */
  userAgent?: string;
  /** Secrets exposed as `secrets.<name>`. */
  vaultSecrets: [string, { collection: string; secret: string }][];
  /** Response filter. */
  responseFilter?: { kind: "jmespath" | "tera"; source: string };
  /** Automatic paging. */
  pagination?: PaginationDeclaration;
}

/** Keys of the `exec` runner (GN30). */
export interface ExecDeclaration {
  /** argv templates. */
  command: string[];
  /** `KEY=VALUE` templates. */
  env: [string, string][];
  /** Capture stdout into the target. */
  fromStdout: boolean;
}

/** One validated generator. */
export interface GeneratorDeclaration {
  /** Generator name. */
  name: string;
  /** Declaring layer id. */
  module: string;
  /** Manifest path for messages. */
  file: string;
  /** Location of the declaring layer. */
  moduleLocation: string;
  /** Runner. */
  runner: "http" | "exec";
  /** Documentation. */
  description?: string;
  /** Target, relative to the data directory: `input/<name>` or `assets/<name>`. */
  targetPath: string;
  /** Which target key was declared. */
  targetKind: "target_input" | "target_asset";
  /** GN7. */
  abortOnFailure: boolean;
  /** `ttl` as written. */
  ttl?: string;
  /** `ttl` in milliseconds. */
  ttlMs?: number;
  /** `condition = "on_missing"`. */
  onMissing: boolean;
  /** http keys, when `runner = "http"`. */
  http?: HttpDeclaration;
  /** exec keys, when `runner = "exec"`. */
  exec?: ExecDeclaration;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const INJECT = ["url", "query", "payload", "header"] as const;

/**
 * The keys of a `[generator.<name>]` / `[generators.<name>]` table that {@link readGenerators}
 * reads (GN2 common keys, GN10 http, GN30 exec); manifest key checks warn about any other key.
 */
export const GENERATOR_KEYS: readonly string[] = [
  "runner",
  "description",
  "target_input",
  "target_asset",
  "abort_on_failure",
  "ttl",
  "condition",
  "url",
  "method",
  "inject_headers",
  "payload",
  "user_agent",
  "vault_secrets",
  "response_filter",
  "pagination",
  "command",
  "env",
  "from_stdout",
];

/** The keys of a generator's `pagination` table (GN20). */
export const GENERATOR_PAGINATION_KEYS: readonly string[] = [
  "strategy",
  "cursor_jmespath",
  "inject_into",
  "max_pages",
];

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The tables of both spellings of one manifest, in declaration order (GN1, GN5). */
function tablesOf(layer: ManifestLayer, file: string): [string, Record<string, JsonValue>][] {
  const found: [string, Record<string, JsonValue>, number][] = [];
  const seen = new Set<string>();
  for (const key of ["generator", "generators"]) {
    const section = layer.doc[key];
    if (section === undefined) continue;
    if (!isTable(section)) {
      throw new GeneratorConfigError("generator_invalid", key, file, `'${key}' must be a table`);
    }
    let i = 0;
    for (const [name, spec] of Object.entries(section)) {
      if (!isTable(spec)) {
        throw new GeneratorConfigError("generator_invalid", name, file, "must be a table");
      }
      if (seen.has(name)) {
        throw new GeneratorConfigError(
          "generator_duplicate",
          name,
          file,
          "declared both as [generator.*] and [generators.*]",
        );
      }
      seen.add(name);
      found.push([name, spec, declarationIndex(layer.text, key, name) ?? 1e9 + i++]);
    }
  }
  return found.sort((a, b) => a[2] - b[2]).map(([n, t]) => [n, t]);
}

function declarationIndex(text: string | undefined, key: string, name: string): number | undefined {
  if (text === undefined) return undefined;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(
    `^\\s*\\[\\s*${key}\\s*\\.\\s*(?:"${escaped}"|'${escaped}'|${escaped})\\s*[\\].]`,
    "m",
  );
  const m = re.exec(text);
  return m ? m.index : undefined;
}

/**
 * Every generator of the given manifests, validated, in run order (GN5). Throws
 * {@link GeneratorConfigError} for the first invalid declaration.
 *
 * @example
 * ```ts
 * import { readGenerators } from "./declarations.ts";
 * const [g] = readGenerators([{ id: "data", isDataDir: true, location: "/srv/data", doc: {
 *   generator: { regions: { url: "http://127.0.0.1:1/r.json", target_input: "regions.json" } },
 * } }]);
 * console.log(g.runner, g.targetPath); // "http" "input/regions.json"
 * ```
 */
export function readGenerators(layers: readonly ManifestLayer[]): GeneratorDeclaration[] {
  const out: GeneratorDeclaration[] = [];
  for (const layer of layers) {
    const file = layer.isDataDir ? "module.toml" : `${layer.id}/module.toml`;
    for (const [name, table] of tablesOf(layer, file)) {
      out.push(readOne(name, table, layer, file));
    }
  }
  return out;
}

function readOne(
  name: string,
  t: Record<string, JsonValue>,
  layer: ManifestLayer,
  file: string,
): GeneratorDeclaration {
  const fail = (code: string, reason: string): never => {
    throw new GeneratorConfigError(code, name, file, reason);
  };
  const str = (key: string): string | undefined => {
    const v = t[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string") fail("generator_invalid", `'${key}' must be a string`);
    return v as string;
  };
  const input = str("target_input");
  const asset = str("target_asset");
  if ((input === undefined) === (asset === undefined)) {
    fail("generator_target", "declare exactly one of target_input and target_asset");
  }
  let target = "";
  try {
    target = normalizeWorkspacePath((input ?? asset)!);
  } catch (e) {
    if (!(e instanceof UnsafePathError)) throw e;
    fail("generator_target", `target must be a plain relative path: ${e.message}`);
  }
  let runner = str("runner");
  if (runner === undefined) {
    runner = t.command !== undefined ? "exec" : t.url !== undefined ? "http" : undefined;
    if (runner === undefined) fail("generator_runner", "no runner: declare 'url' or 'command'");
  }
  if (runner !== "http" && runner !== "exec") {
    fail("generator_runner", `unknown runner '${runner}' (expected http or exec)`);
  }
  const abort = t.abort_on_failure;
  if (abort !== undefined && typeof abort !== "boolean") {
    fail("generator_invalid", "'abort_on_failure' must be a boolean");
  }
  const ttl = str("ttl");
  const ttlMs = ttl === undefined ? undefined : parseDuration(ttl);
  if (ttl !== undefined && ttlMs === undefined) {
    fail("generator_ttl", `invalid ttl '${ttl}' (e.g. "90s", "30m", "6h", "1d", "1h30m")`);
  }
  const condition = str("condition");
  if (condition !== undefined && condition !== "on_missing") {
    fail("generator_condition", `unknown condition '${condition}' (expected "on_missing")`);
  }
  const decl: GeneratorDeclaration = {
    name,
    module: layer.id,
    file,
    moduleLocation: layer.location,
    runner: runner as "http" | "exec",
    description: str("description"),
    targetPath: `${input !== undefined ? "input" : "assets"}/${target}`,
    targetKind: input !== undefined ? "target_input" : "target_asset",
    abortOnFailure: abort === true,
    ttl,
    ttlMs,
    onMissing: condition === "on_missing",
  };
  if (runner === "http") decl.http = readHttp(t, str, fail);
  else decl.exec = readExec(t, fail);
  return decl;
}

type Str = (key: string) => string | undefined;
type Fail = (code: string, reason: string) => never;

function readHttp(t: Record<string, JsonValue>, str: Str, fail: Fail): HttpDeclaration {
  const url = str("url") ?? fail("generator_invalid", "the http runner needs 'url'");
  const method = (str("method") ?? "GET").toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) {
    fail("generator_method", `unsupported method '${method}' (${METHODS.join(", ")})`);
  }
  const headers: [string, string][] = [];
  if (t.inject_headers !== undefined) {
    if (!isTable(t.inject_headers)) fail("generator_invalid", "'inject_headers' must be a table");
    for (const [k, v] of Object.entries(t.inject_headers as Record<string, JsonValue>)) {
      if (typeof v !== "string") fail("generator_invalid", `inject_headers.${k} must be a string`);
      headers.push([k, v as string]);
    }
  }
  const secrets: HttpDeclaration["vaultSecrets"] = [];
  if (t.vault_secrets !== undefined) {
    if (!isTable(t.vault_secrets)) fail("generator_invalid", "'vault_secrets' must be a table");
    for (const [k, v] of Object.entries(t.vault_secrets as Record<string, JsonValue>)) {
      if (!isTable(v) || typeof v.collection !== "string" || typeof v.secret !== "string") {
        fail("generator_vault", `vault_secrets.${k} needs string 'collection' and 'secret'`);
      }
      const s = v as Record<string, string>;
      secrets.push([k, { collection: s.collection, secret: s.secret }]);
    }
  }
  return {
    url,
    method: method as HttpDeclaration["method"],
    injectHeaders: headers,
    payload: str("payload"),
    userAgent: str("user_agent"),
    vaultSecrets: secrets,
    responseFilter: readFilter(t.response_filter, fail),
    pagination: readPagination(t.pagination, fail),
  };
}

function readFilter(v: JsonValue | undefined, fail: Fail): HttpDeclaration["responseFilter"] {
  if (v === undefined) return undefined;
  if (!isTable(v)) return fail("generator_filter", "'response_filter' must be a table");
  const keys = Object.keys(v);
  if (keys.length !== 1 || (keys[0] !== "jmespath!" && keys[0] !== "tera!")) {
    fail("generator_filter", 'response_filter needs exactly one key: "jmespath!" or "tera!"');
  }
  const source = v[keys[0]];
  if (typeof source !== "string") {
    fail("generator_filter", `response_filter.${keys[0]} must be a string`);
  }
  return { kind: keys[0] === "tera!" ? "tera" : "jmespath", source: source as string };
}

function readPagination(v: JsonValue | undefined, fail: Fail): PaginationDeclaration | undefined {
  if (v === undefined) return undefined;
  if (!isTable(v)) return fail("generator_pagination", "'pagination' must be a table");
  const strategy = v.strategy ?? "cursor";
  if (strategy !== "cursor") {
    fail("generator_pagination", `unknown pagination strategy '${strategy}' (only "cursor")`);
  }
  if (typeof v.cursor_jmespath !== "string" || v.cursor_jmespath === "") {
    fail("generator_pagination", "pagination needs 'cursor_jmespath'");
  }
  const inject = v.inject_into ?? "url";
  if (!(INJECT as readonly JsonValue[]).includes(inject)) {
    fail("generator_pagination", `inject_into must be one of ${INJECT.join(", ")}`);
  }
  const maxPages = v.max_pages ?? 100;
  if (typeof maxPages !== "number" || !Number.isInteger(maxPages) || maxPages < 1) {
    fail("generator_pagination", "max_pages must be an integer >= 1");
  }
  return {
    strategy: "cursor",
    cursorJmespath: v.cursor_jmespath as string,
    injectInto: inject as PaginationDeclaration["injectInto"],
    maxPages: maxPages as number,
  };
}

function readExec(t: Record<string, JsonValue>, fail: Fail): ExecDeclaration {
  const cmd = t.command;
  if (!Array.isArray(cmd) || cmd.length === 0 || cmd.some((c) => typeof c !== "string")) {
    fail("generator_invalid", "'command' must be a non-empty array of strings");
  }
  const env: [string, string][] = [];
  if (t.env !== undefined) {
    if (!Array.isArray(t.env)) fail("generator_invalid", "'env' must be an array of \"KEY=VALUE\"");
    for (const item of t.env as JsonValue[]) {
      const eq = typeof item === "string" ? item.indexOf("=") : -1;
      if (eq <= 0) fail("generator_invalid", `env entry ${JSON.stringify(item)} is not KEY=VALUE`);
      env.push([(item as string).slice(0, eq), (item as string).slice(eq + 1)]);
    }
  }
  if (t.from_stdout !== undefined && typeof t.from_stdout !== "boolean") {
    fail("generator_invalid", "'from_stdout' must be a boolean");
  }
  return { command: cmd as string[], env, fromStdout: t.from_stdout === true };
}
