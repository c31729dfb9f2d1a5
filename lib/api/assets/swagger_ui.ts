/**
 * Swagger UI's files embedded in the program, keyed by the file name under which `/api/docs`
 * loads them.
 *
 * @module
 */
import type { EmbeddedAsset } from "./embedded.ts";
import { asset as bundle } from "./swagger_ui_js.gen.ts";
import { asset as css } from "./swagger_ui_css.gen.ts";

/** Embedded Swagger UI files by URL file name (`swagger-ui-bundle.js`, `swagger-ui.css`). */
export const EMBEDDED_SWAGGER_UI: ReadonlyMap<string, EmbeddedAsset> = new Map(
  [bundle, css].map((a) => [a.path.slice(a.path.lastIndexOf("/") + 1), a]),
);
