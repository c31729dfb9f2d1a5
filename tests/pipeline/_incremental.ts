/**
 * Shared by the incremental-build tests (issue 15): in-memory source sets and everything a
 * reader can see of a build result, to compare incremental builds with full ones.
 */
import type { BuildOptions, BuildResult } from "../../lib/pipeline/build.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import type { Layer, SourceSet } from "../../lib/workspace/sources.ts";
import type { JsonValue } from "../../lib/graph/graph.ts";

/** Build options with every phase, a fixed clock and a fixed random seed. */
export const OPTIONS: BuildOptions = {
  createTemplates: (params) =>
    createTemplateRenderer(params, { clock: () => new Date("2026-01-02T03:04:05Z"), seed: 7 }),
  phases: defaultPhases,
};

/** Everything a reader can see of a build result, in iteration order. */
export function dump(r: BuildResult): JsonValue {
  const g = r.graph;
  const resources = [...g.resources()].map((x) => [
    x.id,
    x.type,
    x.name,
    JSON.stringify(x.properties),
    g.outgoing(x).map((e) => [e.id, e.type, e.target.id, JSON.stringify(e.properties)]),
    g.incoming(x).map((e) => e.id),
  ]);
  const relations = [...g.relations()].map((e) => [e.id, e.type, e.source.id, e.target.id]);
  const { timings: _t, ...stats } = r.stats;
  return JSON.parse(JSON.stringify({
    ok: r.ok,
    outcome: r.outcome,
    json: g.toJSON(),
    resources,
    relations,
    types: g.types(),
    issues: r.issues,
    artifacts: r.artifacts,
    assets: r.assets,
    params: r.params,
    stats,
    // The files that created or changed each resource (explorer provenance) match too.
    provenance: [...g.resources()].map((x) => r.provenance.entriesOf(x, r.assets)),
  }));
}

/** A data directory of `files` (its `module.toml` becomes the manifest) and no modules. */
export function memorySources(files: Record<string, string>): SourceSet {
  // The manifest is the layer's `manifestText`, not one of its files (sources.ts).
  const { "module.toml": manifestText, ...rest } = files;
  const data: Layer = {
    id: "data",
    isDataDir: true,
    location: "memory:",
    manifestText,
    files: new Map(Object.entries(rest).sort(([a], [b]) => a < b ? -1 : 1)),
  };
  return { modules: [], data };
}
