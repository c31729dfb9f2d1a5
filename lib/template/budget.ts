/**
 * Evaluation budget of one render (issue 16, hostile input): a step budget (loop iterations and
 * filter/test/function calls) and size budgets (output length, length of any string and number
 * of items of any array a template builds). Renders are synchronous, so the active budget is
 * module state, swapped in and out around each render (nested renders get their own).
 * Exceeding a budget throws {@link BudgetFailure}, which the environment turns into a located
 * `TemplateError` with code `budget_exceeded`.
 *
 * @module
 */

import { RenderFailure } from "./errors.ts";

/**
 * Limits of one render; every field is optional in the environment options.
 *
 * @example
 * ```ts
 * const strict: TemplateLimits = { maxSteps: 10_000, maxOutput: 65_536, maxItems: 10_000 };
 * ```
 */
export interface TemplateLimits {
  /** Loop iterations plus filter, test and function calls (default 10 000 000). */
  maxSteps: number;
  /** Length of the output and of any string value, in UTF-16 code units (default 64 Mi). */
  maxOutput: number;
  /** Items of any array value built by the template, e.g. by `range` (default 10 000 000). */
  maxItems: number;
}

/** Defaults: generous enough for every corpus module, small enough to stop runaway templates. */
export const DEFAULT_LIMITS: Readonly<TemplateLimits> = Object.freeze({
  maxSteps: 10_000_000,
  maxOutput: 64 * 1024 * 1024,
  maxItems: 10_000_000,
});

/** A budget was exceeded (a render failure; `pos` is filled in by the node that hit it). */
export class BudgetFailure extends RenderFailure {
  /** Stable error code. */
  readonly code = "budget_exceeded";
  /** Creates the failure; `pos` is the source offset when known. */
  constructor(message: string, pos = -1) {
    super(message, pos);
    this.name = "BudgetFailure";
  }
}

let steps = 0;
let maxSteps = Infinity;
let maxOutput = Infinity;
let maxItems = Infinity;

/** Runs `f` under `limits` with fresh counters, restoring the enclosing render's budget after. */
export function withBudget<T>(limits: TemplateLimits, f: () => T): T {
  const saved = [steps, maxSteps, maxOutput, maxItems];
  steps = 0;
  maxSteps = limits.maxSteps;
  maxOutput = limits.maxOutput;
  maxItems = limits.maxItems;
  try {
    return f();
  } finally {
    [steps, maxSteps, maxOutput, maxItems] = saved;
  }
}

/** Counts `n` steps (a loop iteration, a call). */
export function step(n = 1, pos = -1): void {
  steps += n;
  if (steps > maxSteps) {
    throw new BudgetFailure(
      `evaluation budget exceeded: more than ${maxSteps} steps (loop iterations and calls)`,
      pos,
    );
  }
}

/** Checks that an array of `n` items may be built (call before allocating it). */
export function checkItems(n: number, what: string, pos = -1): void {
  if (n > maxItems) {
    throw new BudgetFailure(
      `evaluation budget exceeded: ${what} would hold ${n} items (limit ${maxItems})`,
      pos,
    );
  }
}

/** Checks the output length so far. */
export function checkOutput(length: number, pos = -1): void {
  if (length > maxOutput) {
    throw new BudgetFailure(
      `evaluation budget exceeded: output longer than ${maxOutput} characters`,
      pos,
    );
  }
}

/** Checks the size of a value a template built (a string's length, an array's items). */
export function checkValue(v: unknown, what: string, pos = -1): void {
  if (typeof v === "string") {
    if (v.length > maxOutput) {
      throw new BudgetFailure(
        `evaluation budget exceeded: ${what} is a string of ${v.length} characters (limit ${maxOutput})`,
        pos,
      );
    }
  } else if (Array.isArray(v)) checkItems(v.length, what, pos);
}
