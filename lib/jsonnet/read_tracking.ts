/**
 * What a Jsonnet evaluation read of its JSON external variables, so that a caller can tell that
 * another set of variables would give the same result without evaluating again (issue 25: only
 * the outputs whose inputs changed are rendered again).
 *
 * External variables given as JSON are converted with tracking: every object keeps its fields
 * in a map that notes which field names were looked up (present or not) and whether the field
 * list was enumerated, and every field's or array element's value notes when it is forced — the
 * value itself for a scalar, "an object" for an object, whose fields are tracked in turn, and
 * "an array of n elements" for an array, whose elements are tracked in turn. A program can learn
 * nothing about the variables except through these, so if every noted read gives the same
 * answer on other variables, the evaluation (deterministic; `std.trace` aside) gives the same
 * value.
 *
 * @module
 */
import { Hide } from "./ast.ts";
import type { JsonValue } from "./json_value.ts";
import { fromJson } from "./manifest_json.ts";
import { type FieldDef, Thunk, type Value, VArray, VObject } from "./values.ts";

/** One read of an external variable, at a path of field names from the variable's name. */
export type JsonRead =
  /** Whether the object at `path` has field `field`. */
  | { kind: "has"; path: readonly string[]; field: string; present: boolean }
  /** The field names of the object at `path`, in their order. */
  | { kind: "keys"; path: readonly string[]; keys: readonly string[] }
  /**
   * What is at `path` (array elements are named by their index): an object, an array of
   * `length` elements, or the scalar `value`.
   */
  | {
    kind: "value";
    path: readonly string[];
    shape: "object" | "array" | "scalar";
    length?: number;
    value?: JsonValue;
  };

/**
 * The reads of one evaluation (each noted once).
 *
 * @example
 * ```ts
 * import { JsonnetVM } from "./vm.ts";
 * import { readsHold, ReadLog } from "./read_tracking.ts";
 * const log = new ReadLog();
 * const vm = new JsonnetVM({ extVars: { o: { a: 1, b: 2 } }, readLog: log });
 * console.log(vm.evaluate("std.extVar('o').a", "p")); // 1
 * console.log(readsHold(log.reads, { o: { a: 1, b: 3 } }), readsHold(log.reads, { o: { a: 2 } })); // true false
 * ```
 */
export class ReadLog {
  /** Reads in the order they happened. */
  readonly reads: JsonRead[] = [];
  readonly #seen = new Set<string>();

  /** Notes `read` unless the same was noted before. */
  note(id: string, read: () => JsonRead): void {
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    this.reads.push(read());
  }
}

/**
 * The runtime value of external variable `name` with value `value`, noting reads in `log`.
 *
 * @example
 * ```ts
 * import { ReadLog, trackedExtVar } from "./read_tracking.ts";
 * const log = new ReadLog();
 * trackedExtVar("n", 3, log);
 * console.log(log.reads[0].kind); // "value"
 * ```
 */
export function trackedExtVar(name: string, value: JsonValue, log: ReadLog): Value {
  const path = [name];
  noteValue(log, path, value);
  return tracked(value, path, log);
}

function tracked(value: JsonValue, path: readonly string[], log: ReadLog): Value {
  if (value === null || typeof value !== "object") return fromJson(value);
  if (Array.isArray(value)) {
    return new VArray(value.map((child, i) => {
      const childPath = [...path, String(i)];
      return new TrackedThunk(() => {
        noteValue(log, childPath, child);
        return tracked(child, childPath, log);
      });
    }));
  }
  const fields = new TrackedFields(path, log);
  for (const k of Object.keys(value)) {
    const child = value[k];
    const childPath = [...path, k];
    Map.prototype.set.call(fields, k, {
      hide: Hide.Inherit,
      plus: false,
      thunk: new TrackedThunk(() => {
        noteValue(log, childPath, child);
        return tracked(child, childPath, log);
      }),
    });
  }
  return new VObject([{ fields, asserts: [], locals: [], env: null, dollar: false }]);
}

function noteValue(log: ReadLog, path: readonly string[], value: JsonValue): void {
  log.note(`v\u0000${path.join("\u0000")}`, (): JsonRead => {
    if (Array.isArray(value)) return { kind: "value", path, shape: "array", length: value.length };
    if (value !== null && typeof value === "object") {
      return { kind: "value", path, shape: "object" };
    }
    return { kind: "value", path, shape: "scalar", value };
  });
}

/** A thunk whose value is made (and its read noted) when first forced. */
class TrackedThunk extends Thunk {
  constructor(make: () => Value) {
    super(make);
  }
}

/** Field definitions of a tracked object: lookups and enumerations are noted. */
class TrackedFields extends Map<string, FieldDef> {
  readonly #path: readonly string[];
  readonly #log: ReadLog;

  constructor(path: readonly string[], log: ReadLog) {
    super();
    this.#path = path;
    this.#log = log;
  }

  #has(field: string, present: boolean): void {
    const path = this.#path;
    this.#log.note(
      `h\u0000${path.join("\u0000")}\u0000\u0000${field}`,
      () => ({ kind: "has", path, field, present }),
    );
  }

  #keys(): void {
    const path = this.#path;
    this.#log.note(`k\u0000${path.join("\u0000")}`, () => ({
      kind: "keys",
      path,
      keys: [...Map.prototype.keys.call(this)] as string[],
    }));
  }

  override get(field: string): FieldDef | undefined {
    const def = super.get(field);
    this.#has(field, def !== undefined);
    return def;
  }

  override has(field: string): boolean {
    const present = super.has(field);
    this.#has(field, present);
    return present;
  }

  override get size(): number {
    this.#keys();
    return super.size;
  }

  override keys(): MapIterator<string> {
    this.#keys();
    return super.keys();
  }

  override values(): MapIterator<FieldDef> {
    this.#keys();
    return super.values();
  }

  override entries(): MapIterator<[string, FieldDef]> {
    this.#keys();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, FieldDef]> {
    this.#keys();
    return super.entries();
  }

  override forEach(
    visit: (value: FieldDef, key: string, map: Map<string, FieldDef>) => void,
    thisArg?: unknown,
  ): void {
    this.#keys();
    super.forEach(visit, thisArg);
  }

  override set(): this {
    throw new Error("TrackedFields: the fields of a JSON value do not change");
  }

  override delete(): boolean {
    throw new Error("TrackedFields: the fields of a JSON value do not change");
  }

  override clear(): void {
    throw new Error("TrackedFields: the fields of a JSON value do not change");
  }
}

/**
 * Whether every read in `reads` gives the same answer on `extVars`: an evaluation that made
 * these reads then gives the same value on `extVars`.
 *
 * @example
 * ```ts
 * import { readsHold } from "./read_tracking.ts";
 * const reads = [{ kind: "value", path: ["n"], shape: "scalar", value: 1 }] as const;
 * console.log(readsHold(reads, { n: 1, m: 5 }), readsHold(reads, { n: -0 })); // true false
 * ```
 */
export function readsHold(reads: readonly JsonRead[], extVars: Record<string, JsonValue>): boolean {
  for (const read of reads) {
    const at = valueAt(extVars, read.path);
    if (at === MISSING) return false;
    if (read.kind === "value") {
      if (Array.isArray(at)) {
        if (read.shape !== "array" || at.length !== read.length) return false;
      } else if (at !== null && typeof at === "object") {
        if (read.shape !== "object") return false;
      } else if (read.shape !== "scalar" || !Object.is(at, read.value)) return false;
      continue;
    }
    if (at === null || typeof at !== "object" || Array.isArray(at)) return false;
    if (read.kind === "has") {
      if (Object.hasOwn(at, read.field) !== read.present) return false;
      continue;
    }
    const keys = Object.keys(at);
    if (keys.length !== read.keys.length) return false;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== read.keys[i]) return false;
  }
  return true;
}

const MISSING = Symbol("missing");

function valueAt(
  root: Record<string, JsonValue>,
  path: readonly string[],
): JsonValue | typeof MISSING {
  let at: JsonValue = root;
  for (const k of path) {
    if (at === null || typeof at !== "object") return MISSING;
    if (Array.isArray(at)) {
      // Element paths were noted with the index as written by String(i).
      const i = Number(k);
      if (!(i >= 0 && i < at.length) || String(i) !== k) return MISSING;
      at = at[i];
    } else {
      if (!Object.hasOwn(at, k)) return MISSING;
      at = at[k];
    }
  }
  return at;
}
