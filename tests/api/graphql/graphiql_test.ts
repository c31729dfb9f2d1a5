// G2 GraphiQL page: everything is loaded from our own server.
import { GRAPHIQL_ASSETS, graphiqlHtml } from "../../../lib/api/graphql/graphiql.ts";
import { assert } from "./_helpers.ts";

Deno.test("G2 graphiqlHtml loads react, react-dom and graphiql from /graphiql/assets, no CDN", () => {
  const html = graphiqlHtml();
  for (const url of Object.keys(GRAPHIQL_ASSETS)) assert.ok(html.includes(`"${url}"`), url);
  const external = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    .filter((u) => !u.startsWith("/graphiql/assets/"));
  assert.deepEqual(external, []);
  assert.ok(!/https?:\/\//.test(html));
  assert.match(html, /var endpoint = "\/graphql";/);
  assert.match(html, /GraphiQL\.createFetcher/);
});

Deno.test("G2 the endpoint is embedded as a script-safe literal", () => {
  const html = graphiqlHtml('/x</script><script>alert("1")</script>');
  assert.ok(!html.includes("</script><script>alert"));
  assert.match(html, /var endpoint = "\/x\\u003c\/script\\u003e/);
});

Deno.test("GRAPHIQL_ASSETS map URL paths to node_modules files with content types", () => {
  assert.deepEqual(GRAPHIQL_ASSETS["/graphiql/assets/react.production.min.js"], {
    path: "react/umd/react.production.min.js",
    contentType: "text/javascript; charset=utf-8",
  });
  assert.equal(
    GRAPHIQL_ASSETS["/graphiql/assets/graphiql.min.css"].contentType,
    "text/css; charset=utf-8",
  );
  assert.equal(Object.keys(GRAPHIQL_ASSETS).length, 4);
});

const modules = new URL("../../../node_modules/", import.meta.url);
const canRead = Deno.permissions.querySync({ name: "read", path: modules }).state === "granted";

Deno.test({
  name: "GRAPHIQL_ASSETS files exist in node_modules (needs --allow-read)",
  ignore: !canRead,
  fn() {
    for (const { path } of Object.values(GRAPHIQL_ASSETS)) {
      assert.ok(Deno.statSync(new URL(path, modules)).size > 1000, path);
    }
    const js = Deno.readTextFileSync(new URL("graphiql/graphiql.min.js", modules));
    assert.ok(js.includes("window.GraphiQL ="), "UMD build exposes window.GraphiQL");
  },
});
