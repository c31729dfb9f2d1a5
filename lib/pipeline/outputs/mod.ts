/**
 * The output phase (reference OU1–OU11, spec §2.2–§2.4, templates T34–T35): `[[output]]` rules of
 * every layer's `output/` folder turn the governed graph into output resources and downloadable
 * artifacts.
 *
 * For every origin resource of the chunk's `origin_resource` type (by name) that passes
 * `match_on` — or exactly once when the file declares no `origin_resource` (OU2) — a rule renders
 * its `name` (Tera), evaluates its body (Tera `template` or `jsonnet`, exactly one), and creates
 * the output resource (`resource_type`, name) with relation origin -[`DESCRIBED_BY`]-> output.
 * JSON-object results become properties; text results (Jsonnet strings, non-JSON templates of a
 * rule with a non-JSON `mimetype`) are stored verbatim in the string property `content`, which is
 * how GraphQL shows them (see `result.ts`). `filename` (Tera) and `mimetype` are stored when both
 * are present (OU5). One {@link Artifact} is pushed per output resource, in creation order, with
 * the exact body served for downloads (OU11) and its first origin by (type, name) (OU21).
 *
 * Jsonnet sees `std.extVar("origin_resource")` (properties plus one array per relation field,
 * expanded two levels deep, T34), one external variable per header variable and per module
 * parameter (plus `params`), and imports `.libsonnet` files next to the rule file.
 *
 * All rules are evaluated against the graph as compliance left it; results are written afterwards
 * in rule order, so no output sees another output (deterministic whatever the file order) [P].
 * Several results for one (type, name) merge with model-phase overwrite semantics (OU9), a changed
 * value being reported as a warning. Errors name the file, rule (`chunk 1, output[0].jsonnet`),
 * origin, and the template/program position with its line in the rule file; a failing rule or
 * origin never hides the errors of the others.
 *
 * @example
 * ```ts
 * import { runOutputPhase } from "./mod.ts";
 * // buildGraph(sources, { createTemplates, phases: { outputs: runOutputPhase } });
 * console.log(typeof runOutputPhase); // "function"
 * ```
 *
 * @module
 */
import { compareStrings, type JsonValue, type Resource } from "../../graph/graph.ts";
import type { Artifact, PhaseContext } from "../context.ts";
import { parseRuleFile } from "../../formats/toml.ts";
import { ParseError } from "../../formats/errors.ts";
import { type PreparedChunk, RuleEnvironment } from "../rules/environment.ts";
import { reportRuleError } from "../rules/errors.ts";
import { compileOutputRule, outputRuleFiles } from "./compile.ts";
import { artifactBody } from "./result.ts";
import { PlainResourceCache } from "./jsonnet.ts";
import { evaluateRuleSteps, type OutputWrite, RuleRun } from "./evaluate.ts";
import { runSteps, type Steps } from "../slicing.ts";

export { artifactBody, CONTENT_PROPERTY, isJsonMime } from "./result.ts";
export type { Artifact } from "../context.ts";
export type { JsonValue, Properties, Resource } from "../../graph/graph.ts";

/** Relation from an origin to each of its output resources (OU5). */
export const DESCRIBED_BY = "DESCRIBED_BY";

/**
 * Runs every output rule of the build; fills `ctx.artifacts`. Problems become build issues
 * (phase `outputs`); the function never throws for bad input.
 *
 * @example
 * ```ts ignore
 * const result = buildGraph(sources, { createTemplates, phases: { outputs: runOutputPhase } });
 * for (const a of result.artifacts) console.log(a.type, a.name, a.filename);
 * ```
 */
export function runOutputPhase(ctx: PhaseContext): void {
  runSteps(outputPhaseSteps(ctx));
}

/**
 * {@link runOutputPhase} as steps (see `slicing.ts`): pauses between rules, every few origins
 * and while writing the results.
 *
 * @example
 * ```ts
 * import { outputPhaseSteps } from "./mod.ts";
 * // buildGraph(sources, { createTemplates, phases: { outputs: outputPhaseSteps } });
 * console.log(typeof outputPhaseSteps); // "function"
 * ```
 */
export function* outputPhaseSteps(ctx: PhaseContext): Steps<void> {
  const env = new RuleEnvironment(ctx, "outputs");
  const { rules, ignored } = outputRuleFiles(ctx.sources);
  for (const f of ignored) {
    ctx.issues.info("output_file_ignored", `${f.displayPath} holds no [[output]] rules; ignored`, {
      file: f.displayPath,
      phase: "outputs",
    });
  }
  const writes: OutputWrite[] = [];
  const plain = new PlainResourceCache(ctx.graph);
  const memo = ctx.options.outputMemo;
  memo?.nextBuild();
  for (const source of rules) {
    let parsed;
    try {
      parsed = parseRuleFile(source.text, source.displayPath, { blockKinds: ["output"] });
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      ctx.issues.error(e.code, e.reason, {
        file: source.displayPath,
        line: e.line,
        column: e.column,
        phase: "outputs",
      });
      continue;
    }
    for (const chunk of parsed.chunks) {
      let prepared: PreparedChunk;
      try {
        prepared = env.prepareChunk(source, chunk);
      } catch (e) {
        reportRuleError(ctx.issues, "outputs", { file: source.displayPath, chunk }, e);
        continue;
      }
      if (chunk.originType === undefined && chunk.blocks.length > 0) {
        ctx.issues.info(
          "output_without_origin",
          `no origin_resource: the rules of chunk ${chunk.number} run once in a global context`,
          { file: source.displayPath, line: chunk.startLine, phase: "outputs" },
        );
      }
      for (const block of chunk.blocks) {
        yield;
        const site = { file: source.displayPath, chunk, block };
        let compiled;
        try {
          compiled = compileOutputRule(block);
        } catch (e) {
          reportRuleError(ctx.issues, "outputs", site, e);
          continue;
        }
        const run = new RuleRun(env, prepared, block, compiled.rule, plain);
        for (const w of compiled.warnings) run.warn("unknown_key", w);
        // A loop, not push(...spread): one rule can write more values than the argument limit.
        for (const w of yield* evaluateRuleSteps(run)) writes.push(w);
      }
    }
  }
  if (memo && memo.hits + memo.misses > 0) {
    ctx.log(
      "debug",
      `outputs: ${memo.misses} Jsonnet bod${
        memo.misses === 1 ? "y" : "ies"
      } evaluated, ${memo.hits} unchanged from the last build`,
    );
  }
  if (memo && memo.renderedHits + memo.renderedMisses > 0) {
    ctx.log(
      "debug",
      `outputs: ${memo.renderedMisses} template output(s) rendered, ${memo.renderedHits} unchanged from the last build`,
    );
  }
  yield* applyWrites(ctx, writes);
}

/** Results written between two pause points. */
const WRITES_PER_STEP = 64;

function* applyWrites(ctx: PhaseContext, writes: readonly OutputWrite[]): Steps<void> {
  const graph = ctx.graph;
  const outputs: Resource[] = [];
  const origins = new Map<number, Resource | undefined>();
  let tick = 0;
  for (const w of writes) {
    if (++tick === WRITES_PER_STEP) {
      tick = 0;
      yield;
    }
    const existing = graph.getResource(w.type, w.name);
    if (existing) {
      for (const [k, v] of Object.entries(w.properties)) {
        const old = existing.properties[k];
        if (k !== "name" && old !== undefined && JSON.stringify(old) !== JSON.stringify(v)) {
          ctx.issues.warn(
            "output_overwrite",
            `${w.type} '${w.name}': property '${k}' overwritten by another output result`,
            { file: w.file, rule: w.rule, phase: "outputs" },
          );
        }
      }
    }
    const resource = graph.upsertResource(
      w.type,
      w.name,
      w.properties as Record<string, JsonValue>,
    );
    if (!origins.has(resource.id)) {
      outputs.push(resource);
      origins.set(resource.id, w.origin);
    } else if (w.origin) {
      const first = origins.get(resource.id);
      if (!first || compareOrigin(w.origin, first) < 0) origins.set(resource.id, w.origin);
    }
    if (w.origin) graph.upsertRelation(w.origin, DESCRIBED_BY, resource);
  }
  for (const resource of outputs) {
    if (++tick === WRITES_PER_STEP) {
      tick = 0;
      yield;
    }
    const filename = resource.properties.filename;
    const mimetype = resource.properties.mimetype;
    const origin = origins.get(resource.id);
    const artifact: Artifact = {
      type: resource.type,
      name: resource.name,
      body: artifactBody(resource),
    };
    if (typeof filename === "string" && typeof mimetype === "string") {
      artifact.filename = filename;
      artifact.mimetype = mimetype;
    }
    if (origin) artifact.origin = { type: origin.type, name: origin.name };
    ctx.artifacts.push(artifact);
  }
}

function compareOrigin(a: Resource, b: Resource): number {
  return compareStrings(a.type, b.type) || compareStrings(a.name, b.name);
}
