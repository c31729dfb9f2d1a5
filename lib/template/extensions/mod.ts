/**
 * Engine-specific template filters and functions of the original rescile engine, written as
 * plain functions so the Tera core can register them (templates.md T21–T33).
 *
 * Names provided:
 * - filters: `jmespath`, `sha256`, `base64_encode`, `hmac_sha256`, `regexp`, `select`,
 *   `intersect`, `cidr_nth_subnet`, `cidr_split_n`;
 * - functions: `counter`, `calculate_cidr`, `allocate_subnets`, `vault`, `now`.
 *
 * Not provided because they are Tera built-ins that the original does not change: `as_str`,
 * `concat(with=)` (appends a scalar or every element of an array), `json_encode`. `now` is a
 * built-in as well; it is provided here only so a build can inject its clock (register it over
 * the built-in, or ignore it).
 *
 * @example
 * ```ts
 * import { BuildCounters, createEngineExtensions } from "./mod.ts";
 *
 * const ext = createEngineExtensions({ counters: new BuildCounters() });
 * ext.filters.cidr_nth_subnet("10.0.0.0/16", { prefix: 24, nth: 3 }); // "10.0.3.0/24"
 * ext.functions.counter({ key: "zrh" }); // 0
 * ```
 *
 * @module
 */

import { allocateSubnets, calculateCidr, cidrNthSubnet, cidrSplitN } from "./cidr.ts";
import { nowFunction } from "./clock.ts";
import { intersectFilter, jmespathFilter, runJmespath, selectFilter } from "./collections.ts";
import { BuildCounters, counterKey, type CounterStore } from "./counter.ts";
import { base64EncodeFilter, hmacSha256Filter, sha256Filter } from "./hashing.ts";
import { regexpFilter } from "./regexp_filter.ts";
import {
  substituteInlineVault,
  vaultFunction,
  vaultPlaceholder,
  type VaultResolver,
} from "./vault.ts";
import { compactJson, defaultToJson, type ToJson } from "./values.ts";

export { ExtensionError } from "./errors.ts";
export {
  BuildCounters,
  counterKey,
  type CounterStore,
  runJmespath,
  type ToJson,
  vaultPlaceholder,
  type VaultResolver,
};
export { RegexTranslationError, translateRustRegex } from "./rust_regex.ts";
export type { TranslatedRegex } from "./rust_regex.ts";
export { compileRustRegex, compileUserRegex, UserRegex } from "./user_regex.ts";
export type { RegexMatch } from "./user_regex.ts";
export { compactJson, substituteInlineVault };

/**
 * A filter: `{{ value | name(arg=…) }}` calls `filter(value, { arg: … })`.
 *
 * @example
 * ```ts
 * const upper: Filter = (value) => String(value).toUpperCase();
 * ```
 */
export type Filter = (value: unknown, args: Record<string, unknown>) => unknown;

/**
 * A function: `{{ name(arg=…) }}` calls `fn({ arg: … })`.
 *
 * @example
 * ```ts
 * const answer: Fn = () => 42;
 * ```
 */
export type Fn = (args: Record<string, unknown>) => unknown;

/**
 * A test: `{% if value is name(a, b) %}` calls `test(value, [a, b])`.
 *
 * @example
 * ```ts
 * const empty: Test = (value) => value === "";
 * ```
 */
export type Test = (value: unknown, args: unknown[]) => boolean;

/**
 * Per-build state and injected capabilities.
 *
 * @example
 * ```ts
 * const options: ExtensionOptions = {
 *   counters: new BuildCounters(),
 *   clock: () => new Date("2024-01-02T03:04:05Z"),
 *   vaultAllowed: true,
 *   vault: (collection, secret) => (collection === "app" ? `value-of-${secret}` : undefined),
 * };
 * ```
 */
export interface ExtensionOptions {
  /** Counter store of the current build (T21). Default: a fresh {@link BuildCounters}. */
  counters?: CounterStore;
  /** Clock for `now()`. Default: `() => new Date()`. */
  clock?: () => Date;
  /**
   * Whether `vault()` may be called in this context (generator `url`/`payload`/
   * `inject_headers`, action environments; T32). Default: `false` (calling it is an error).
   */
  vaultAllowed?: boolean;
  /** Secret resolver. Absent (no vault configured): `vault()` renders `${vault:C#S}`. */
  vault?: VaultResolver;
  /**
   * Turns engine values (e.g. lazy resource views) into plain JSON data before hashing,
   * JMESPath, `select`, `intersect`, … Default: deep copy honouring `toJSON()`.
   */
  toJson?: ToJson;
}

/**
 * The registry of engine-specific names.
 *
 * @example
 * ```ts
 * const { filters, functions, tests }: EngineExtensions = createEngineExtensions({});
 * ```
 */
export interface EngineExtensions {
  /** Filters by name. */
  filters: Record<string, Filter>;
  /** Functions by name. */
  functions: Record<string, Fn>;
  /** Tests by name (none so far: the original adds no tests to Tera). */
  tests: Record<string, Test>;
}

/**
 * Creates the engine-specific filters, functions and tests for one build/context.
 *
 * @example
 * ```ts
 * const ext = createEngineExtensions({ counters: new BuildCounters() });
 * ext.filters.sha256("abc", {}); // "ba7816bf…"
 * ext.filters.jmespath('["a","b"]', { query: "length(@)" }); // 2
 * ext.functions.calculate_cidr({ ips: ["172.16.3.9", "172.16.3.40"] }); // "172.16.3.0/26"
 * ```
 */
export function createEngineExtensions(options: ExtensionOptions = {}): EngineExtensions {
  const toJson = options.toJson ?? defaultToJson;
  const counters = options.counters ?? new BuildCounters();
  const clock = options.clock ?? (() => new Date());
  const filters: Record<string, Filter> = {
    jmespath: (v, a) => jmespathFilter(v, a, toJson),
    sha256: (v) => sha256Filter(v, toJson),
    base64_encode: (v) => base64EncodeFilter(v, toJson),
    hmac_sha256: (v, a) => hmacSha256Filter(v, a, toJson),
    regexp: (v, a) => regexpFilter(v, a),
    select: (v, a) => selectFilter(v, a, toJson),
    intersect: (v, a) => intersectFilter(v, a, toJson),
    cidr_nth_subnet: (v, a) => cidrNthSubnet(v, a),
    cidr_split_n: (v, a) => cidrSplitN(v, a),
  };
  const functions: Record<string, Fn> = {
    counter: (a) => counters.next(counterKey(a.key, toJson)),
    calculate_cidr: (a) => calculateCidr(a, toJson),
    allocate_subnets: (a) => allocateSubnets(a, toJson),
    vault: (a) => vaultFunction(a, options.vaultAllowed === true, options.vault),
    now: (a) => nowFunction(a, clock),
  };
  return { filters, functions, tests: {} };
}
