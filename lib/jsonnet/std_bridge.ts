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
import { fromJson, toJson } from "./manifest_json.ts";
import { getField, objectFromThunks } from "./objects.ts";
import { pureStd } from "./std/mod.ts";
import { BudgetError, withAllocGuard } from "./std/limits.ts";
import { type FieldDef, Thunk, type Value, VFunc, VObject } from "./values.ts";
import { arrayBuiltins } from "./builtins_arrays.ts";
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
      return fromJson(r);
    },
    defaults,
  );
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
  for (const table of [arrayBuiltins, setBuiltins, objectBuiltins]) {
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
