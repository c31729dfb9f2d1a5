/**
 * graphsvc: build a typed property graph from CSV assets and TOML rules, and serve it.
 *
 * @example Build a graph in memory and query it
 * ```ts
 * import { createApp, createTemplateRenderer, defaultPhases, GraphEngine, MemoryWorkspace } from "./mod.ts";
 *
 * const engine = new GraphEngine({
 *   workspace: new MemoryWorkspace({
 *     "assets/service.csv": "name,database\napi,orders\n",
 *     "assets/database.csv": "name,engine\norders,postgres\n",
 *   }),
 *   createTemplates: createTemplateRenderer,
 *   phases: defaultPhases,
 * });
 * const snapshot = await engine.rebuild();
 * console.log(snapshot.graph.relationCount); // 1
 *
 * const res = await createApp(engine).fetch(new Request("http://x/graphql", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ query: "{ service { name database { node { engine } } } }" }),
 * }));
 * console.log(await res.json());
 * ```
 *
 * `mod.ts` is the portable core: it runs in Deno, browsers and edge runtimes (no `Deno.*`, no
 * file system, no UI files in its import graph). The file-system workspace, the server and the
 * file-reading Jsonnet evaluator are in `./deno` (`deno.ts`); GraphiQL, Swagger UI and the
 * explorer in `./ui` (`ui.ts`), passed to `createApp` as its `ui` option.
 *
 * @module
 */

export { GraphEngine } from "./lib/engine.ts";
export type {
  BuildEvent,
  BuildLog,
  BuildStatus,
  GenerationWait,
  GraphEngineOptions,
  RebuildRequest,
  Snapshot,
} from "./lib/engine.ts";
export { compareStrings, Graph, GraphError } from "./lib/graph/graph.ts";
export type {
  GraphJson,
  GraphJsonEdge,
  GraphJsonNode,
  GraphSplice,
  GraphSplicing,
  JsonValue,
  Properties,
  Relation,
  Resource,
  SpliceLinks,
} from "./lib/graph/graph.ts";
export { graphToRescileJson, nameUuid, RESCILE_ROOT_ID } from "./lib/graph/rescile_json.ts";
export type {
  RescileEdge,
  RescileGraphJson,
  RescileJsonOptions,
  RescileVertex,
} from "./lib/graph/rescile_json.ts";
export type { Workspace } from "./lib/workspace/workspace.ts";
export { normalizeWorkspacePath, UnsafePathError } from "./lib/workspace/workspace.ts";
export { MemoryWorkspace } from "./lib/workspace/memory.ts";
export { KvWorkspace, MapKvStore } from "./lib/workspace/kv.ts";
export type { KvStore } from "./lib/workspace/kv.ts";
export { durableObjectStore } from "./lib/workspace/durable_object_store.ts";
export type { DurableObjectStorageLike } from "./lib/workspace/durable_object_store.ts";
export { loadSourceSet } from "./lib/workspace/sources.ts";
export type { Layer, LayerSource, SourceFile, SourceSet } from "./lib/workspace/sources.ts";
export { buildGraph, buildGraphSliced } from "./lib/pipeline/build.ts";
export type {
  AssetTableInfo,
  BuildOptions,
  BuildOutcome,
  BuildResult,
  BuildStats,
  RulePhases,
  SlicedBuildOptions,
} from "./lib/pipeline/build.ts";
export type { SliceOptions, Steps, StepsOr } from "./lib/pipeline/slicing.ts";
export { defaultPhases } from "./lib/pipeline/phases.ts";
export { createTemplateRenderer } from "./lib/pipeline/templates.ts";
export type { TemplateRendererOptions } from "./lib/pipeline/templates.ts";
export type { RetypeRule } from "./lib/pipeline/linking.ts";
export type { Provenance, ProvenanceEntry, ProvenanceKind } from "./lib/pipeline/provenance.ts";
export type {
  AssetDeclaration,
  ColumnDeclaration,
  ManifestWarning,
  ModuleManifest,
  ParamDeclaration,
} from "./lib/workspace/manifest.ts";
export type {
  Artifact,
  PhaseContext,
  PipelineOptions,
  TemplateRenderer,
} from "./lib/pipeline/context.ts";
export { formatIssue, IssueCollector } from "./lib/pipeline/issues.ts";
export type { BuildIssue, Severity, SourceLocation } from "./lib/pipeline/issues.ts";
export { ParseError } from "./lib/formats/errors.ts";
export { parseCsv, stringifyCsv } from "./lib/formats/csv.ts";
export type { CsvDocument, CsvRow } from "./lib/formats/csv.ts";
export { createApp } from "./lib/api/app.ts";
export type { AppOptions, ExecutionContextLike, GraphsvcApp } from "./lib/api/app.ts";
export type { UiAssets, UiTextAsset } from "./lib/api/ui_assets.ts";
export type { EmbeddedAsset } from "./lib/api/assets/embedded.ts";
export type { LiveOptions } from "./lib/api/live.ts";
export type { WorkspaceSync } from "./lib/api/rest/webhook.ts";
export type { AppRouteOptions } from "./lib/apps/http.ts";
export type { ActionSockets, UnixFetch } from "./lib/apps/proxy.ts";
export type { EnvReader } from "./lib/apps/substitute.ts";
export type { McpOptions } from "./lib/mcp/http.ts";
export type { McpActions, McpActionTool } from "./lib/mcp/server.ts";
export { ActionService } from "./lib/actions/service.ts";
export type {
  ActionBuild,
  ActionLayer,
  ActionServiceOptions,
  ActionSummary,
  BuiltBundle,
} from "./lib/actions/service.ts";
export { actionSockets, attachActionService, mcpActions } from "./lib/actions/engine_link.ts";
export { ActionConfigError } from "./lib/actions/errors.ts";
export type { BundleManifest } from "./lib/actions/bundle.ts";
export type { InputSummary } from "./lib/actions/inputs.ts";
export type { RunEvent } from "./lib/actions/runs.ts";
export type {
  ActionRunner,
  ExecutionRequest,
  ExecutionResult,
  RunLocation,
  RunRecord,
  RunStatus,
  SecretSource,
} from "./lib/actions/ports.ts";
export type { RemoteSchemaLocation, SchemaFetcher } from "./lib/schema/sources.ts";
export type { ServerInfo } from "./lib/api/rest/info.ts";
export type { StaticAssetReader } from "./lib/api/graphql_routes.ts";
export type { SecurityOptions } from "./lib/api/security.ts";
export { renderTemplate, TemplateError } from "./lib/template/mod.ts";
export { evaluateJsonnet, JsonnetError } from "./lib/jsonnet/mod.ts";
export type {
  EvaluateJsonnetOptions,
  ImportResolver,
  ImportResult,
  Loc,
  TraceFrame,
} from "./lib/jsonnet/mod.ts";
export { VaultServer } from "./lib/vault/server.ts";
export type { ClientRecord, InviteRecord, Role } from "./lib/vault/state.ts";
export type { KdfParams } from "./lib/vault/crypto.ts";
export {
  decodeSnapshot,
  encodeSnapshot,
  SNAPSHOT_VERSION,
  SnapshotError,
} from "./lib/snapshot/format.ts";
export type { ProvenanceData } from "./lib/pipeline/provenance.ts";
export { VERSION } from "./lib/version.ts";
