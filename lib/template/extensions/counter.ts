/**
 * Function `counter(key=K)` (T21): one zero-based counter per key, shared by every template of a
 * build and reset for the next build.
 *
 * @module
 */

import { ExtensionError } from "./errors.ts";
import { compareCodePoints, describe, isObject, type ToJson } from "./values.ts";

/** Per-build counter state, injected so one store spans every template of a build. */
export interface CounterStore {
  /** Returns the key's current value (0 on first use) and increments it. */
  next(key: string): number;
}

/**
 * In-memory {@link CounterStore}; create one per build.
 *
 * @example
 * ```ts
 * const counters = new BuildCounters();
 * counters.next("zrh"); // 0
 * counters.next("zrh"); // 1
 * counters.next("gva"); // 0
 * ```
 */
export class BuildCounters implements CounterStore {
  readonly #values = new Map<string, number>();

  /** Returns the key's current value (0 on first use) and increments it. */
  next(key: string): number {
    const v = this.#values.get(key) ?? 0;
    this.#values.set(key, v + 1);
    return v;
  }

  /** Forgets every counter (start of a new build). */
  reset(): void {
    this.#values.clear();
  }
}

/**
 * Key normalisation: string/number/bool → its text; object → its `name` property; array → the
 * normalised elements sorted and joined with `,`.
 *
 * @example
 * ```ts
 * counterKey(["b", { name: "a" }], (v) => v); // "a,b"
 * ```
 */
export function counterKey(value: unknown, toJson: ToJson, depth = 0): string {
  const ext = "counter";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (depth > 32) throw new ExtensionError(ext, "key is nested too deeply", "key");
  const plain = toJson(value);
  if (Array.isArray(plain)) {
    return plain.map((v) => counterKey(v, toJson, depth + 1)).sort(compareCodePoints).join(",");
  }
  if (isObject(plain)) {
    const name = plain.name;
    if (typeof name === "string" || typeof name === "number" || typeof name === "boolean") {
      return String(name);
    }
    throw new ExtensionError(
      ext,
      `an object key needs a \`name\` property, got ${describe(plain)}`,
      "key",
    );
  }
  throw new ExtensionError(
    ext,
    value === undefined ? "missing required argument `key`" : `invalid key ${describe(value)}`,
    "key",
  );
}
