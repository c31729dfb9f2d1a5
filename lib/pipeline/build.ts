/**
 * The build pipeline: a pure function from in-memory sources to a sealed graph, its issues and its
 * artifacts. Phase order is fixed (reference O7): assets → auto-link → models → auto-link →
 * compliance → auto-link → outputs. One implementation ({@link buildSteps}, steps that may pause
 * at loop boundaries, see `slicing.ts`) and two drivers: {@link buildGraph} runs it at once,
 * {@link buildGraphSliced} in short slices so a server keeps answering readers meanwhile.
 *
 * @module
 */
import type { OutputMemo } from "./outputs/output_memo.ts";
import type { ModelPairMemo } from "./models/pair_memo.ts";
import { Graph, type JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import {
  type AssetDeclaration,
  emptyManifest,
  mergeManifests,
  type ModuleManifest,
} from "../workspace/manifest.ts";
import { ACTION_FILES_PHASE, actionFileErrors } from "./action_files.ts";
import { filesIn, layersInOrder, type SourceFile, type SourceSet } from "../workspace/sources.ts";
import type { Artifact, PhaseContext, PipelineOptions, TemplateRenderer } from "./context.ts";
import { type BuildIssue, formatIssue, IssueCollector } from "./issues.ts";
import { assetPhaseSteps, type LoadedAsset } from "./assets.ts";
import { autoLinkSteps, type RetypeRule } from "./linking.ts";
import { resolveParams } from "./params.ts";
import { readJsonInput } from "./inputs.ts";
import { describeError } from "./errors.ts";
import { Provenance } from "./provenance.ts";
import { validateInputs } from "../workspace/input_validation.ts";
import { requirementIssues } from "../workspace/requirements.ts";
import {
  isSteps,
  runSteps,
  runStepsSliced,
  type SliceOptions,
  type Steps,
  type StepsOr,
} from "./slicing.ts";

/**
 * A rule phase plugged into the pipeline (models, compliance, outputs). A phase returns its
 * result, or {@link Steps} producing it: a generator that yields where the build may pause, so
 * {@link buildGraphSliced} can interleave it with other work (the default phases do).
 */
export interface RulePhases {
  /** Collects `[[retype_relation]]` rules before the first auto-linking (M57). */
  collectRetypeRules?(ctx: PhaseContext): RetypeRule[];
  /** The model phase. */
  models?(ctx: PhaseContext): StepsOr<{ passes: number; converged: boolean }>;
  /** The compliance phase. */
  compliance?(ctx: PhaseContext): StepsOr<void>;
  /** The output phase. */
  outputs?(ctx: PhaseContext): StepsOr<void>;
}

/** Options of {@link buildGraph}. */
export interface BuildOptions {
  /** Parameter values given by the caller (CLI `--module-params`, REST overrides). */
  params?: Record<string, JsonValue>;
  /** Model phase pass cap (default 8). */
  maxLoop?: number;
  /** Drop orphaned asset resources before outputs. */
  removeOrphanedAssets?: boolean;
  /** Re-run unchanged model rules in every pass (same result, slower; for tests). */
  rerunUnchangedRules?: boolean;
  /**
   * Output results kept from earlier builds of the same rules (see
   * `PipelineOptions.outputMemo`); only the incremental builder sets it.
   *
   * @ignore
   */
  outputMemo?: OutputMemo;
  /**
   * Model (rule, origin) pairs kept from earlier builds (see `PipelineOptions.modelMemo`); only
   * the incremental builder sets it.
   *
   * @ignore
   */
  modelMemo?: ModelPairMemo;
  /** Creates the template renderer of this build (fresh counters per build). */
  createTemplates: (params: Readonly<Record<string, JsonValue>>) => TemplateRenderer;
  /** Rule phases; phases left out are reported when their folders hold rule files. */
  phases?: RulePhases;
  /** Receives build log lines. */
  log?: (level: "debug" | "info" | "warn" | "error", message: string) => void;
}

/** Counts of a finished build. */
export interface BuildStats {
  /** Number of resources. */
  resources: number;
  /** Number of relations. */
  relations: number;
  /** Number of artifacts produced by outputs. */
  artifacts: number;
  /** Number of `policy_violation` findings. */
  findings: number;
  /** Model phase passes used (0 when no model phase ran). */
  modelPasses: number;
  /** Milliseconds per phase. */
  timings: Record<string, number>;
}

/** An asset CSV a build loaded: what writes and the GraphQL mutations are generated from. */
export interface AssetTableInfo {
  /** Resource type of its rows. */
  type: string;
  /** Path relative to `assets/`, e.g. `inventx/a.csv`. */
  file: string;
  /** Header columns in file order. */
  header: string[];
  /** Its manifest declaration, when any. */
  declaration?: AssetDeclaration;
}

/**
 * Outcome of a build (reference O12): `ok` without errors; `degraded` when only rule errors (a
 * rule failing for one origin resource) occurred — the graph is complete but for those effects
 * and is published; `failed` on any structural error — the graph is not published.
 */
export type BuildOutcome = "ok" | "degraded" | "failed";

/** Result of {@link buildGraph}. */
export interface BuildResult {
  /** True when no error was reported. */
  ok: boolean;
  /** `ok`, `degraded` (rule errors only) or `failed` (a structural error). */
  outcome: BuildOutcome;
  /** The sealed graph (partial when `ok` is false). */
  graph: Graph;
  /** Every issue of the build. */
  issues: BuildIssue[];
  /** Artifacts produced by the output phase. */
  artifacts: Artifact[];
  /** The merged manifest. */
  manifest: ModuleManifest;
  /** Parameter values used. */
  params: Record<string, JsonValue>;
  /** Counts and timings. */
  stats: BuildStats;
  /** The asset files loaded, in load order. */
  assets: AssetTableInfo[];
  /** Which files created or changed each resource (a side table, off the graph). */
  provenance: Provenance;
}

/**
 * Runs the whole pipeline over `sources`, synchronously. Never throws for bad input: every
 * problem becomes a {@link BuildIssue}; `ok` is false when any of them is an error.
 *
 * @example
 * ```ts ignore
 * const result = buildGraph(await loadSourceSet(workspace), { createTemplates });
 * console.log(result.stats.resources, result.ok);
 * ```
 */
export function buildGraph(sources: SourceSet, options: BuildOptions): BuildResult {
  return runSteps(buildSteps(sources, options));
}

/** Options of {@link buildGraphSliced}: build options plus slicing (`sliceMs`, `signal`). */
export type SlicedBuildOptions = BuildOptions & SliceOptions;

/**
 * Runs the same pipeline as {@link buildGraph} (same result) in slices of at most `sliceMs`
 * (default 4 ms, as far as the phases' pause points allow), giving the event loop a turn between
 * slices: a server keeps answering from its published snapshot while this builds. Phase
 * timings in the stats are wall-clock times, pauses included. Rejects with the signal's reason
 * when `signal` aborts.
 *
 * @example
 * ```ts ignore
 * const result = await buildGraphSliced(await loadSourceSet(workspace), {
 *   createTemplates,
 *   sliceMs: 4,
 * });
 * console.log(result.stats.resources, result.ok);
 * ```
 */
export function buildGraphSliced(
  sources: SourceSet,
  options: SlicedBuildOptions,
): Promise<BuildResult> {
  return runStepsSliced(buildSteps(sources, options), options);
}

/**
 * Replacements of pipeline parts, for incremental builds (`incremental/`): whatever they do must
 * leave the build in the state the part it replaces would have left it in.
 */
export interface BuildHooks {
  /** Runs instead of the asset phase: creates the asset resources and reports its issues. */
  assetPhase?: (ctx: PhaseContext) => Steps<LoadedAsset[]>;
  /** Runs instead of the auto-link run after phase `phase` (`assets`, `models`, `compliance`). */
  link?: (ctx: PhaseContext, phase: string, warnMissing: boolean) => Steps<void>;
}

/**
 * The pipeline as {@link Steps}: what both {@link buildGraph} and {@link buildGraphSliced} run.
 *
 * @example
 * ```ts ignore
 * const result = runSteps(buildSteps(sources, { createTemplates }));
 * ```
 */
export function* buildSteps(
  sources: SourceSet,
  options: BuildOptions,
  hooks: BuildHooks = {},
): Steps<BuildResult> {
  const log = options.log ?? (() => {});
  const issues = new IssueCollector((issue) => {
    const level = issue.severity === "error"
      ? "error"
      : issue.severity === "warning"
      ? "warn"
      : "info";
    log(level, formatIssue(issue));
  });
  const graph = new Graph();
  const timings: Record<string, number> = {};
  let manifest = emptyManifest();
  try {
    manifest = mergeManifests(layersInOrder(sources));
    for (const w of manifest.warnings) {
      issues.warn(w.code, w.message, { file: w.file, line: w.line, phase: "modules" });
    }
    // Composition conflicts (MP25, MP33) and overridden declarations.
    for (const c of manifest.composition) {
      if (c.severity === "error") {
        issues.error(c.code, c.message, { file: c.file, phase: "modules" });
      } else issues.warn(c.code, c.message, { file: c.file, phase: "modules" });
    }
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    issues.error(e.code, e.reason, {
      file: e.file,
      line: e.line,
      column: e.column,
      phase: "modules",
    });
  }
  // Files that could not be read as text (invalid UTF-8, NUL bytes) are structural errors.
  for (const layer of layersInOrder(sources)) {
    for (const e of layer.errors ?? []) {
      issues.error(e.code, e.reason, {
        file: e.file,
        line: e.line,
        column: e.column,
        phase: "load",
      });
    }
  }
  const params = resolveParams(manifest, options.params ?? {}, issues);
  // Declared JSON inputs are validated before any phase (MP39).
  for (const i of validateInputs(sources, manifest)) {
    issues.error(i.code, i.message, { file: i.file, phase: "inputs" });
  }
  const provenance = new Provenance();
  const inputCache = new Map<string, { path: string; value: JsonValue } | undefined>();
  const ctx: PhaseContext = {
    graph,
    issues,
    sources,
    manifest,
    params,
    templates: options.createTemplates(params),
    artifacts: [],
    options: {
      maxLoop: options.maxLoop ?? 8,
      removeOrphanedAssets: options.removeOrphanedAssets ?? false,
      rerunUnchangedRules: options.rerunUnchangedRules ?? false,
      outputMemo: options.outputMemo,
      modelMemo: options.modelMemo,
    } satisfies PipelineOptions,
    provenance,
    log,
    readInput: (ref: string, from: SourceFile) => readJsonInput(sources, ref, from, inputCache),
  };
  const phases = options.phases ?? {};
  let modelPasses = 0;

  /** Runs one phase; timed; anything it throws is reported, not thrown. */
  function* guarded(phase: string, fn: () => StepsOr<void>): Steps<void> {
    const start = performance.now();
    try {
      yield* asSteps(fn());
    } catch (e) {
      // A phase must report problems as issues; anything escaping is a bug, reported not thrown.
      issues.error("internal_error", `${phase} phase failed: ${describeError(e)}`, { phase });
    } finally {
      timings[phase] = Math.round((performance.now() - start) * 10) / 10;
    }
  }

  let assets: AssetTableInfo[] = [];
  yield* guarded("assets", function* () {
    assets = (yield* (hooks.assetPhase ?? assetPhaseSteps)(ctx)).map((asset) => ({
      type: asset.type,
      file: asset.file.relPath.slice("assets/".length),
      header: asset.csv.header,
      declaration: asset.declaration,
    }));
  });
  provenance.assetsLoaded(graph.resourceCount);
  const assetTypes = new Set(assets.map((a) => a.type));
  let retypeRules: RetypeRule[] = [];
  yield* guarded("retype", () => {
    retypeRules = phases.collectRetypeRules?.(ctx) ?? [];
  });
  const link = (phase: string, warnMissing: boolean) =>
    guarded(`link:${phase}`, function* () {
      if (hooks.link) yield* hooks.link(ctx, phase, warnMissing);
      else yield* autoLinkSteps(graph, issues, { retypeRules, phase, warnMissing });
    });
  yield* link("assets", false);
  yield* runRulePhase(
    ctx,
    "models",
    phases.models && function* () {
      modelPasses = (yield* asSteps(phases.models!(ctx))).passes;
    },
    guarded,
  );
  yield* link("models", false);
  yield* runRulePhase(
    ctx,
    "compliance",
    phases.compliance && (() => phases.compliance!(ctx)),
    guarded,
  );
  yield* link("compliance", true);
  if (ctx.options.removeOrphanedAssets) {
    yield* guarded("orphans", () => removeOrphans(ctx, assetTypes));
  }
  yield* runRulePhase(ctx, "output", phases.outputs && (() => phases.outputs!(ctx)), guarded);

  // `[requirements.<type>]` are checked on the finished graph (MP41).
  for (const r of requirementIssues(manifest, graph)) {
    issues.warn(r.code, r.message, { phase: "requirements" });
  }
  // An action file that does not parse is a located error, soft like a rule error (AC2, O12).
  for (const e of actionFileErrors(sources)) {
    issues.error(e.code, e.reason, {
      file: e.file,
      line: e.line,
      column: e.column,
      phase: ACTION_FILES_PHASE,
    });
  }
  graph.seal();
  const all = [...issues.all];
  const errors = all.filter((i) => i.severity === "error");
  return {
    ok: errors.length === 0,
    outcome: errors.length === 0
      ? "ok"
      : errors.every((i) => i.origin !== undefined || i.phase === ACTION_FILES_PHASE)
      ? "degraded"
      : "failed",
    graph,
    issues: all,
    artifacts: ctx.artifacts,
    manifest,
    params,
    assets,
    provenance,
    stats: {
      resources: graph.resourceCount,
      relations: graph.relationCount,
      artifacts: ctx.artifacts.filter((a) => a.filename && a.mimetype).length,
      findings: graph.resourcesOf("policy_violation").length,
      modelPasses,
      timings,
    },
  };
}

/** Steps of a phase that returned either steps or its result directly. */
function* asSteps<T>(value: StepsOr<T>): Steps<T> {
  if (isSteps(value)) return yield* value as Steps<T>;
  return value as T;
}

function* runRulePhase(
  ctx: PhaseContext,
  folder: "models" | "compliance" | "output",
  run: (() => StepsOr<void>) | undefined,
  guarded: (phase: string, fn: () => StepsOr<void>) => Steps<void>,
): Steps<void> {
  if (run) {
    yield* guarded(folder, run);
    return;
  }
  const files = filesIn(ctx.sources, folder).filter((f) => !f.relPath.endsWith(".libsonnet"));
  if (files.length > 0) {
    ctx.issues.warn(
      "phase_unavailable",
      `the ${folder} phase is not available in this build; ${files.length} file(s) not applied: ${
        files.map((f) => f.displayPath).join(", ")
      }`,
      { phase: folder },
    );
  }
}

/** Removes asset-origin resources without relations (reference A23). */
function* removeOrphans(ctx: PhaseContext, assetTypes: ReadonlySet<string>): Steps<void> {
  let tick = 0;
  for (const r of [...ctx.graph.resources()]) {
    if ((++tick & 255) === 0) yield;
    if (!assetTypes.has(r.type)) continue;
    if (ctx.graph.outgoing(r).length === 0 && ctx.graph.incoming(r).length === 0) {
      ctx.graph.removeResource(r);
      ctx.issues.info("orphan_removed", `removed orphaned asset ${r.type} '${r.name}'`, {
        phase: "orphans",
      });
    }
  }
}
