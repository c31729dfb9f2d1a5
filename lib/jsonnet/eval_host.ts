/**
 * What the evaluator needs from its host (imports, external variables, trace output) and the
 * limits protecting the host from runaway programs.
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Value } from "./values.ts";

/** Host services the evaluator needs (imports, external variables). */
export interface EvalHost {
  importFile(
    kind: "import" | "importstr" | "importbin",
    path: string,
    from: string,
    loc: Loc,
  ): Value;
  extVar(name: string): Value | undefined;
  trace(message: string): void;
}

/** Limits that protect the host from runaway programs. */
export interface EvalLimits {
  /** Maximum Jsonnet stack depth (default 500, like the reference binary). */
  maxStack?: number;
  /** Maximum number of evaluation steps (unbounded when omitted). */
  maxSteps?: number;
  /** Absolute deadline in epoch milliseconds (unbounded when omitted). */
  deadline?: number;
  /**
   * Largest single array or string a builtin, operator or comprehension may build, in elements
   * or UTF-16 code units (default {@link DEFAULT_MAX_MEMORY}). Checked before allocating.
   */
  maxMemory?: number;
}

/** Default {@link EvalLimits.maxMemory}: ten million elements / code units per value. */
export const DEFAULT_MAX_MEMORY = 10_000_000;

/** Whether `e` is the JS engine's stack overflow (as opposed to other RangeErrors). */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack|too much recursion/i.test(e.message);
}
