/**
 * `GET /api/openapi.json` (the OpenAPI 3.1 document built from routes.ts) and `GET /api/docs`
 * (Swagger UI rendering it). Swagger UI's files are embedded (lib/api/assets/), so the page works
 * offline and with no node_modules folder.
 *
 * @module
 */
import type { Hono } from "hono";
import { openApiDocument } from "./document.ts";
import { type EmbeddedAsset, embeddedResponse } from "../assets/embedded.ts";
import { UI_MISSING } from "../ui_assets.ts";
import { problem } from "../problem.ts";

/** Content-Security-Policy of `/api/docs` and its files: only this origin, no inline script. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const ASSETS = "/api/docs/assets/";

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>graphsvc · API</title>
  <link rel="stylesheet" href="${ASSETS}swagger-ui.css">
</head>
<body>
  <div id="swagger-ui">Loading the API description…</div>
  <script src="${ASSETS}swagger-ui-bundle.js"></script>
  <script src="${ASSETS}init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: new URL("/api/openapi.json", window.location.href).href,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
});
`;

function withPolicy(res: Response): Response {
  res.headers.set("content-security-policy", DOCS_CSP);
  return res;
}

/**
 * Registers `/api/openapi.json`, `/api/docs` and the page's files (`swaggerUi`; without them
 * `/api/docs` answers `404`, the document is still served).
 */
export function registerOpenApiRoutes(
  app: Hono,
  info: { version: string; edition: "ce" | "ee" },
  swaggerUi?: ReadonlyMap<string, EmbeddedAsset>,
): void {
  let doc: string | undefined;
  app.get("/api/openapi.json", () =>
    new Response(doc ??= JSON.stringify(openApiDocument(info)), {
      headers: { "content-type": "application/json" },
    }));
  app.get(
    "/api/docs",
    () =>
      !swaggerUi ? problem(404, "not-found", `API docs: ${UI_MISSING}`) : withPolicy(
        new Response(PAGE, {
          headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
        }),
      ),
  );
  app.get(`${ASSETS}:file`, async (c) => {
    const file = c.req.param("file");
    if (file === "init.js") {
      return withPolicy(
        new Response(INIT, { headers: { "content-type": "text/javascript; charset=utf-8" } }),
      );
    }
    const asset = swaggerUi?.get(file);
    if (!asset) return problem(404, "not-found", `no API docs file '${file}'`);
    return withPolicy(await embeddedResponse(asset, c.req.raw));
  });
}
