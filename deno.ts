/**
 * The Deno adapters of graphsvc: the file-system workspace, the HTTP server and Jsonnet with
 * imports read from disk. A separate entry point from the portable core (`mod.ts`), which runs
 * where `Deno.*` does not (browsers, edge runtimes).
 *
 * @example Build a folder and serve it
 * ```ts ignore
 * import { createTemplateRenderer, defaultPhases, GraphEngine } from "./mod.ts";
 * import { DenoFsWorkspace, serve } from "./deno.ts";
 *
 * const engine = new GraphEngine({
 *   workspace: new DenoFsWorkspace("testdata/example"),
 *   createTemplates: createTemplateRenderer,
 *   phases: defaultPhases,
 * });
 * await serve(engine, { hostname: "127.0.0.1", port: 7600, edition: "ce" });
 * ```
 *
 * @module
 */
export { DenoFsWorkspace } from "./lib/workspace/deno_fs.ts";
export { evaluateJsonnet, ImportReadError } from "./lib/runtime/deno/jsonnet_files.ts";
export { serve } from "./server.ts";
export type { ConnectionLimits, ServeOptions } from "./server.ts";
