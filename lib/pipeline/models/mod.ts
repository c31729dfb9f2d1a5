/**
 * The model phase (reference M1–M92, O9–O12): derive resources and relations from
 * `models/*.toml` rules. Rules are compiled once, chunks are ordered by a read/write dependency
 * analysis, and the whole rule set is repeated until the graph stops changing (at most
 * `options.maxLoop` passes), so results do not depend on file order. From the second pass on, a
 * block is skipped when nothing it reads (a conservative static read set, see `reads.ts`) was
 * written since it last ran cleanly and no other rule overwrote the fields it wrote, so the
 * confirming pass is cheap and the result is the same as re-running everything. Auto-linking is
 * not run between passes (reference O7: it follows the phase), so a property written by a rule
 * never turns into a relation field under the feet of the next pass's templates (T14).
 *
 * @example
 * ```ts
 * import { runModelPhase, collectRetypeRules } from "./mod.ts";
 * // const retype = collectRetypeRules(ctx); autoLink(ctx.graph, ctx.issues, { retypeRules: retype });
 * // const { passes, converged } = runModelPhase(ctx);
 * console.log(typeof runModelPhase, typeof collectRetypeRules); // "function" "function"
 * ```
 *
 * @module
 */
import type { PhaseContext } from "../context.ts";
import type { RetypeRule } from "../linking.ts";
import { IssueCollector } from "../issues.ts";
import type { RuleBlock } from "../../formats/toml.ts";
import {
  type LoadedRuleFile,
  loadRuleFiles,
  type PreparedChunk,
  RuleEnvironment,
} from "../rules/environment.ts";
import { reportRuleError } from "../rules/errors.ts";
import { compileModelBlock, MODEL_BLOCK_KINDS, type ModelRule } from "./compile.ts";
import { chunkEffects, orderChunks } from "./order.ts";
import { BlockRun, type ModelRunState } from "./run.ts";
import { runCreate } from "./create_resource.ts";
import { runLink } from "./link_resources.ts";
import { runCopy } from "./copy_property.ts";
import { GraphWriter } from "./writer.ts";
import { blockReads, type ReadSet } from "./reads.ts";
import { type PairReads, pairReads } from "./pair_memo.ts";
import { runSteps, type Steps } from "../slicing.ts";

/** Outcome of {@link runModelPhase}. */
export interface ModelPhaseResult {
  /** Passes run (the last one confirms that nothing changed, when converged). */
  passes: number;
  /** True when the last pass changed nothing. */
  converged: boolean;
  /** Rule blocks evaluated per pass. */
  rules: number;
  /** Effective graph changes per pass. */
  changesPerPass: number[];
  /** Rule blocks skipped per pass because nothing they read had changed since their last run. */
  skippedPerPass: number[];
}

/** Read analysis and last run of one block (for skipping unchanged blocks). */
interface BlockMemo {
  reads: ReadSet;
  /** What its (rule, origin) pairs read, for keeping them across builds (`pair_memo.ts`). */
  pairs?: PairReads;
  /** Writer sequence when the block last started, if it ran without failures. */
  cleanSince?: number;
  /** Writer sequence when it last ended, and the fields it tried to write then. */
  endedAt?: number;
  wrote?: Map<string, Set<string>>;
}

/** Default pass limit when `options.maxLoop` is not set. */
export const DEFAULT_MAX_LOOP = 8;

interface CompiledChunk {
  file: LoadedRuleFile;
  chunkIndex: number;
  rules: { block: RuleBlock; rule: ModelRule }[];
}

const parsed = new WeakMap<IssueCollector, LoadedRuleFile[]>();
const compiled = new WeakMap<IssueCollector, CompiledChunk[]>();
const retypeCache = new WeakMap<IssueCollector, RetypeRule[]>();

function modelFiles(ctx: PhaseContext): LoadedRuleFile[] {
  let files = parsed.get(ctx.issues);
  if (!files) {
    files = loadRuleFiles(ctx, "models", { blockKinds: MODEL_BLOCK_KINDS }, "models");
    parsed.set(ctx.issues, files);
  }
  return files;
}

function compileAll(ctx: PhaseContext): CompiledChunk[] {
  let out = compiled.get(ctx.issues);
  if (out) return out;
  out = [];
  for (const file of modelFiles(ctx)) {
    file.parsed.chunks.forEach((chunk, chunkIndex) => {
      const rules: CompiledChunk["rules"] = [];
      for (const block of chunk.blocks) {
        try {
          rules.push({ block, rule: compileModelBlock(block) });
        } catch (e) {
          reportRuleError(ctx.issues, "models", { file: file.source.displayPath, chunk, block }, e);
        }
      }
      out!.push({ file, chunkIndex, rules });
    });
  }
  compiled.set(ctx.issues, out);
  return out;
}

/**
 * Collects every `[[retype_relation]]` of the model files (reference M55–M57). Called before the
 * first auto-linking; parse and rule errors are reported once per build (the model phase reuses
 * the parsed files of the same build).
 *
 * @example
 * ```ts
 * import { collectRetypeRules } from "./mod.ts";
 * // collectRetypeRules(ctx) -> [{ originType: "app", propertyKey: "db_host", newType: "USES_DB_HOST", targetType: "host" }]
 * console.log(typeof collectRetypeRules); // "function"
 * ```
 */
export function collectRetypeRules(ctx: PhaseContext): RetypeRule[] {
  const cached = retypeCache.get(ctx.issues);
  if (cached) return cached;
  const out: RetypeRule[] = [];
  retypeCache.set(ctx.issues, out);
  for (const c of compileAll(ctx)) {
    const chunk = c.file.parsed.chunks[c.chunkIndex];
    for (const { block, rule } of c.rules) {
      if (rule.kind !== "retype_relation") continue;
      if (!chunk.originType) {
        reportRuleError(
          ctx.issues,
          "models",
          { file: c.file.source.displayPath, chunk, block },
          new Error(
            "[[retype_relation]] needs an origin_resource in the file header",
          ),
        );
        continue;
      }
      out.push({
        originType: chunk.originType,
        propertyKey: rule.propertyKey,
        newType: rule.newType,
        targetType: rule.targetType,
        file: c.file.source.displayPath,
      });
    }
  }
  return out;
}

/**
 * Runs the model phase on `ctx.graph`. Errors are reported to `ctx.issues` (all of them; rule
 * evaluation continues with other rules and origins).
 *
 * @example
 * ```ts
 * import { runModelPhase } from "./mod.ts";
 * // const result = runModelPhase(ctx); // { passes: 2, converged: true, ... }
 * console.log(typeof runModelPhase); // "function"
 * ```
 */
export function runModelPhase(ctx: PhaseContext): ModelPhaseResult {
  return runSteps(modelPhaseSteps(ctx));
}

/**
 * {@link runModelPhase} as steps (see `slicing.ts`): pauses between blocks and every few
 * origins of a block.
 *
 * @example
 * ```ts
 * import { modelPhaseSteps } from "./mod.ts";
 * // buildGraph(sources, { createTemplates, phases: { models: modelPhaseSteps } });
 * console.log(typeof modelPhaseSteps); // "function"
 * ```
 */
export function* modelPhaseSteps(ctx: PhaseContext): Steps<ModelPhaseResult> {
  const chunks = compileAll(ctx);
  const env = new RuleEnvironment(ctx, "models");
  collectRetypeRules(ctx); // validates retype rules (reported once per build)
  const order = orderChunks(
    chunks.map((c) =>
      chunkEffects(c.file.parsed.chunks[c.chunkIndex].originType, c.rules.map((r) => r.rule))
    ),
  );
  ctx.log(
    "debug",
    `models: chunk order: ${
      order.map((i) => `${chunks[i].file.source.displayPath}#${chunks[i].chunkIndex + 1}`).join(
        ", ",
      )
    }`,
  );
  const state: ModelRunState = {
    env,
    writer: new GraphWriter(ctx.graph, ctx.issues, ctx.provenance),
    reported: new Set(),
    passReported: new Set(),
    errorsPerBlock: new Map(),
    passIssues: new IssueCollector(),
    pass: 0,
  };
  const prepared = new Map<CompiledChunk, PreparedChunk | null>();
  const memos = new Map<RuleBlock, BlockMemo>();
  const skippedPerPass: number[] = [];
  const maxLoop = Math.max(1, ctx.options.maxLoop || DEFAULT_MAX_LOOP);
  const changesPerPass: number[] = [];
  const ruleCount = chunks.reduce(
    (n, c) => n + c.rules.filter((r) => r.rule.kind !== "retype_relation").length,
    0,
  );
  let converged = ruleCount === 0;
  if (ruleCount === 0) return { passes: 0, converged, rules: 0, changesPerPass, skippedPerPass };
  const resetCounters = (ctx.templates as { resetCounters?: () => void }).resetCounters;
  let anyImpure = false;
  for (let pass = 1; pass <= maxLoop; pass++) {
    state.pass = pass;
    state.writer.resetChanges();
    state.passIssues = new IssueCollector();
    state.passReported.clear();
    state.errorsPerBlock.clear();
    resetCounters?.call(ctx.templates);
    let skipped = 0;
    for (const i of order) {
      const c = chunks[i];
      let p = prepared.get(c);
      if (p === undefined) {
        const chunk = c.file.parsed.chunks[c.chunkIndex];
        try {
          p = env.prepareChunk(c.file.source, chunk);
        } catch (e) {
          reportRuleError(ctx.issues, "models", { file: c.file.source.displayPath, chunk }, e);
          p = null;
        }
        prepared.set(c, p);
      }
      if (p === null) continue;
      for (const { block, rule } of c.rules) {
        let memo = memos.get(block);
        if (!memo) {
          const r = blockReads(p.chunk.originType, rule, p.header);
          memo = { reads: r.reads, pairs: pairReads(p.chunk.originType, rule, p.header) };
          memos.set(block, memo);
          if (r.impure) anyImpure = true;
        }
        // Skip a block whose inputs are unchanged since it last ran cleanly and whose outputs
        // nobody overwrote since: re-running it would write exactly what is already there.
        // Counters make output order-dependent: never skip then.
        if (
          !anyImpure && !ctx.options.rerunUnchangedRules && memo.cleanSince !== undefined &&
          !state.writer.changedSince(memo.reads, memo.cleanSince) &&
          !state.writer.writtenSince(memo.wrote!, memo.endedAt!)
        ) {
          skipped++;
          continue;
        }
        const start = state.writer.sequence;
        const run = new BlockRun(state, p, block);
        const pairMemo = ctx.options.modelMemo;
        if (pass === 1 && pairMemo) {
          // The first pass runs (or replays) what the last build's first pass ran.
          const key = `${c.file.source.displayPath}\u0000${run.label}`;
          const reads = memo.pairs;
          run.pairsFor = () => pairMemo.block(key, reads, ctx.graph);
        }
        state.writer.beginAttempts();
        try {
          yield* runRule(rule, run);
        } finally {
          memo.wrote = state.writer.endAttempts();
        }
        memo.endedAt = state.writer.sequence;
        memo.cleanSince = run.failures === 0 ? start : undefined;
      }
    }
    const changes = state.writer.changes;
    changesPerPass.push(changes);
    skippedPerPass.push(skipped);
    ctx.log(
      "debug",
      `models: pass ${pass}: ${changes} change(s), ${skipped} unchanged rule(s) skipped`,
    );
    if (changes === 0 || pass === maxLoop) {
      for (const issue of state.passIssues.all) ctx.issues.report(issue);
    }
    if (changes === 0) {
      converged = true;
      break;
    }
  }
  const passes = changesPerPass.length;
  if (!converged) {
    const message = `model rules did not converge within ${maxLoop} passes (last pass changed ` +
      `${changesPerPass[passes - 1]} value(s)); raise --max-loop or check for rules that keep ` +
      `changing each other's output`;
    ctx.log("warn", message);
    ctx.issues.warn("model_max_loop", message, { phase: "models" });
  } else {
    ctx.log("info", `models: ${ruleCount} rule(s), converged after ${passes} pass(es)`);
  }
  return { passes, converged, rules: ruleCount, changesPerPass, skippedPerPass };
}

function* runRule(rule: ModelRule, run: BlockRun): Steps<void> {
  yield;
  switch (rule.kind) {
    case "create_resource":
      return yield* runCreate(rule, run);
    case "link_resources":
      return yield* runLink(rule, run);
    case "copy_property":
      return yield* runCopy(rule, run);
    case "retype_relation":
      return; // declarative: applied by auto-linking (M57)
  }
}
