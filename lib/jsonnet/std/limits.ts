/**
 * The allocation guard of the pure std functions: before building an array or a string whose
 * size depends on the program (padding, repetition, joins), a function calls
 * {@link chargeAlloc} with the size. The evaluator installs a guard charging its step and memory
 * budgets for the duration of each std call; without one, sizes above
 * {@link DEFAULT_MAX_ALLOC} fail.
 *
 * @module
 */
import { StdError } from "./errors.ts";

/** Largest single array/string (elements or UTF-16 code units) allowed without a guard. */
export const DEFAULT_MAX_ALLOC = 10_000_000;

/**
 * A std error raised because a host limit was reached (code `budget_exceeded`).
 *
 * @example
 * ```ts
 * import { BudgetError } from "./limits.ts";
 * new BudgetError("too big").code; // "budget_exceeded"
 * ```
 */
export class BudgetError extends StdError {
  /** Always `budget_exceeded`. */
  readonly code = "budget_exceeded";
}

let guard: ((n: number) => void) | undefined;

/**
 * Runs `f` with `g` as the allocation guard (restoring the previous one afterwards).
 *
 * @example
 * ```ts
 * import { chargeAlloc, withAllocGuard } from "./limits.ts";
 * withAllocGuard((n) => { if (n > 10) throw new Error("big"); }, () => chargeAlloc(5));
 * ```
 */
export function withAllocGuard<T>(g: (n: number) => void, f: () => T): T {
  const prev = guard;
  guard = g;
  try {
    return f();
  } finally {
    guard = prev;
  }
}

/**
 * Charges an allocation of `n` elements/code units; throws when it exceeds the budget.
 *
 * @example
 * ```ts
 * import { chargeAlloc } from "./limits.ts";
 * chargeAlloc(100); // fine
 * ```
 */
export function chargeAlloc(n: number): void {
  if (guard) guard(n);
  else if (!(n <= DEFAULT_MAX_ALLOC)) {
    throw new BudgetError(`evaluation budget exceeded (memory: ${n} > ${DEFAULT_MAX_ALLOC})`);
  }
}
