/**
 * Test support for the model phase: a real template renderer (Tera core + engine extensions)
 * and a build over an in-memory workspace with the model phase plugged in.
 *
 * @module
 */
import { TemplateEnvironment } from "../../../lib/template/mod.ts";
import { BuildCounters, createEngineExtensions } from "../../../lib/template/extensions/mod.ts";
import type { TemplateRenderer } from "../../../lib/pipeline/context.ts";
import { buildGraph, type BuildResult } from "../../../lib/pipeline/build.ts";
import { MemoryWorkspace } from "../../../lib/workspace/memory.ts";
import { loadSourceSet, type SourceSet } from "../../../lib/workspace/sources.ts";
import { collectRetypeRules, runModelPhase } from "../../../lib/pipeline/models/mod.ts";
import type { JsonValue, Resource } from "../../../lib/graph/graph.ts";
import type { Graph } from "../../../lib/graph/graph.ts";

/** A renderer like the build's: fresh counters, fixed clock, counters resettable per pass. */
export function testRenderer(): TemplateRenderer & { resetCounters(): void } {
  const counters = new BuildCounters();
  const ext = createEngineExtensions({
    counters,
    clock: () => new Date("2026-01-02T03:04:05Z"),
  });
  const env = new TemplateEnvironment({
    filters: ext.filters,
    functions: ext.functions,
    tests: ext.tests,
  });
  return {
    render: (source, context, name) => env.render(source, context, name),
    resetCounters: () => counters.reset(),
  };
}

/** Builds `files` (data directory) with the model phase. */
export async function buildModels(
  files: Record<string, string>,
  options: {
    params?: Record<string, JsonValue>;
    maxLoop?: number;
    modules?: { id: string; files: Record<string, string> }[];
    rerunUnchangedRules?: boolean;
  } = {},
): Promise<ModelBuild> {
  const sources = await loadSourceSet(
    new MemoryWorkspace(files),
    (options.modules ?? []).map((m) => ({ id: m.id, workspace: new MemoryWorkspace(m.files) })),
  );
  return buildSources(sources, options);
}

/** A build with the model phase's own result. */
export type ModelBuild = BuildResult & {
  passes: number;
  converged: boolean;
  changesPerPass: number[];
  skippedPerPass: number[];
};

/** Builds a loaded source set with the model phase. */
export function buildSources(
  sources: SourceSet,
  options: { params?: Record<string, JsonValue>; maxLoop?: number; rerunUnchangedRules?: boolean } =
    {},
): ModelBuild {
  let passes = 0;
  let converged = false;
  let changesPerPass: number[] = [];
  let skippedPerPass: number[] = [];
  const result = buildGraph(sources, {
    params: options.params,
    maxLoop: options.maxLoop,
    rerunUnchangedRules: options.rerunUnchangedRules,
    createTemplates: () => testRenderer(),
    phases: {
      collectRetypeRules,
      models: (ctx) => {
        const r = runModelPhase(ctx);
        passes = r.passes;
        converged = r.converged;
        changesPerPass = r.changesPerPass;
        skippedPerPass = r.skippedPerPass;
        return r;
      },
    },
  });
  return { ...result, passes, converged, changesPerPass, skippedPerPass };
}

/** Errors of a build as `code: message` lines. */
export function errors(result: BuildResult): string[] {
  return result.issues.filter((i) => i.severity === "error").map((i) =>
    `${i.code}: ${i.message} @${i.file}:${i.line ?? "?"} (${i.rule ?? ""})`
  );
}

/** Warnings of a build. */
export function warnings(result: BuildResult): string[] {
  return result.issues.filter((i) => i.severity === "warning").map((i) =>
    `${i.code}: ${i.message}`
  );
}

/** Names of the resources of `type`, sorted. */
export function names(graph: Graph, type: string): string[] {
  return graph.resourcesOfSorted(type).map((r) => r.name);
}

/** `source -[type]-> target` names of the relations of `type`, sorted. */
export function edges(graph: Graph, type: string): string[] {
  return [...graph.relations()].filter((r) => r.type === type)
    .map((r) => `${r.source.name}->${r.target.name}`).sort();
}

/** The resource (type, name) or a thrown error. */
export function get(graph: Graph, type: string, name: string): Resource {
  const r = graph.getResource(type, name);
  if (!r) throw new Error(`no ${type} '${name}'`);
  return r;
}
