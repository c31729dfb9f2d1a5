/**
 * Output results kept from one build to the next (issue 25: only the artifacts whose inputs
 * changed are rendered again), for both kinds of body.
 *
 * A Jsonnet body is a deterministic function of its
 * program text, the files it imports and what it reads of its external variables
 * (`origin_resource` as plain JSON, header variables, params); `std.trace` output is dropped.
 * Each evaluation notes those reads (`jsonnet/read_tracking.ts`: field lookups, field lists,
 * forced values). The next build evaluates a body for the same origin only when one of the
 * noted reads answers differently — a zone whose records did not change is not rendered again,
 * even though a model stamped it with a new `created` time the program never reads.
 *
 * A Tera output (`template = …`) is kept whole — name, content, filename and hash — by rule and
 * origin, with a fingerprint of the origin fields its templates read (`template_reads.ts` finds
 * them statically; rules it cannot pin down, or that call `now()`, `counter()`, `get_random()`
 * or `vault()`, are always rendered). The next build renders it again only when the fingerprint
 * differs.
 *
 * The imports are not noted: whoever keeps a memo across builds must start a new one when any
 * file other than an asset CSV changed (the incremental builder does). Failed evaluations are
 * not kept (they are evaluated again, so their errors are reported again).
 *
 * @module
 */
import type { JsonValue, Properties } from "../../graph/graph.ts";
import { type JsonRead, ReadLog, readsHold } from "../../jsonnet/mod.ts";
import { sameValues, SortedMemo } from "../rules/read_collector.ts";

interface Entry {
  source: string;
  reads: readonly JsonRead[];
  value: JsonValue;
}

/** A rendered Tera output: its name and properties, for a rule signature and fingerprint. */
export interface RenderedOutput {
  /** The output resource's name. */
  name: string;
  /** Its properties (content, filename, mimetype, hash). */
  properties: Properties;
}

/** A kept Tera output with what it was rendered from. */
export interface RenderedEntry extends RenderedOutput {
  /** The rule's texts. */
  signature: string;
  /** The values of the origin fields the rule reads. */
  values: readonly (JsonValue | undefined)[];
}

/**
 * Output results of the previous build and of the current one, by program (or rule) and origin.
 *
 * @example
 * ```ts
 * import { OutputMemo } from "./output_memo.ts";
 * import { JsonnetVM } from "../../jsonnet/mod.ts";
 * const memo = new OutputMemo();
 * const source = "std.extVar('origin_resource').ttl * 2";
 * let runs = 0;
 * const run = (ext: Record<string, number | Record<string, unknown>>) =>
 *   memo.evaluate("prog", "zone-a", source, ext as never, (readLog) => {
 *     runs++;
 *     return new JsonnetVM({ extVars: ext as never, readLog }).evaluate(source, "prog") as number;
 *   });
 * memo.nextBuild();
 * run({ origin_resource: { ttl: 60, created: "09:00" } });
 * memo.nextBuild();
 * console.log(run({ origin_resource: { ttl: 60, created: "09:01" } }), runs, memo.hits); // 120 1 1
 * ```
 */
export class OutputMemo {
  #previous = new Map<string, Entry>();
  #current = new Map<string, Entry>();
  /** Evaluations answered from the memo in the current build. */
  hits = 0;
  /** Evaluations run in the current build. */
  misses = 0;
  #previousRendered = new Map<string, SortedMemo<RenderedEntry>>();
  #currentRendered = new Map<string, SortedMemo<RenderedEntry>>();
  /** Tera outputs answered from the memo in the current build. */
  renderedHits = 0;
  /** Tera outputs rendered (and kept) in the current build. */
  renderedMisses = 0;

  /**
   * The value of program `source` (named `programName`) for the origin named `origin` (a key
   * unique among the program's evaluations of one build) with `extVars`: the previous build's
   * value when its program was the same and every read it noted answers the same on `extVars`,
   * else `evaluate(readLog)`'s, which must evaluate with `readLog` noting its reads.
   */
  evaluate(
    programName: string,
    origin: string,
    source: string,
    extVars: Record<string, JsonValue>,
    evaluate: (readLog: ReadLog) => JsonValue,
  ): JsonValue {
    const key = `${programName}\u0000${origin}`;
    const known = this.#previous.get(key);
    if (known && known.source === source && readsHold(known.reads, extVars)) {
      this.#current.set(key, known);
      this.hits++;
      return structuredClone(known.value);
    }
    this.misses++;
    const log = new ReadLog();
    const value = evaluate(log);
    this.#current.set(key, { source, reads: log.reads, value: structuredClone(value) });
    return value;
  }

  /**
   * The kept Tera outputs of rule `rule` (a key unique among the build's rules) for this build:
   * pass it to {@link OutputMemo.rendered} and {@link OutputMemo.keepRendered}, origin by origin
   * in ascending name order.
   */
  renderedOf(rule: string): SortedMemo<RenderedEntry> {
    const current = new SortedMemo(this.#previousRendered.get(rule));
    this.#currentRendered.set(rule, current);
    return current;
  }

  /**
   * The Tera output `rule` (its texts as `signature`) rendered for the origin named `origin` in
   * the previous build, when the origin fields it reads had the same values then (`values`); a
   * shallow copy (built graphs share JSON values, they never change them in place). On a miss,
   * render and pass the result to {@link OutputMemo.keepRendered}.
   */
  rendered(
    rule: SortedMemo<RenderedEntry>,
    origin: string,
    signature: string,
    values: readonly (JsonValue | undefined)[],
  ): RenderedOutput | undefined {
    const known = rule.previous(origin);
    if (known === undefined || known.signature !== signature || !sameValues(known.values, values)) {
      return undefined;
    }
    rule.keep(origin, known);
    this.renderedHits++;
    return { name: known.name, properties: { ...known.properties } };
  }

  /** Keeps what a rule rendered for `origin` in this build (see {@link OutputMemo.rendered}). */
  keepRendered(
    rule: SortedMemo<RenderedEntry>,
    origin: string,
    signature: string,
    values: readonly (JsonValue | undefined)[],
    output: RenderedOutput,
  ): void {
    this.renderedMisses++;
    rule.keep(origin, {
      signature,
      values,
      name: output.name,
      properties: { ...output.properties },
    });
  }

  /** Starts the next build: what the last one evaluated is kept, everything older is dropped. */
  nextBuild(): void {
    if (this.#current.size > 0) this.#previous = this.#current;
    this.#current = new Map();
    this.hits = 0;
    this.misses = 0;
    if (this.#currentRendered.size > 0) this.#previousRendered = this.#currentRendered;
    this.#currentRendered = new Map();
    this.renderedHits = 0;
    this.renderedMisses = 0;
  }
}
