/**
 * Test support for the output phase: an in-memory build with the real template renderer and the
 * model, compliance and output phases plugged in.
 *
 * @module
 */
import { buildGraph, type BuildResult } from "../../../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../../../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../../../lib/workspace/memory.ts";
import { loadSourceSet, type SourceSet } from "../../../lib/workspace/sources.ts";
import { collectRetypeRules, runModelPhase } from "../../../lib/pipeline/models/mod.ts";
import { runCompliancePhase } from "../../../lib/pipeline/compliance/mod.ts";
import { runOutputPhase } from "../../../lib/pipeline/outputs/mod.ts";
import type { Artifact } from "../../../lib/pipeline/context.ts";
import type { BuildIssue } from "../../../lib/pipeline/issues.ts";
import type { JsonValue } from "../../../lib/graph/graph.ts";

/** The full rule pipeline of a build. */
export const ALL_PHASES = {
  collectRetypeRules,
  models: runModelPhase,
  compliance: runCompliancePhase,
  outputs: runOutputPhase,
};

/** Builds a loaded source set with every rule phase. */
export function buildSources(
  sources: SourceSet,
  params: Record<string, JsonValue> = {},
): BuildResult {
  return buildGraph(sources, {
    params,
    createTemplates: (p) => createTemplateRenderer(p),
    phases: ALL_PHASES,
  });
}

/** Builds `files` (data directory, plus optional modules) with every rule phase. */
export async function buildOutputs(
  files: Record<string, string>,
  modules: { id: string; files: Record<string, string> }[] = [],
): Promise<BuildResult> {
  const sources = await loadSourceSet(
    new MemoryWorkspace(files),
    modules.map((m) => ({ id: m.id, workspace: new MemoryWorkspace(m.files) })),
  );
  return buildSources(sources);
}

/** Issues of a severity. */
export function issuesOf(r: BuildResult, severity: BuildIssue["severity"]): BuildIssue[] {
  return r.issues.filter((i) => i.severity === severity);
}

/** Throws with every error when the build failed. */
export function assertClean(r: BuildResult): void {
  const errors = issuesOf(r, "error");
  if (errors.length > 0) throw new Error("build errors:\n" + JSON.stringify(errors, null, 2));
}

/** The artifact (type, name) or a failure. */
export function artifact(r: BuildResult, type: string, name: string): Artifact {
  const a = r.artifacts.find((x) => x.type === type && x.name === name);
  if (!a) {
    throw new Error(
      `no artifact ${type}/${name}; have ${
        r.artifacts.map((x) => `${x.type}/${x.name}`).join(", ")
      }`,
    );
  }
  return a;
}
