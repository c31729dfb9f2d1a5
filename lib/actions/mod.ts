/**
 * Actions (reference actions-and-contracts.md AC1–AC33): parsing, expansion, input validation,
 * bundles with sealed secrets, run records and the service that queues runs and supervises
 * services. Process execution lives in the runtime adapter (`lib/runtime/deno/action_runner.ts`).
 *
 * @example
 * ```ts
 * import { parseActionFile } from "./mod.ts";
 * console.log(parseActionFile('name = "a"\nexec = [["true"]]\n', "actions/a.toml", "data").name); // "a"
 * ```
 *
 * @module
 */
export {
  type ActionTemplate,
  type FileDeclaration,
  type InputDeclaration,
  type InputType,
  type MountDeclaration,
  parseActionFile,
} from "./declarations.ts";
export {
  ActionBundleError,
  ActionConfigError,
  ActionInputError,
  ActionNotFoundError,
  type InputFieldError,
  RunStateError,
} from "./errors.ts";
export { validateInputs } from "./inputs.ts";
export {
  type ConcreteAction,
  expandActions,
  renderAction,
  type RenderedAction,
  type RenderScope,
  secretPlaceholder,
} from "./expand.ts";
export { type ActionFiles, expandLayers } from "./expand_layers.ts";
export {
  type BundleManifest,
  type BundleParts,
  createBundle,
  missingSecrets,
  type SealedSecret,
  unpackBundle,
  type UnpackedBundle,
} from "./bundle.ts";
export {
  fromBase64,
  generateKeyPair,
  type KeyPair,
  openSealed,
  seal,
  SealOpenError,
  toBase64,
} from "./seal.ts";
export { gunzip, gzip, readTar, type TarEntry, TarError, writeTar } from "./tar.ts";
export type {
  ActionRunner,
  ExecutionRequest,
  ExecutionResult,
  RunLocation,
  RunRecord,
  RunStatus,
  SecretSource,
} from "./ports.ts";
export { DEFAULT_JOB_TIMEOUT_MS, maskSecrets, type RunEvent, RunQueue } from "./runs.ts";
export {
  type ActionBuild,
  type ActionLayer,
  ActionService,
  type ActionServiceOptions,
  type ActionSummary,
  type BuiltBundle,
} from "./service.ts";
export {
  actionSockets,
  attachActionService,
  dataDirModuleId,
  mcpActions,
  readActionLayer,
} from "./engine_link.ts";
export { mountedArtifact, type MountingAction } from "./mounts.ts";
