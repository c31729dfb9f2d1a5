/**
 * GraphiQL's files embedded in the program, keyed by their path below `node_modules/` (the
 * `path` of `GRAPHIQL_ASSETS` in lib/api/graphql/graphiql.ts).
 *
 * @module
 */
import type { EmbeddedAsset } from "./embedded.ts";
import { asset as graphiqlJs } from "./graphiql_js.gen.ts";
import { asset as graphiqlCss } from "./graphiql_css.gen.ts";
import { asset as reactJs } from "./react_js.gen.ts";
import { asset as reactDomJs } from "./react_dom_js.gen.ts";

/** Embedded GraphiQL, React and ReactDOM files by `node_modules/`-relative path. */
export const EMBEDDED_GRAPHIQL: ReadonlyMap<string, EmbeddedAsset> = new Map(
  [graphiqlJs, graphiqlCss, reactJs, reactDomJs].map((a) => [a.path, a]),
);
