/**
 * Incremental builds: a builder that remembers the sources and result of its last build and
 * builds the next one from them where it can prove the result equals a full build's (issue 15).
 *
 * Every build compares the new sources with the previous ones, file by file (the content decides,
 * not what a caller says changed). Then:
 *
 * - `reuse`: nothing differs, in a workspace without rule files → the previous result (its sealed
 *   graph) is the result;
 * - `properties`: only asset CSVs of the data directory differ, every changed row keeps its key
 *   and the values of its relation columns (columns named after a resource type), so names and
 *   relations are those of the previous graph, and — in a workspace with rule files (models,
 *   compliance, output) — no rule can read or write the changed fields (`rule_reach.ts`): the new
 *   graph is derived from the previous one (`Graph.derive`, `property_changes.ts`), sharing
 *   everything but the changed resources — the cost of the change, not of the graph;
 * - `rows`: only asset CSVs differ, in a workspace without rule files, and the change adds,
 *   removes or replaces rows whose names all resolve → the changed rows are spliced into the
 *   previous graph (`row_splice.ts`), without replaying the asset phase;
 * - `assets`: only asset CSVs differ, in a workspace without rule files → the asset phase is
 *   replayed from the previous graph with only the changed rows converted afresh
 *   ({@link replayAssetSteps}), and auto-linking runs (or is replayed) over the new graph;
 * - `rules`: only asset CSVs differ, in a workspace with rule files, and rules read the changed
 *   fields (or keys, rows or relation cells changed, or the asset replay cannot say which fields
 *   did): every phase runs, but the model phase evaluates only the (rule, origin) pairs whose
 *   reads may have changed and replays the recorded writes of the others (`models/pair_memo.ts`),
 *   and outputs whose inputs did not change are kept (`outputs/output_memo.ts`);
 * - `full`: anything else — a manifest, template, rule or input file changed, a file was added
 *   or removed, options or parameters changed, the previous build failed, the caller does not
 *   know what changed, or a changed file is not of a shape the replay handles.
 *
 * Results are new graphs: the previous (published) graph is only read.
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";
import { filesIn, layersInOrder, RULE_FOLDERS, type SourceSet } from "../../workspace/sources.ts";
import {
  type BuildOptions,
  type BuildResult,
  buildSteps,
  type SlicedBuildOptions,
} from "../build.ts";
import { runSteps, runStepsSliced, type Steps } from "../slicing.ts";
import { planAssetReplaySteps, replayAssetSteps } from "./asset_replay.ts";
import { LinkReplay } from "./link_replay.ts";
import { fieldReachOf, RuleReach, ruleReachOf } from "./rule_reach.ts";
import { linksReplayable, propertyChangesSteps } from "./property_changes.ts";
import { spliceRows } from "./row_splice.ts";
import type { KnownRows } from "./text_delta.ts";
import type { TemplateRenderer } from "../context.ts";
import { OutputMemo } from "../outputs/output_memo.ts";
import { ModelPairMemo } from "../models/pair_memo.ts";
import { ANY_FIELD } from "../models/reads.ts";

/** How a build was made: see the module documentation. */
export type BuildMode = "full" | "reuse" | "assets" | "properties" | "rows" | "rules";

/** A build result and how it was made. */
export interface IncrementalBuild {
  /** The result, equal to what a full build of the same sources gives. */
  result: BuildResult;
  /** `full`, `reuse`, `assets`, `properties`, `rows` or `rules`. */
  mode: BuildMode;
  /** Why a full build was needed, or what was replayed. */
  reason: string;
}

/** What the caller knows about the change since the last build. */
export interface ChangeHint {
  /** True when the caller cannot say what changed: the build is a full one. */
  unknown?: boolean;
}

interface Previous {
  sources: SourceSet;
  result: BuildResult;
  /** The rule analysis, once made (kept while the rule texts stay the same). */
  reach?: RuleReach;
  /** Row offsets of asset texts of `sources` (text_delta.ts), by path. */
  known: Map<string, KnownRows>;
  key: string;
  createTemplates: BuildOptions["createTemplates"];
  phases: BuildOptions["phases"];
}

type Plan =
  | { kind: "full"; reason: string }
  | { kind: "reuse" }
  | { kind: "assets"; changed: string[]; rules?: string };

/**
 * Builds incrementally where the result provably equals a full build (see the module doc).
 *
 * @example
 * ```ts
 * import { IncrementalBuilder } from "./builder.ts";
 * import { MemoryWorkspace } from "../../workspace/memory.ts";
 * import { loadSourceSet } from "../../workspace/sources.ts";
 * import { createTemplateRenderer } from "../templates.ts";
 * const workspace = new MemoryWorkspace({ "assets/host.csv": "name,port\na,1\nb,2\n" });
 * const builder = new IncrementalBuilder();
 * const options = { createTemplates: createTemplateRenderer };
 * builder.build(await loadSourceSet(workspace, []), options);
 * await workspace.writeTextAtomic("assets/host.csv", "name,port\na,1\nb,3\n");
 * const next = builder.build(await loadSourceSet(workspace, []), options);
 * console.log(next.mode, next.result.graph.getResource("host", "b")?.properties.port); // assets 3
 * ```
 */
export class IncrementalBuilder {
  #prev: Previous | undefined;
  /** Output results of the builds since the rules last changed (`output_memo.ts`). */
  #memo = new OutputMemo();
  /** Model (rule, origin) pairs of the builds since the rules last changed (`pair_memo.ts`). */
  #pairs = new ModelPairMemo();

  /** Forgets the previous build: the next build is a full one. */
  reset(): void {
    this.#prev = undefined;
    this.#memo = new OutputMemo();
    this.#pairs = new ModelPairMemo();
  }

  /** Builds synchronously. */
  build(sources: SourceSet, options: BuildOptions, hint: ChangeHint = {}): IncrementalBuild {
    return runSteps(this.steps(sources, options, hint));
  }

  /** Builds in time slices (see `buildGraphSliced`). */
  buildSliced(
    sources: SourceSet,
    options: SlicedBuildOptions,
    hint: ChangeHint = {},
  ): Promise<IncrementalBuild> {
    return runStepsSliced(this.steps(sources, options, hint), options);
  }

  /** The build as steps; the builder remembers the result once the steps complete. */
  *steps(
    sources: SourceSet,
    options: BuildOptions,
    hint: ChangeHint = {},
  ): Steps<IncrementalBuild> {
    const key = optionsKey(options);
    // Row offsets of the changed texts this build compares (text_delta.ts), for the next one.
    const learned = new Map<string, KnownRows>();
    const plan = hint.unknown ? { kind: "full" as const, reason: "unknown change" } : this.#plan(
      sources,
      options,
      key,
    );
    // Output results stay valid while only asset CSVs change (imports are not in their keys).
    if (plan.kind !== "assets" && plan.kind !== "reuse") {
      this.#memo = new OutputMemo();
      this.#pairs = new ModelPairMemo();
    }
    if (plan.kind !== "reuse") this.#pairs.nextBuild();
    options = { ...options, outputMemo: this.#memo, modelMemo: this.#pairs };
    let build: IncrementalBuild;
    if (plan.kind === "reuse") {
      build = { result: this.#prev!.result, mode: "reuse", reason: "no file changed" };
    } else if (plan.kind === "assets") {
      build = yield* this.#assetsBuild(plan, sources, options, learned);
    } else {
      build = { result: yield* buildSteps(sources, options), mode: "full", reason: plan.reason };
    }
    // A failed build (structural errors) is no base for the next one: keep nothing of it.
    const reach = this.#prev?.reach;
    // Offsets stay known while their text is the file's text (unchanged files keep theirs).
    const known = new Map<string, KnownRows>();
    for (const [path, rows] of [...(this.#prev?.known ?? []), ...learned]) {
      if (sources.data.files.get(path) === rows.text) known.set(path, rows);
    }
    this.#prev = build.result.outcome === "failed" ? undefined : {
      sources,
      result: build.result,
      reach,
      known,
      key,
      createTemplates: options.createTemplates,
      phases: options.phases,
    };
    return build;
  }

  /**
   * A build after changes to asset CSVs only: derived, replayed, or full when neither proves;
   * the row offsets of the changed texts go into `learned`.
   */
  *#assetsBuild(
    plan: { changed: string[]; rules?: string },
    sources: SourceSet,
    options: BuildOptions,
    learned: Map<string, KnownRows>,
  ): Steps<IncrementalBuild> {
    const prev = this.#prev!;
    let templates: TemplateRenderer | undefined;
    // Sliced (every few hundred rows): a change of every row of big files plans for long.
    const replay = yield* planAssetReplaySteps(
      prev.result,
      prev.sources,
      sources,
      plan.changed,
      prev.known,
      () => (templates ??= options.createTemplates(prev.result.params)),
      plan.rules !== undefined,
    );
    if (!replay.ok) {
      // Which fields differ is not known (the asset phase runs in full and says): every field
      // of the changed files' types, when each loaded last time (the manifest is unchanged, so
      // each loads as the same type).
      const dirty = plan.rules !== undefined ? changedTypes(prev.result, plan.changed) : undefined;
      if (dirty) {
        return yield* this.#rulesBuild(sources, options, plan.changed, dirty, replay.reason);
      }
      return { result: yield* buildSteps(sources, options), mode: "full", reason: replay.reason };
    }
    for (const block of replay.blocks.values()) {
      if (block.knownRows) learned.set(block.path, block.knownRows);
    }
    const changes = yield* propertyChangesSteps(
      prev.result,
      replay.blocks,
      plan.rules !== undefined,
    );
    if (plan.rules !== undefined) {
      // With rule files, only changes of fields no rule reads or writes (rule_reach.ts).
      const why = changes
        ? this.#ruleReach(sources, prev, changes.fields)
        : "more than properties changed";
      if (why !== undefined) {
        // Rules read the changed fields: a build that evaluates again only the (rule, origin)
        // pairs whose reads changed, replaying the others (models/pair_memo.ts). When keys,
        // rows or relation cells changed, every field of the changed files' types counts as
        // changed (`*` also stands for which resources exist), and so do the asset relations.
        const dirty = changes?.fields ?? changedTypes(prev.result, plan.changed)!;
        return yield* this.#rulesBuild(
          sources,
          options,
          plan.changed,
          dirty,
          changes ? "rules read the fields" : "more than properties changed",
          // Property changes keep every key and relation cell: the links are the last build's.
          changes === undefined,
        );
      }
    }
    const changed = plan.changed.join(", ");
    if (changes) {
      const result: BuildResult = {
        ...prev.result,
        graph: yield* prev.result.graph.deriveSteps(changes.properties),
        stats: { ...prev.result.stats, timings: {} },
      };
      return {
        result,
        mode: "properties",
        reason: `${changed} changed: ${changes.properties.size} resource(s) derived` +
          (plan.rules !== undefined ? "; no rule reads or writes the changed fields" : ""),
      };
    }
    const spliced = plan.rules === undefined ? spliceRows(prev.result, replay.blocks) : undefined;
    if (spliced !== undefined && typeof spliced !== "string") {
      return {
        result: spliced,
        mode: "rows",
        reason: `${changed} changed: ${replay.freshRows} row(s) spliced in`,
      };
    }
    const fresh = new Set<number>();
    const links = linksReplayable(prev.result, replay.blocks)
      ? new LinkReplay(prev.result.graph, fresh)
      : undefined;
    const result = yield* buildSteps(sources, options, {
      assetPhase: (ctx) => replayAssetSteps(ctx, prev.result, replay.blocks, fresh),
      link: links && ((ctx, phase, warn) => links.run(ctx.graph, ctx.issues, phase, warn)),
    });
    return {
      result,
      mode: "assets",
      reason: `${changed} changed: ${replay.freshRows} row(s) converted, ` +
        (links ? "links replayed" : "links rebuilt"),
    };
  }

  /**
   * A build that runs every phase, evaluating again only the model (rule, origin) pairs whose
   * reads may have changed and replaying the others (models/pair_memo.ts); `dirty` is what the
   * asset change may have changed (see `ModelPairMemo.allowReplay`).
   */
  *#rulesBuild(
    sources: SourceSet,
    options: BuildOptions,
    changed: readonly string[],
    dirty: ReadonlyMap<string, ReadonlySet<string>>,
    why: string,
    relations = true,
  ): Steps<IncrementalBuild> {
    this.#pairs.allowReplay(dirty, relations);
    const result = yield* buildSteps(sources, options);
    const { replayed, evaluated } = this.#pairs;
    return {
      result,
      mode: "rules",
      reason: `${changed.join(", ")} changed (${why}): ${evaluated} of ${
        replayed + evaluated
      } model (rule, origin) pair(s) evaluated, the others replayed`,
    };
  }

  /**
   * Why rules may read or write one of the changed fields (by type), `undefined` when none can:
   * types no rule reaches at all, or fields of reached types no rule names (rule_reach.ts).
   * The analysis of the rule files is kept while their texts stay the same.
   */
  #ruleReach(
    sources: SourceSet,
    prev: Previous,
    fields: ReadonlyMap<string, ReadonlySet<string>>,
  ): string | undefined {
    let reach = prev.reach;
    if (!reach?.analyses(sources)) prev.reach = reach = new RuleReach(sources);
    const { graph, manifest } = prev.result;
    for (const [type, changed] of fields) {
      const typeWhy = ruleReachOf(reach, graph, manifest, type);
      if (typeWhy === undefined) continue;
      const fieldWhy = fieldReachOf(reach, graph, manifest, type, changed);
      if (fieldWhy !== undefined) return `${typeWhy}, and ${fieldWhy}`;
    }
    return undefined;
  }

  #plan(sources: SourceSet, options: BuildOptions, key: string): Plan {
    const prev = this.#prev;
    if (!prev) return { kind: "full", reason: "no previous build (or it failed)" };
    if (
      prev.key !== key || prev.createTemplates !== options.createTemplates ||
      prev.phases !== options.phases
    ) {
      return { kind: "full", reason: "build options changed" };
    }
    const diff = diffSources(prev.sources, sources);
    if (typeof diff === "string") return { kind: "full", reason: diff };
    if (diff.length === 0) {
      // Nothing to re-run: the result is a function of the sources and options.
      return ruleFiles(sources)
        ? { kind: "full", reason: "rule files present" }
        : { kind: "reuse" };
    }
    for (const path of diff) {
      if (!path.startsWith("assets/") || !path.endsWith(".csv")) {
        return { kind: "full", reason: `${path} changed` };
      }
    }
    if (options.removeOrphanedAssets) return { kind: "full", reason: "orphan removal" };
    return { kind: "assets", changed: diff, rules: ruleFiles(sources) };
  }
}

/**
 * {@link ANY_FIELD} for the type of each changed data-directory asset file, as the previous build
 * loaded it; `undefined` when one of them did not load then.
 */
function changedTypes(
  prev: BuildResult,
  changed: readonly string[],
): Map<string, Set<string>> | undefined {
  const out = new Map<string, Set<string>>();
  for (const path of changed) {
    const file = path.slice("assets/".length);
    const loaded = prev.assets.find((a) => a.file === file);
    if (loaded === undefined) return undefined;
    out.set(loaded.type, new Set([ANY_FIELD]));
  }
  return out;
}

/** Options that change results, as one comparable string. */
function optionsKey(options: BuildOptions): string {
  return JSON.stringify([
    canonical(options.params ?? {}),
    options.maxLoop ?? 8,
    options.removeOrphanedAssets ?? false,
    options.rerunUnchangedRules ?? false,
  ]);
}

function canonical(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical(value[k]);
    return out;
  }
  return value;
}

/** The first rule file of the sources (models, compliance, output), if any. */
function ruleFiles(sources: SourceSet): string | undefined {
  for (const folder of RULE_FOLDERS) {
    const files = filesIn(sources, folder);
    if (files.length > 0) return files[0].displayPath;
  }
  return undefined;
}

/**
 * Data-directory paths whose text differs between two source sets, or why the sets differ in
 * more than file texts of the data directory (layers, manifests, unreadable files, files added
 * or removed, module files changed).
 */
export function diffSources(a: SourceSet, b: SourceSet): string[] | string {
  const la = layersInOrder(a);
  const lb = layersInOrder(b);
  if (la.length !== lb.length) return "modules changed";
  const changed: string[] = [];
  for (let i = 0; i < la.length; i++) {
    const x = la[i];
    const y = lb[i];
    if (x.id !== y.id || x.isDataDir !== y.isDataDir || x.location !== y.location) {
      return "modules changed";
    }
    if (x.manifestText !== y.manifestText) return `${y.id}: module.toml changed`;
    if ((x.errors?.length ?? 0) > 0 || (y.errors?.length ?? 0) > 0) return "unreadable files";
    if (x.files.size !== y.files.size) return `${y.id}: files added or removed`;
    for (const [path, text] of y.files) {
      const before = x.files.get(path);
      if (before === undefined) return `${y.id}: files added or removed`;
      if (before === text) continue;
      if (!y.isDataDir) return `${y.id}/${path} changed`;
      changed.push(path);
    }
  }
  return changed;
}
