/**
 * What every build phase receives. Phases are synchronous functions of a {@link PhaseContext}
 * (or generators of steps that a sliced build pauses between, see `slicing.ts`): they read
 * sources, mutate the graph being built and report issues; they never touch the runtime (files,
 * network, clock) except through the capabilities given here.
 *
 * @module
 */
import type { OutputMemo } from "./outputs/output_memo.ts";
import type { ModelPairMemo } from "./models/pair_memo.ts";
import type { Graph, JsonValue } from "../graph/graph.ts";
import type { IssueCollector } from "./issues.ts";
import type { SourceFile, SourceSet } from "../workspace/sources.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import type { Provenance } from "./provenance.ts";
import type { TemplateRenderer } from "./template_renderer.ts";

export type { TemplateRenderer } from "./template_renderer.ts";

/** A downloadable or graph-only artifact produced by an output rule. */
export interface Artifact {
  /** Output resource type. */
  type: string;
  /** Output resource name. */
  name: string;
  /** Download file name, when the rule has `filename` and `mimetype`. */
  filename?: string;
  /** MIME type, when the rule has `filename` and `mimetype`. */
  mimetype?: string;
  /** The rendered body (JSON text or plain text). */
  body: string;
  /** Origin resource, when the rule iterates one. */
  origin?: { type: string; name: string };
}

/** Options that change how phases run. */
export interface PipelineOptions {
  /** Maximum passes of the model phase until the graph stops changing (default 8). */
  maxLoop: number;
  /** Drop orphaned asset resources after compliance (`--remove-orphaned-assets`). */
  removeOrphanedAssets: boolean;
  /**
   * Re-run every model rule in every pass instead of skipping rules whose inputs did not
   * change since their last run (default false; the result is the same, only slower — tests
   * use it to check exactly that).
   */
  rerunUnchangedRules?: boolean;
  /**
   * Output results (Jsonnet values, rendered Tera outputs) of earlier builds of the same rules (`outputs/output_memo.ts`): set
   * by the incremental builder, which starts a new one whenever a file other than an asset CSV
   * changed.
   *
   * @ignore
   */
  outputMemo?: OutputMemo;
  /**
   * Model (rule, origin) pairs of earlier builds of the same rules (`models/pair_memo.ts`), set
   * by the incremental builder like {@link PipelineOptions.outputMemo}.
   *
   * @ignore
   */
  modelMemo?: ModelPairMemo;
}

/** Everything a phase may use. */
export interface PhaseContext {
  /** The graph being built (mutable). */
  readonly graph: Graph;
  /** Issue sink for this build. */
  readonly issues: IssueCollector;
  /** All sources of the build, in memory. */
  readonly sources: SourceSet;
  /** Merged module manifests (params, asset and input declarations). */
  readonly manifest: ModuleManifest;
  /** Current module parameter values (`params.<name>` and top-level names in templates). */
  readonly params: Readonly<Record<string, JsonValue>>;
  /** Tera renderer with engine additions; counters are global for one build. */
  readonly templates: TemplateRenderer;
  /** Artifacts produced by the output phase, in creation order. */
  readonly artifacts: Artifact[];
  /** Pipeline options. */
  readonly options: PipelineOptions;
  /** Where rule phases record which files created or changed resources (absent: not recorded). */
  readonly provenance?: Provenance;
  /** Writes a line to the build log. */
  log(level: "debug" | "info" | "warn" | "error", message: string): void;
  /**
   * Resolves a `json!` reference made by `from`: `input/` of the data directory, then the
   * referencing file's folder, then the layer root (reference A25). Returns the parsed JSON, or
   * `undefined` when no such file exists. Throws a `ParseError` for invalid JSON.
   */
  readInput(ref: string, from: SourceFile): { path: string; value: JsonValue } | undefined;
}
