/**
 * Results of Jsonnet output bodies kept from one build to the next (issue 25: only the artifacts
 * whose inputs changed are rendered again). A Jsonnet body is a deterministic function of its
 * program text, the files it imports and what it reads of its external variables
 * (`origin_resource` as plain JSON, header variables, params); `std.trace` output is dropped.
 * Each evaluation notes those reads (`jsonnet/read_tracking.ts`: field lookups, field lists,
 * forced values). The next build evaluates a body for the same origin only when one of the
 * noted reads answers differently — a zone whose records did not change is not rendered again,
 * even though a model stamped it with a new `created` time the program never reads.
 *
 * The imports are not noted: whoever keeps a memo across builds must start a new one when any
 * file other than an asset CSV changed (the incremental builder does). Failed evaluations are
 * not kept (they are evaluated again, so their errors are reported again).
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";
import { type JsonRead, ReadLog, readsHold } from "../../jsonnet/mod.ts";

interface Entry {
  source: string;
  reads: readonly JsonRead[];
  value: JsonValue;
}

/**
 * Jsonnet output values of the previous build and of the current one, by program and origin.
 *
 * @example
 * ```ts
 * import { JsonnetMemo } from "./jsonnet_memo.ts";
 * import { JsonnetVM } from "../../jsonnet/mod.ts";
 * const memo = new JsonnetMemo();
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
export class JsonnetMemo {
  #previous = new Map<string, Entry>();
  #current = new Map<string, Entry>();
  /** Evaluations answered from the memo in the current build. */
  hits = 0;
  /** Evaluations run in the current build. */
  misses = 0;

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

  /** Starts the next build: what the last one evaluated is kept, everything older is dropped. */
  nextBuild(): void {
    if (this.#current.size > 0) this.#previous = this.#current;
    this.#current = new Map();
    this.hits = 0;
    this.misses = 0;
  }
}
