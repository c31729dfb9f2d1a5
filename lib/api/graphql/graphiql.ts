/**
 * The GraphiQL explorer page (reference graphql.md G2), served without any CDN: React,
 * ReactDOM and the GraphiQL UMD bundle are loaded from our own server.
 *
 * @module
 */

/** URL prefix under which the GraphiQL assets are served. */
export const GRAPHIQL_ASSET_PREFIX = "/graphiql/assets/";

/** One static asset of the GraphiQL page. */
export interface GraphiqlAsset {
  /** Path relative to `node_modules/`. */
  readonly path: string;
  /** `Content-Type` to serve it with. */
  readonly contentType: string;
}

/**
 * Assets the GraphiQL page loads, keyed by URL path (under {@link GRAPHIQL_ASSET_PREFIX}),
 * mapped to their file relative to `node_modules/`.
 *
 * @example
 * ```ts
 * const asset = GRAPHIQL_ASSETS["/graphiql/assets/graphiql.min.js"];
 * console.log(asset.path); // "graphiql/graphiql.min.js"
 * ```
 */
export const GRAPHIQL_ASSETS: Readonly<Record<string, GraphiqlAsset>> = Object.freeze({
  "/graphiql/assets/react.production.min.js": {
    path: "react/umd/react.production.min.js",
    contentType: "text/javascript; charset=utf-8",
  },
  "/graphiql/assets/react-dom.production.min.js": {
    path: "react-dom/umd/react-dom.production.min.js",
    contentType: "text/javascript; charset=utf-8",
  },
  "/graphiql/assets/graphiql.min.js": {
    path: "graphiql/graphiql.min.js",
    contentType: "text/javascript; charset=utf-8",
  },
  "/graphiql/assets/graphiql.min.css": {
    path: "graphiql/graphiql.min.css",
    contentType: "text/css; charset=utf-8",
  },
});

/** JSON text that is safe inside an inline `<script>` (no `</script>`, no `<!--`). */
function scriptLiteral(value: string): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/**
 * HTML of the GraphiQL page bound to `endpoint` (introspection-based auto-completion).
 *
 * @example
 * ```ts
 * const html = graphiqlHtml("/graphql");
 * console.log(html.includes("/graphiql/assets/graphiql.min.js")); // true
 * ```
 */
export function graphiqlHtml(endpoint: string = "/graphql"): string {
  const asset = (name: string) => `${GRAPHIQL_ASSET_PREFIX}${name}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>graphsvc · GraphiQL</title>
  <style>
    html, body { height: 100%; margin: 0; overflow: hidden; }
    #graphiql { height: 100vh; }
  </style>
  <link rel="stylesheet" href="${asset("graphiql.min.css")}">
  <script src="${asset("react.production.min.js")}"></script>
  <script src="${asset("react-dom.production.min.js")}"></script>
  <script src="${asset("graphiql.min.js")}"></script>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script>
    (function () {
      var endpoint = ${scriptLiteral(endpoint)};
      var fetcher = GraphiQL.createFetcher({ url: new URL(endpoint, window.location.href).href });
      var root = ReactDOM.createRoot(document.getElementById("graphiql"));
      root.render(React.createElement(GraphiQL, {
        fetcher: fetcher,
        defaultEditorToolsVisibility: true,
        defaultQuery: "{\\n  countNodes\\n  countEdges\\n}\\n"
      }));
    })();
  </script>
</body>
</html>
`;
}
