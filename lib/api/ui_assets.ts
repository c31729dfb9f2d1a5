/**
 * The browser UI's files as an option of `createApp`: GraphiQL (with React), Swagger UI and the
 * graph explorer. They are several megabytes, so the portable core (`mod.ts`) does not import
 * them; programs that serve the UI pass `uiAssets` from the `./ui` entry point (`ui.ts`), and an
 * edge worker that leaves them out stays small. Without them, `/graphiql`, `/api/docs` and
 * `/explorer` answer `404` naming the missing option, and `/` is a plain page of links.
 *
 * @module
 */
import type { EmbeddedAsset } from "./assets/embedded.ts";

/** One explorer file (`index.html`, `app.js`, …): its type and text. */
export interface UiTextAsset {
  /** `Content-Type` to serve it with. */
  readonly contentType: string;
  /** The file's text. */
  readonly body: string;
}

/** The UI files `createApp` serves when given them (see `uiAssets` in `ui.ts`). */
export interface UiAssets {
  /** GraphiQL, React and ReactDOM by `node_modules/`-relative path. */
  readonly graphiql: ReadonlyMap<string, EmbeddedAsset>;
  /** Swagger UI's files by file name. */
  readonly swaggerUi: ReadonlyMap<string, EmbeddedAsset>;
  /** The explorer's files by file name (`index.html` among them). */
  readonly explorer: Readonly<Record<string, UiTextAsset>>;
}

/** The `404` detail of a UI page in a program that was not given {@link UiAssets}. */
export const UI_MISSING =
  "the browser UI is not part of this program: pass `ui: uiAssets` (from graphsvc's ./ui entry point) to createApp";
