/**
 * Argument checking helpers shared by the native std functions.
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { Thunk, type Value, VArray, VFunc, VObject } from "./values.ts";
import { codePoints } from "./strings.ts";

/** Requires an array argument. */
export function arr(ev: Evaluator, v: Value, fn: string, loc: Loc): VArray {
  if (!(v instanceof VArray)) ev.error(loc, `std.${fn} expected array, got ${typeName(v)}`);
  return v;
}
/** Requires an object argument. */
export function obj(ev: Evaluator, v: Value, fn: string, loc: Loc): VObject {
  if (!(v instanceof VObject)) ev.error(loc, `std.${fn} expected object, got ${typeName(v)}`);
  return v;
}
/** Requires a function argument. */
export function func(ev: Evaluator, v: Value, fn: string, loc: Loc): VFunc {
  if (!(v instanceof VFunc)) ev.error(loc, `std.${fn} expected function, got ${typeName(v)}`);
  return v;
}
/** Requires a number argument. */
export function numArg(ev: Evaluator, v: Value, fn: string, loc: Loc): number {
  if (typeof v !== "number") ev.error(loc, `std.${fn} expected number, got ${typeName(v)}`);
  return v;
}
/** Requires a string argument. */
export function strArg(ev: Evaluator, v: Value, fn: string, loc: Loc): string {
  if (typeof v !== "string") ev.error(loc, `std.${fn} expected string, got ${typeName(v)}`);
  return v;
}
/** Requires a boolean argument. */
export function boolArg(ev: Evaluator, v: Value, fn: string, loc: Loc): boolean {
  if (typeof v !== "boolean") ev.error(loc, `std.${fn} expected boolean, got ${typeName(v)}`);
  return v;
}
/** Calls a Jsonnet function with already computed positional values. */
export function call(ev: Evaluator, f: VFunc, loc: Loc, ...args: Value[]): Value {
  return ev.call(f, args.map((a) => Thunk.of(a)), [], loc);
}
/** Calls a Jsonnet function with positional thunks. */
export function callT(ev: Evaluator, f: VFunc, loc: Loc, ...args: Thunk[]): Value {
  return ev.call(f, args, [], loc);
}
/** Wraps values as an array. */
export function mkArray(vals: Value[]): VArray {
  return new VArray(vals.map((v) => Thunk.of(v)));
}

/** The code points of `s` as an array (charged against the memory budget). */
export function chars(ev: Evaluator, s: string, loc: Loc): VArray {
  ev.alloc(s.length, loc);
  return mkArray(codePoints(s));
}

/** Appends `xs` to `out` element by element (no spreading: arrays may be huge). */
export function append(ev: Evaluator, out: Thunk[], xs: readonly Thunk[], loc: Loc): void {
  const n = out.length + xs.length;
  if (n > ev.maxMemory) ev.alloc(n, loc);
  ev.charge(xs.length, loc);
  for (let i = 0; i < xs.length; i++) out.push(xs[i]);
}
