/**
 * The browser UI of graphsvc — GraphiQL, Swagger UI and the graph explorer — as files embedded
 * in the program, for `createApp`'s `ui` option. A separate entry point, so that programs that
 * do not serve the UI (edge workers, embedded engines) do not carry its megabytes.
 *
 * @example Serve the engine with its UI
 * ```ts
 * import { createApp, createTemplateRenderer, defaultPhases, GraphEngine, MemoryWorkspace } from "./mod.ts";
 * import { uiAssets } from "./ui.ts";
 *
 * const engine = new GraphEngine({
 *   workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
 *   createTemplates: createTemplateRenderer,
 *   phases: defaultPhases,
 * });
 * await engine.rebuild();
 * const app = createApp(engine, { ui: uiAssets });
 * console.log((await app.fetch(new Request("http://x/graphiql"))).status); // 200
 * ```
 *
 * @module
 */
import type { UiAssets } from "./lib/api/ui_assets.ts";
import { EMBEDDED_GRAPHIQL } from "./lib/api/assets/graphiql.ts";
import { EMBEDDED_SWAGGER_UI } from "./lib/api/assets/swagger_ui.ts";
import { EXPLORER_ASSETS } from "./lib/explorer/assets/mod.gen.ts";

export type { UiAssets, UiTextAsset } from "./lib/api/ui_assets.ts";
export type { EmbeddedAsset } from "./lib/api/assets/embedded.ts";

/** Every UI file embedded in the program: pass as `createApp(engine, { ui: uiAssets })`. */
export const uiAssets: UiAssets = {
  graphiql: EMBEDDED_GRAPHIQL,
  swaggerUi: EMBEDDED_SWAGGER_UI,
  explorer: EXPLORER_ASSETS,
};
