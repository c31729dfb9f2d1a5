/**
 * Static app hosting (reference AP1–AP6): files of a layer's `app/` folder, read from its
 * workspace on each request (not loaded into builds), with entry files for directories, content
 * types, ETags and `Cache-Control: no-cache`. `proxy.toml` is never served and paths that try to
 * leave the folder answer `404`.
 *
 * @module
 */
import type { Workspace } from "../workspace/workspace.ts";
import { contentTypeOf } from "./content_types.ts";

/** Where one app's files live. */
export interface AppSource {
  /** Mount id (`/apps/<id>/`). */
  readonly id: string;
  /** Display name (the module's `[module].name`, else the id). */
  readonly name: string;
  /** The workspace of the layer. */
  readonly workspace: Workspace;
  /** Folder of the app inside the workspace: `app` or `data/app`. */
  readonly folder: string;
  /** Whether this is the data directory's app (also mounted at `/`, AP2). */
  readonly isDataDir: boolean;
}

/** Entry files of a directory request, in the order they are tried (AP4). */
export const ENTRY_FILES = ["index.html", "index.xml", "index.svg", "index.json", "index.js"];

/** Name of the route file, never served (AP6). */
export const PROXY_FILE = "proxy.toml";

/**
 * Splits the URL path below a mount (`""`, `"/"`, `"/js/a.js"`, still percent-encoded) into
 * decoded segments; `undefined` for anything unsafe: `.`/`..` segments, encoded slashes or
 * backslashes, NUL, bad escapes, or a `proxy.toml` segment at any depth.
 *
 * @example
 * ```ts
 * import { safeSegments } from "./files.ts";
 * safeSegments("/js/main.js"); // ["js", "main.js"]
 * safeSegments("/%2e%2e/secret"); // undefined
 * ```
 */
export function safeSegments(rawPath: string): string[] | undefined {
  const parts = rawPath.split("/");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const raw = parts[i];
    if (raw === "") {
      if (i === 0 || i === parts.length - 1) continue;
      return undefined; // `//` inside a path
    }
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (seg === "." || seg === ".." || /[\/\\\0]/.test(seg)) return undefined;
    if (seg.toLowerCase() === PROXY_FILE) return undefined;
    out.push(seg);
  }
  return out;
}

async function readBytes(ws: Workspace, path: string): Promise<Uint8Array | undefined> {
  try {
    if (ws.readBytes) return await ws.readBytes(path);
    const text = await ws.readText(path);
    return text === undefined ? undefined : new TextEncoder().encode(text);
  } catch {
    return undefined; // unreadable or unsafe (a link leaving the workspace): not served
  }
}

async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest.subarray(0, 16)) hex += b.toString(16).padStart(2, "0");
  return `"${hex}"`;
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** Extra response headers of app files (the app Content-Security-Policy). */
export type AppHeaders = Record<string, string>;

/**
 * Answers a GET/HEAD for `rawPath` (below the mount, percent-encoded) from `source`, or
 * `undefined` when nothing is there (the caller answers `404`). Directories (`""` or a trailing
 * `/`) are answered with their first entry file; a directory named without its trailing slash is
 * redirected (`308`) to it, like the mount itself (AP3).
 *
 * @example
 * ```ts ignore
 * const res = await serveAppFile(source, "/index.html", request, {});
 * ```
 */
export async function serveAppFile(
  source: AppSource,
  rawPath: string,
  request: Request,
  headers: AppHeaders = {},
): Promise<Response | undefined> {
  const segments = safeSegments(rawPath);
  if (!segments) return undefined;
  const base = [source.folder, ...segments].join("/");
  const isDir = segments.length === 0 || rawPath.endsWith("/");
  let path: string | undefined;
  let bytes: Uint8Array | undefined;
  if (isDir) {
    for (const entry of ENTRY_FILES) {
      bytes = await readBytes(source.workspace, `${base}/${entry}`);
      if (bytes) {
        path = `${base}/${entry}`;
        break;
      }
    }
  } else {
    bytes = await readBytes(source.workspace, base);
    path = base;
    if (!bytes && (await source.workspace.listFiles(base).catch(() => [])).length > 0) {
      const url = new URL(request.url);
      return new Response(null, {
        status: 308,
        headers: { location: `${url.pathname}/${url.search}` },
      });
    }
  }
  if (!bytes || !path) return undefined;
  const etag = await etagOf(bytes);
  const common = { ...headers, etag, "cache-control": "no-cache" };
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers: common });
  }
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      ...common,
      "content-type": contentTypeOf(path),
      "content-length": String(bytes.length),
    },
  });
}
