/**
 * Generators (reference GN1–GN35): `[generator.*]` / `[generators.*]` tables that fetch data
 * over HTTP or run a command to (re)write an input or asset file before a build reads its
 * sources.
 *
 * @example
 * ```ts
 * import { GeneratorScheduler } from "./mod.ts";
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * const scheduler = new GeneratorScheduler({
 *   workspace: new MemoryWorkspace({}),
 *   host: { modifiedAt: () => Promise.resolve(undefined), absolutePath: (p) => `/data/${p}` },
 * });
 * // new GraphEngine({ ..., prepare: scheduler.prepare })
 * ```
 *
 * @module
 */
export {
  type ExecDeclaration,
  type GeneratorDeclaration,
  type HttpDeclaration,
  type ManifestLayer,
  type PaginationDeclaration,
  readGenerators,
} from "./declarations.ts";
export { parseDuration } from "./duration.ts";
export { GeneratorAbortError, GeneratorConfigError, GeneratorRunError } from "./errors.ts";
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from "./http.ts";
export { type LoadedGenerators, loadGenerators } from "./load.ts";
export type { GeneratorHost, ProcessRequest, ProcessResult, ProcessRunner } from "./ports.ts";
export {
  chainSecretProviders,
  envSecretProvider,
  secretEnvName,
  SecretMasker,
  type SecretProvider,
} from "./secrets.ts";
export {
  type GeneratorLog,
  type GeneratorOutcome,
  GeneratorScheduler,
  type GeneratorSchedulerOptions,
  type GeneratorSummary,
} from "./scheduler.ts";
export type { JsonValue } from "../graph/graph.ts";
export type { Workspace } from "../workspace/workspace.ts";
export type { LayerSource } from "../workspace/sources.ts";
