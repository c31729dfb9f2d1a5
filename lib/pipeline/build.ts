/**
 * The build pipeline: a pure function from in-memory sources to a sealed graph, its issues and its
 * artifacts. Phase order is fixed (reference O7): assets → auto-link → models → auto-link →
 * compliance → auto-link → outputs.
 *
 * @module
 */
import { Graph, type JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import {
  type AssetDeclaration,
  emptyManifest,
  mergeManifests,
  type ModuleManifest,
} from "../workspace/manifest.ts";
import { filesIn, layersInOrder, type SourceFile, type SourceSet } from "../workspace/sources.ts";
import type { Artifact, PhaseContext, PipelineOptions, TemplateRenderer } from "./context.ts";
import { type BuildIssue, formatIssue, IssueCollector } from "./issues.ts";
import { runAssetPhase } from "./assets.ts";
import { autoLink, type RetypeRule } from "./linking.ts";
import { resolveParams } from "./params.ts";
import { readJsonInput } from "./inputs.ts";
import { describeError } from "./errors.ts";

/** A rule phase plugged into the pipeline (models, compliance, outputs). */
export interface RulePhases {
  /** Collects `[[retype_relation]]` rules before the first auto-linking (M57). */
  collectRetypeRules?(ctx: PhaseContext): RetypeRule[];
  /** The model phase. */
  models?(ctx: PhaseContext): { passes: number; converged: boolean };
  /** The compliance phase. */
  compliance?(ctx: PhaseContext): void;
  /** The output phase. */
  outputs?(ctx: PhaseContext): void;
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
}

/**
 * Runs the whole pipeline over `sources`. Never throws for bad input: every problem becomes a
 * {@link BuildIssue}; `ok` is false when any of them is an error.
 *
 * @example
 * ```ts ignore
 * const result = buildGraph(await loadSourceSet(workspace), { createTemplates });
 * console.log(result.stats.resources, result.ok);
 * ```
 */
export function buildGraph(sources: SourceSet, options: BuildOptions): BuildResult {
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
  const timed = <T>(phase: string, fn: () => T): T => {
    const start = performance.now();
    try {
      return fn();
    } finally {
      timings[phase] = Math.round((performance.now() - start) * 10) / 10;
    }
  };

  let manifest = emptyManifest();
  try {
    manifest = mergeManifests(layersInOrder(sources));
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
    } satisfies PipelineOptions,
    log,
    readInput: (ref: string, from: SourceFile) => readJsonInput(sources, ref, from, inputCache),
  };
  const phases = options.phases ?? {};
  let modelPasses = 0;

  const guarded = (phase: string, fn: () => void): void => {
    try {
      timed(phase, fn);
    } catch (e) {
      // A phase must report problems as issues; anything escaping is a bug, reported not thrown.
      issues.error("internal_error", `${phase} phase failed: ${describeError(e)}`, { phase });
    }
  };

  let assets: AssetTableInfo[] = [];
  guarded("assets", () => {
    assets = runAssetPhase(ctx).map((asset) => ({
      type: asset.type,
      file: asset.file.relPath.slice("assets/".length),
      header: asset.csv.header,
      declaration: asset.declaration,
    }));
  });
  const assetTypes = new Set(assets.map((a) => a.type));
  let retypeRules: RetypeRule[] = [];
  guarded("retype", () => {
    retypeRules = phases.collectRetypeRules?.(ctx) ?? [];
  });
  const link = (phase: string, warnMissing: boolean) =>
    guarded(`link:${phase}`, () => {
      autoLink(graph, issues, { retypeRules, phase, warnMissing });
    });
  link("assets", false);
  runRulePhase(
    ctx,
    "models",
    phases.models && (() => {
      modelPasses = phases.models!(ctx).passes;
    }),
    guarded,
  );
  link("models", false);
  runRulePhase(ctx, "compliance", phases.compliance && (() => phases.compliance!(ctx)), guarded);
  link("compliance", true);
  if (ctx.options.removeOrphanedAssets) guarded("orphans", () => removeOrphans(ctx, assetTypes));
  runRulePhase(ctx, "output", phases.outputs && (() => phases.outputs!(ctx)), guarded);

  graph.seal();
  const all = [...issues.all];
  const errors = all.filter((i) => i.severity === "error");
  return {
    ok: errors.length === 0,
    outcome: errors.length === 0
      ? "ok"
      : errors.every((i) => i.origin !== undefined)
      ? "degraded"
      : "failed",
    graph,
    issues: all,
    artifacts: ctx.artifacts,
    manifest,
    params,
    assets,
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

function runRulePhase(
  ctx: PhaseContext,
  folder: "models" | "compliance" | "output",
  run: (() => void) | undefined,
  guarded: (phase: string, fn: () => void) => void,
): void {
  if (run) {
    guarded(folder, run);
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
function removeOrphans(ctx: PhaseContext, assetTypes: ReadonlySet<string>): void {
  for (const r of [...ctx.graph.resources()]) {
    if (!assetTypes.has(r.type)) continue;
    if (ctx.graph.outgoing(r).length === 0 && ctx.graph.incoming(r).length === 0) {
      ctx.graph.removeResource(r);
      ctx.issues.info("orphan_removed", `removed orphaned asset ${r.type} '${r.name}'`, {
        phase: "orphans",
      });
    }
  }
}
