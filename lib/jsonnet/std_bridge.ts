/**
 * Assembles the `std` object: natives that need the evaluator (builtins_*.ts) plus the pure
 * functions of lib/jsonnet/std/ (arguments forced deeply to JSON, results converted back).
 *
 * @module
 */
import { Hide, type Loc } from "./ast.ts";
import { JsonnetError } from "./errors.ts";
import { type Evaluator, isStackOverflow } from "./evaluator.ts";
import type { JsonValue } from "./json_value.ts";
import { toJson } from "./manifest_json.ts";
import { getField, objectFromThunks } from "./objects.ts";
import { pureStd } from "./std/mod.ts";
import { BudgetError, withAllocGuard } from "./std/limits.ts";
import { type FieldDef, Thunk, type Value, VArray, VFunc, VObject } from "./values.ts";
import { arrayBuiltins } from "./builtins_arrays.ts";
import { higherOrderBuiltins } from "./builtins_higher.ts";
import { objectBuiltins } from "./builtins_objects.ts";
import { setBuiltins } from "./builtins_sets.ts";

/** A native std function: parameter names, defaults for optional trailing ones, body. */
export interface NativeSpec {
  params: string[];
  /** Defaults for omitted parameters (by index); `undefined` marks a required parameter. */
  defaults?: (Value | undefined)[];
  /** Receives forced arguments unless `lazy` is set. */
  fn: (ev: Evaluator, args: Value[], loc: Loc) => Value;
  lazy?: false;
}

/** A native receiving thunks (for laziness). */
export interface LazyNativeSpec {
  params: string[];
  defaults?: (Value | undefined)[];
  fn: (ev: Evaluator, args: Thunk[], loc: Loc) => Value;
  lazy: true;
}

/** Either kind of native spec. */
export type AnyNative = NativeSpec | LazyNativeSpec;

const UNSET = Symbol("unset");

function pureFunc(name: string): VFunc {
  const entry = pureStd[name];
  const required = entry.required ?? entry.params.length;
  const defaults = entry.params.map((
    _,
    i,
  ) => (i < required ? undefined : UNSET as unknown as Value));
  return new VFunc(
    name,
    entry.params.map((p) => ({ name: p })),
    null,
    null,
    (ev, args, loc) => {
      const js: (JsonValue | undefined)[] = args.map((t) => {
        const v = t.force() as unknown;
        return v === UNSET ? undefined : toJson(ev, v as Value, loc);
      });
      while (js.length && js[js.length - 1] === undefined) js.pop();
      let r: JsonValue;
      try {
        r = withAllocGuard((n) => ev.alloc(n, loc), () => entry.fn(...(js as JsonValue[])));
      } catch (e) {
        if (e instanceof JsonnetError || isStackOverflow(e)) throw e;
        if (e instanceof BudgetError) ev.error(loc, e.message, "budget_exceeded");
        if (e instanceof RangeError) {
          ev.error(loc, `${e.message} in std.${name}`, "budget_exceeded");
        }
        if (e instanceof Error) ev.error(loc, e.message);
        throw e;
      }
      return fromStd(ev, r, loc);
    },
    defaults,
  );
}

/**
 * Converts a pure std result back to a runtime value, charging its size against the budgets
 * and rejecting non-finite numbers (`std.parseJson('1e400')`, `std.parseInt` of 400 digits)
 * as the reference does: JSON output can never contain `Infinity`.
 */
function fromStd(ev: Evaluator, r: JsonValue, loc: Loc): Value {
  if (typeof r === "number") {
    if (!Number.isFinite(r)) ev.error(loc, Number.isNaN(r) ? "not a number" : "overflow");
    return r;
  }
  if (typeof r === "string") {
    if (r.length > ev.maxMemory) ev.alloc(r.length, loc);
    return r;
  }
  if (r === null || typeof r === "boolean") return r;
  if (Array.isArray(r)) {
    ev.alloc(r.length, loc);
    return new VArray(r.map((x) => Thunk.of(fromStd(ev, x, loc))));
  }
  const keys = Object.keys(r);
  ev.alloc(keys.length, loc);
  return objectFromThunks(keys.map((k) => [k, Thunk.of(fromStd(ev, r[k], loc))]));
}

function nativeFunc(name: string, spec: AnyNative): VFunc {
  const defaults = spec.defaults ?? [];
  return new VFunc(
    name,
    spec.params.map((p) => ({ name: p })),
    null,
    null,
    spec.lazy
      ? (ev, args, loc) => spec.fn(ev, args, loc)
      : (ev, args, loc) => spec.fn(ev, args.map((t) => t.force()), loc),
    defaults,
  );
}

let STD: VObject | undefined;

/** The shared std object (without `thisFile`). */
export function stdObject(): VObject {
  if (STD) return STD;
  const fields = new Map<string, FieldDef>();
  for (const name of Object.keys(pureStd)) {
    fields.set(name, { hide: Hide.Hidden, plus: false, thunk: Thunk.of(pureFunc(name)) });
  }
  for (const table of [arrayBuiltins, higherOrderBuiltins, setBuiltins, objectBuiltins]) {
    for (const [name, spec] of Object.entries(table)) {
      fields.set(name, { hide: Hide.Hidden, plus: false, thunk: Thunk.of(nativeFunc(name, spec)) });
    }
  }
  // Jsonnet 0.21: `std.pi` is a (hidden) number field, not a function.
  fields.set("pi", { hide: Hide.Hidden, plus: false, thunk: Thunk.of(Math.PI) });
  STD = new VObject([{ fields, asserts: [], locals: [], env: null, dollar: false }]);
  return STD;
}

/** The std object seen by one file: the shared one plus a hidden `thisFile`. */
export function stdForFile(file: string): VObject {
  const base = stdObject();
  const extra = objectFromThunks([["thisFile", Thunk.of(file)]], Hide.Hidden);
  return new VObject([...base.layers, ...extra.layers]);
}

/** Calls `std.<name>` with positional argument thunks. */
export function callStd(ev: Evaluator, name: string, args: Thunk[], loc: Loc): Value {
  const f = getField(ev, stdObject(), name, loc);
  return ev.call(f as VFunc, args, [], loc);
}
