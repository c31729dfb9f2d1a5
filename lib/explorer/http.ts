/**
 * Serves the graph explorer (issue 17): the page at `/explorer` (and, through the app routes, at
 * `/` when no app is mounted there) and its embedded files at `/explorer/assets/{file}`. The page
 * is a plain-ES-module client of the public REST API (`/api/resources…`, `/api/search`,
 * `/api/build/stream`, `/api/mutations/…`); nothing is loaded from another origin.
 *
 * @module
 */
import type { Hono } from "hono";
import { UI_MISSING, type UiTextAsset } from "../api/ui_assets.ts";
import { problem } from "../api/problem.ts";

/** Content-Security-Policy of the explorer: its own files, the API on the same origin. */
export const EXPLORER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // cytoscape and the legend set element styles from script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The explorer page as a response; `apps` are linked from its header (the root page, AP2).
 *
 * @example
 * ```ts
 * import { explorerPage } from "./http.ts";
 * import { uiAssets } from "../../ui.ts";
 * const res = explorerPage(uiAssets.explorer, [{ id: "editor", name: "Editor" }]);
 * (await res.text()).includes('href="/apps/editor/"'); // true
 * ```
 */
export function explorerPage(
  assets: Readonly<Record<string, UiTextAsset>>,
  apps: readonly { id: string; name: string }[] = [],
): Response {
  const links = apps.map((a) =>
    `<a href="/apps/${encodeURIComponent(a.id)}/">${escapeHtml(a.name)}</a>`
  ).join("\n        ");
  return new Response(assets["index.html"].body.replace("<!--apps-->", links), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "content-security-policy": EXPLORER_CSP,
    },
  });
}

/**
 * Registers `/explorer`, `/explorer/` and `/explorer/assets/{file}` on `app`, serving `assets`
 * (without them each answers `404`).
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { registerExplorerRoutes } from "./http.ts";
 * import { uiAssets } from "../../ui.ts";
 * const app = new Hono();
 * registerExplorerRoutes(app, uiAssets.explorer);
 * (await app.request("/explorer/assets/app.js")).status; // 200
 * ```
 */
export function registerExplorerRoutes(
  app: Hono,
  assets?: Readonly<Record<string, UiTextAsset>>,
): void {
  if (!assets) {
    const missing = () => problem(404, "not-found", `explorer: ${UI_MISSING}`);
    app.get("/explorer", missing);
    app.get("/explorer/*", missing);
    return;
  }
  app.get("/explorer", () => explorerPage(assets));
  app.get("/explorer/", () => explorerPage(assets));
  app.get("/explorer/assets/:file", (c) => {
    const file = c.req.param("file");
    const asset = file !== "index.html" && Object.hasOwn(assets, file) ? assets[file] : undefined;
    if (!asset) return problem(404, "not-found", `no explorer file '${file}'`);
    return new Response(asset.body, {
      headers: {
        "content-type": asset.contentType,
        "cache-control": "no-cache",
        "content-security-policy": EXPLORER_CSP,
      },
    });
  });
}
