/**
 * What a rule implementation needs while running one block over its origins.
 *
 * @module
 */
import type { Graph, Resource } from "../../graph/graph.ts";
import type { RuleBlock } from "../../formats/toml.ts";
import type { PreparedChunk, RuleEnvironment } from "../rules/environment.ts";
import { positionOf, reportRuleError, RuleError, ruleLabel } from "../rules/errors.ts";
import { HeaderError } from "../rules/header.ts";
import type { GraphWriter, WriteSite } from "./writer.ts";
import type { BlockPairs } from "./pair_memo.ts";
import type { ConditionScope } from "../rules/conditions.ts";
import type { IssueCollector } from "../issues.ts";

/** Errors reported per rule block before the rest are summarised. */
export const MAX_ERRORS_PER_BLOCK = 5;

/** Origins a rule block evaluates between two pause points of a sliced build (`slicing.ts`). */
export const ORIGINS_PER_STEP = 4;

/**
 * Kept pairs replayed in a row before {@link BlockRun.origins} hands out a `null` (a few µs each:
 * a `null` per pair cost more in generator resumptions than the replay itself).
 */
const REPLAYS_PER_NULL = 32;

/** Shared state of one build's model phase. */
export interface ModelRunState {
  /** Rule environment. */
  env: RuleEnvironment;
  /** Writer with change tracking. */
  writer: GraphWriter;
  /** Warning keys already reported (dedupe across passes). */
  reported: Set<string>;
  /** Error keys reported in the current pass. */
  passReported: Set<string>;
  /** Errors per block label in the current pass (for the per-block cap). */
  errorsPerBlock: Map<string, number>;
  /**
   * Errors of the current pass. Only the last pass's errors are published: an error that a
   * later pass no longer sees (data produced by a rule that ran later) is not an error.
   */
  passIssues: IssueCollector;
  /** Current pass (1-based). */
  pass: number;
}

/** One block evaluation over the origins of its chunk. */
export class BlockRun {
  /** The graph. */
  readonly graph: Graph;
  /** Rule label, e.g. `chunk 1, create_resource[0]`. */
  readonly label: string;

  /**
   * Prepares one block evaluation.
   *
   * @param state model phase state
   * @param prepared the block's chunk
   * @param block the block
   */
  constructor(
    readonly state: ModelRunState,
    readonly prepared: PreparedChunk,
    readonly block: RuleBlock,
  ) {
    this.graph = state.env.ctx.graph;
    this.label = ruleLabel(prepared.chunk.number, block.kind, block.index);
  }

  /** File shown to users. */
  get file(): string {
    return this.prepared.source.displayPath;
  }

  /**
   * Makes the pairs of this block kept across builds (`pair_memo.ts`) for the origins it runs
   * for; set by the model phase in its first pass.
   */
  pairsFor: (() => BlockPairs) | undefined;

  /**
   * Origins of the chunk, by name (or one global iteration). With {@link BlockRun.pairsFor}, pairs
   * kept from the last build are replayed here, and every {@link REPLAYS_PER_NULL} of them in a
   * row come out as one `null` (skip it; it still counts for pausing); the writer calls of the
   * others are recorded while the caller evaluates them, until it asks for the next origin.
   */
  *origins(): Generator<Resource | undefined | null, void, undefined> {
    const t = this.prepared.chunk.originType;
    const list = t === undefined ? [undefined] : this.graph.resourcesOfSorted(t);
    const pairs = this.pairsFor?.();
    if (pairs === undefined) {
      yield* list;
      return;
    }
    const writer = this.state.writer;
    let replayed = 0;
    try {
      for (const origin of list) {
        const calls = pairs.replayable(origin);
        if (calls !== undefined) {
          writer.replay(calls, this.site(origin));
          if (++replayed === REPLAYS_PER_NULL) {
            replayed = 0;
            yield null;
          }
          continue;
        }
        replayed = 0;
        const failures = this.failures;
        const warnings = this.warnings;
        writer.beginCalls();
        try {
          yield origin;
        } finally {
          const recorded = writer.endCalls();
          pairs.evaluated(recorded, this.failures === failures && this.warnings === warnings);
        }
      }
    } finally {
      pairs.finish();
    }
  }

  /** Template context of an iteration (header evaluated for `origin`). */
  scope(
    origin: Resource | undefined,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    return this.state.env.iterationScope(this.prepared, origin, extra).context;
  }

  /** Renders a rule string in `context`. */
  render(source: string, context: Record<string, unknown>, key: string): string {
    return this.state.env.render(source, context, this.file, `${this.label}.${key}`, key);
  }

  /**
   * A condition scope whose context is built lazily (header evaluation only when a condition
   * value is a template). `extra` adds variables (e.g. `target_resource`).
   */
  conditionScope(context: () => Record<string, unknown>): ConditionScope {
    return { graph: this.graph, render: (s, key) => this.render(s, context(), key) };
  }

  /** Write site for `origin`. */
  site(origin: Resource | undefined): WriteSite {
    const site: WriteSite = {
      file: this.file,
      rule: this.label,
      line: this.block.position.line,
      origin: origin?.id ?? -1,
      siteNumber: this.#siteNumber,
    };
    this.state.writer.intern(site);
    this.#siteNumber = site.siteNumber;
    return site;
  }

  #siteNumber: number | undefined;

  /** Lazy view of a resource. */
  view(resource: Resource): Record<string, unknown> {
    return this.state.env.views.view(resource);
  }

  /** Failures reported by this run (a block that failed is never skipped in a later pass). */
  failures = 0;

  /** Reports a failure for one origin (kept for the pass; capped per block). */
  fail(error: unknown, origin?: Resource): void {
    this.failures++;
    if (error instanceof HeaderError) {
      // Header failures belong to the chunk, not to this block; static ones name no origin.
      const o = error.dynamic ? origin : undefined;
      const id = `H\u0000${this.file}\u0000${this.prepared.chunk.number}\u0000${
        o?.id ?? -1
      }\u0000${error.message}`;
      if (this.state.passReported.has(id)) return;
      this.state.passReported.add(id);
      const hid = `H\u0000${this.file}\u0000${this.prepared.chunk.number}`;
      const count = (this.state.errorsPerBlock.get(hid) ?? 0) + 1;
      this.state.errorsPerBlock.set(hid, count);
      if (count > MAX_ERRORS_PER_BLOCK) return;
      reportRuleError(
        this.state.passIssues,
        "models",
        { file: this.file, chunk: this.prepared.chunk },
        error,
        o ? { type: o.type, name: o.name } : undefined,
      );
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const id = `${this.file}\u0000${this.label}\u0000${origin?.id ?? -1}\u0000${message}`;
    if (this.state.passReported.has(id)) return;
    this.state.passReported.add(id);
    const blockId = `${this.file}\u0000${this.label}`;
    const count = (this.state.errorsPerBlock.get(blockId) ?? 0) + 1;
    this.state.errorsPerBlock.set(blockId, count);
    const site = { file: this.file, chunk: this.prepared.chunk, block: this.block };
    if (count <= MAX_ERRORS_PER_BLOCK) {
      reportRuleError(
        this.state.passIssues,
        "models",
        site,
        error,
        origin ? { type: origin.type, name: origin.name } : undefined,
      );
    } else if (count === MAX_ERRORS_PER_BLOCK + 1) {
      reportRuleError(
        this.state.passIssues,
        "models",
        site,
        new RuleError(
          `further errors of this rule are not shown (first ${MAX_ERRORS_PER_BLOCK} above)`,
          undefined,
          "rule_errors_truncated",
        ),
        // It carries the origin that triggered it, so it stays a rule error (O12).
        origin ? { type: origin.type, name: origin.name } : undefined,
      );
    }
  }

  /** Warnings asked for by this run (reported or already reported). */
  warnings = 0;

  /** Reports a warning once per build. */
  warn(code: string, message: string, key?: string): void {
    this.warnings++;
    const id = `W\u0000${this.file}\u0000${this.label}\u0000${key ?? ""}\u0000${message}`;
    if (this.state.reported.has(id)) return;
    this.state.reported.add(id);
    const pos = positionOf({ file: this.file, chunk: this.prepared.chunk, block: this.block }, key);
    this.state.env.ctx.issues.warn(code, message, {
      file: this.file,
      line: pos?.line,
      column: pos?.column,
      rule: key ? `${this.label}.${key}` : this.label,
      phase: "models",
    });
  }
}
