/**
 * The built-in page at `/` when the data directory has no app (AP2): links to every app,
 * GraphiQL and the API.
 *
 * @module
 */
import type { AppSource } from "./files.ts";

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The HTML of the root page.
 *
 * @example
 * ```ts
 * import { rootPage } from "./root_page.ts";
 * rootPage([]).includes('href="/graphiql"'); // true
 * ```
 */
export function rootPage(apps: readonly Pick<AppSource, "id" | "name">[]): string {
  const items = apps.map((a) =>
    `<li><a href="/apps/${encodeURIComponent(a.id)}/">${escapeHtml(a.name)}</a> ` +
    `<code>/apps/${escapeHtml(a.id)}/</code></li>`
  ).join("\n");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>graphsvc</title></head>
<body>
<h1>graphsvc</h1>
<h2>Apps</h2>
${apps.length > 0 ? `<ul>\n${items}\n</ul>` : "<p>No module serves an app.</p>"}
<h2>API</h2>
<ul>
<li><a href="/graphiql">GraphiQL</a> (<code>POST /graphql</code>)</li>
<li><a href="/api/engine-info">/api/engine-info</a></li>
<li><a href="/api/features">/api/features</a></li>
<li><a href="/api/apps">/api/apps</a></li>
<li><a href="/api/assets">/api/assets</a></li>
<li><code>POST /mcp</code> (Model Context Protocol)</li>
</ul>
</body>
</html>
`;
}
