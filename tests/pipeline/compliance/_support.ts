/**
 * Test support for the compliance phase: an in-memory build with the real template renderer and
 * the model and compliance phases plugged in.
 *
 * @module
 */
import { buildGraph, type BuildResult } from "../../../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../../../lib/pipeline/templates.ts";
import { MemoryWorkspace } from "../../../lib/workspace/memory.ts";
import { loadSourceSet } from "../../../lib/workspace/sources.ts";
import { collectRetypeRules, runModelPhase } from "../../../lib/pipeline/models/mod.ts";
import { runCompliancePhase } from "../../../lib/pipeline/compliance/mod.ts";
import type { BuildIssue } from "../../../lib/pipeline/issues.ts";
import type { JsonValue, Relation, Resource } from "../../../lib/graph/graph.ts";
import type { Graph } from "../../../lib/graph/graph.ts";

/** Builds `files` (data directory) with models and compliance. */
export async function buildCompliance(
  files: Record<string, string>,
  modules: { id: string; files: Record<string, string> }[] = [],
): Promise<BuildResult> {
  const sources = await loadSourceSet(
    new MemoryWorkspace(files),
    modules.map((m) => ({ id: m.id, workspace: new MemoryWorkspace(m.files) })),
  );
  return buildGraph(sources, {
    createTemplates: (p) => createTemplateRenderer(p),
    phases: { collectRetypeRules, models: runModelPhase, compliance: runCompliancePhase },
  });
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

/** The resource (type, name) or a failure. */
export function res(g: Graph, type: string, name: string): Resource {
  const r = g.getResource(type, name);
  if (!r) throw new Error(`missing ${type} '${name}'`);
  return r;
}

/** The single relation source -[type]-> target or a failure. */
export function rel(g: Graph, source: Resource, type: string, target: Resource): Relation {
  const r = g.getRelation(source, type, target);
  if (!r) {
    throw new Error(
      `missing ${source.type}/${source.name} -[${type}]-> ${target.type}/${target.name}`,
    );
  }
  return r;
}

/** Properties as plain JSON. */
export function props(r: { properties: Record<string, JsonValue> }): Record<string, JsonValue> {
  return JSON.parse(JSON.stringify(r.properties));
}
