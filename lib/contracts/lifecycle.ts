/**
 * The lifecycle convention of spec §3 (reference O23, AC45) as contracts apply it: states
 * `pending` → `ready` → `processing` → `valid` | `invalid`, `expired` terminal; a transition only
 * from its predecessor; an item whose expiry is missing, unparseable or past counts as expired.
 *
 * @module
 */

/** Every state of the convention. */
export const LIFECYCLE_STATES = [
  "pending",
  "ready",
  "processing",
  "valid",
  "invalid",
  "expired",
] as const;

/** A lifecycle state. */
export type LifecycleState = typeof LIFECYCLE_STATES[number];

/** The terminal states: nothing transitions out of them. */
export const TERMINAL_STATES: ReadonlySet<string> = new Set(["valid", "invalid", "expired"]);

/**
 * The states a transition into `to` may start from. `pending` is entered by intake only;
 * `invalid` and `expired` end any non-terminal item (every failure path ends in a terminal
 * state, nothing may remain in `processing`).
 */
const PREDECESSORS: Readonly<Record<LifecycleState, readonly string[]>> = {
  pending: [],
  ready: ["pending"],
  processing: ["ready"],
  valid: ["processing"],
  invalid: ["pending", "ready", "processing"],
  expired: ["pending", "ready", "processing"],
};

/**
 * The states a transition into `to` may start from; `undefined` for a value that is no state.
 *
 * @example
 * ```ts
 * import { predecessors } from "./lifecycle.ts";
 * console.log(predecessors("valid")); // ["processing"]
 * ```
 */
export function predecessors(to: string): readonly string[] | undefined {
  return (PREDECESSORS as Record<string, readonly string[]>)[to];
}

/**
 * Whether an expiry cell means the item has expired at `now` (missing or unparseable counts as
 * expired, spec §3 rule 4).
 *
 * @example
 * ```ts
 * import { isExpired } from "./lifecycle.ts";
 * console.log(isExpired("", new Date())); // true
 * console.log(isExpired("2999-01-01T00:00:00Z", new Date())); // false
 * ```
 */
export function isExpired(expiry: string | undefined, now: Date): boolean {
  if (expiry === undefined || expiry.trim() === "") return true;
  const text = expiry.trim();
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
    return true;
  }
  const t = Date.parse(text.replace(" ", "T"));
  return Number.isNaN(t) || t <= now.getTime();
}

/**
 * The effective state of a row: its state cell, or `expired` when the item is not terminal and
 * an expiry column is configured whose value has expired.
 *
 * @example
 * ```ts
 * import { effectiveState } from "./lifecycle.ts";
 * const row = { status: "ready", expires_at: "" };
 * console.log(effectiveState(row, "status", "expires_at", new Date())); // "expired"
 * ```
 */
export function effectiveState(
  row: Readonly<Record<string, string>>,
  state: string,
  expires: string | undefined,
  now: Date,
): string {
  const current = (row[state] ?? "").trim();
  if (TERMINAL_STATES.has(current)) return current;
  if (expires !== undefined && isExpired(row[expires], now)) return "expired";
  return current;
}
