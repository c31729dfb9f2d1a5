/**
 * Native std functions over arrays, strings and general values (searching, joining, equality).
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { append, arr, boolArg, mkArray, numArg, strArg } from "./builtins_util.ts";
import { sliceValue } from "./indexing.ts";
import { fieldNames } from "./objects.ts";
import { equals } from "./operators.ts";
import { type AnyNative, callStd } from "./std_bridge.ts";
import { cpLength } from "./strings.ts";
import { Thunk, type Value, VArray, VFunc, VObject } from "./values.ts";

/** Natives for arrays, strings and general values. */
export const arrayBuiltins: Record<string, AnyNative> = {
  length: {
    params: ["x"],
    fn: (ev: Evaluator, [x], loc) => {
      if (typeof x === "string") return cpLength(x);
      if (x instanceof VArray) return x.elems.length;
      if (x instanceof VObject) return fieldNames(x, false).length;
      if (x instanceof VFunc) return x.params.length;
      ev.error(loc, `length operates on strings, objects, and arrays, got ${typeName(x)}`);
    },
  },
  type: { params: ["x"], fn: (_ev, [x]) => typeName(x) },
  isString: { params: ["v"], fn: (_ev, [x]) => typeof x === "string" },
  isNumber: { params: ["v"], fn: (_ev, [x]) => typeof x === "number" },
  isBoolean: { params: ["v"], fn: (_ev, [x]) => typeof x === "boolean" },
  isNull: { params: ["v"], fn: (_ev, [x]) => x === null },
  isArray: { params: ["v"], fn: (_ev, [x]) => x instanceof VArray },
  isObject: { params: ["v"], fn: (_ev, [x]) => x instanceof VObject },
  isFunction: { params: ["v"], fn: (_ev, [x]) => x instanceof VFunc },
  toString: { params: ["a"], fn: (ev: Evaluator, [x]: Value[], loc: Loc) => ev.toStr(x, loc) },
  all: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const xs = arr(ev, a, "all", loc).elems;
      ev.charge(xs.length, loc);
      for (const t of xs) {
        if (!boolArg(ev, t.force(), "all", loc)) return false;
      }
      return true;
    },
  },
  any: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const xs = arr(ev, a, "any", loc).elems;
      ev.charge(xs.length, loc);
      for (const t of xs) {
        if (boolArg(ev, t.force(), "any", loc)) return true;
      }
      return false;
    },
  },
  sum: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const xs = arr(ev, a, "sum", loc).elems;
      ev.charge(xs.length, loc);
      return xs.reduce((s, t) => s + numArg(ev, t.force(), "sum", loc), 0);
    },
  },
  avg: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const xs = arr(ev, a, "avg", loc).elems;
      ev.charge(xs.length, loc);
      if (!xs.length) ev.error(loc, "Cannot calculate average of an empty array.");
      return xs.reduce((s, t) => s + numArg(ev, t.force(), "avg", loc), 0) / xs.length;
    },
  },
  member: {
    params: ["arr", "x"],
    fn: (ev: Evaluator, [a, x], loc) => {
      if (typeof a === "string") return a.includes(strArg(ev, x, "member", loc));
      const xs = arr(ev, a, "member", loc).elems;
      ev.charge(xs.length, loc);
      return xs.some((t) => equals(ev, t.force(), x, loc));
    },
  },
  contains: {
    params: ["arr", "elem"],
    fn: (ev: Evaluator, [a, x], loc) => {
      const xs = arr(ev, a, "contains", loc).elems;
      ev.charge(xs.length, loc);
      return xs.some((t) => equals(ev, t.force(), x, loc));
    },
  },
  count: {
    params: ["arr", "x"],
    fn: (ev: Evaluator, [a, x], loc) => {
      const xs = arr(ev, a, "count", loc).elems;
      ev.charge(xs.length, loc);
      return xs.filter((t) => equals(ev, t.force(), x, loc)).length;
    },
  },
  find: {
    params: ["value", "arr"],
    fn: (ev: Evaluator, [x, a], loc) => {
      const out: Value[] = [];
      const xs = arr(ev, a, "find", loc).elems;
      ev.charge(xs.length, loc);
      xs.forEach((t, i) => {
        if (equals(ev, t.force(), x, loc)) out.push(i);
      });
      return mkArray(out);
    },
  },
  remove: {
    params: ["arr", "elem"],
    fn: (ev: Evaluator, [a, x], loc) => {
      const xs = arr(ev, a, "remove", loc).elems;
      ev.alloc(xs.length, loc);
      const i = xs.findIndex((t) => equals(ev, t.force(), x, loc));
      return i < 0 ? a : new VArray([...xs.slice(0, i), ...xs.slice(i + 1)]);
    },
  },
  removeAt: {
    params: ["arr", "at"],
    fn: (ev: Evaluator, [a, at], loc) => {
      const xs = arr(ev, a, "removeAt", loc).elems;
      ev.alloc(xs.length, loc);
      const i = numArg(ev, at, "removeAt", loc);
      return new VArray(xs.filter((_, j) => j !== i));
    },
  },
  join: {
    params: ["sep", "arr"],
    fn: (ev: Evaluator, [sep, a], loc) => {
      const elems = arr(ev, a, "join", loc).elems;
      ev.charge(elems.length, loc);
      const xs = elems.map((t) => t.force());
      if (typeof sep === "string") {
        const parts: string[] = [];
        let size = 0;
        for (let i = 0; i < xs.length; i++) {
          const x = xs[i];
          if (x === null) continue;
          if (typeof x !== "string") {
            ev.error(loc, `expected string but arr[${i}] was ${typeName(x)}`);
          }
          size += x.length + (parts.length ? sep.length : 0);
          parts.push(x);
        }
        ev.alloc(size, loc);
        return parts.join(sep);
      }
      if (sep instanceof VArray) {
        const out: Thunk[] = [];
        let first = true;
        for (const x of xs) {
          if (x === null) continue;
          if (!(x instanceof VArray)) {
            ev.error(loc, `join expected array but arr contained ${typeName(x)}`);
          }
          if (!first) append(ev, out, sep.elems, loc);
          first = false;
          append(ev, out, x.elems, loc);
        }
        return new VArray(out);
      }
      ev.error(loc, `join requires string or array, got ${typeName(sep)}`);
    },
  },
  deepJoin: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      let size = 0;
      const rec = (v: Value): string => {
        if (typeof v === "string") {
          ev.alloc(size += v.length, loc);
          return v;
        }
        if (v instanceof VArray) {
          ev.charge(v.elems.length, loc);
          return v.elems.map((t) => rec(t.force())).join("");
        }
        ev.error(loc, `Expected string or array, got ${typeName(v)}`);
      };
      return rec(a);
    },
  },
  flattenArrays: {
    params: ["arrs"],
    fn: (ev: Evaluator, [a], loc) => {
      const out: Thunk[] = [];
      for (const t of arr(ev, a, "flattenArrays", loc).elems) {
        const x = t.force();
        if (x === null) continue;
        append(ev, out, arr(ev, x, "flattenArrays", loc).elems, loc);
      }
      return new VArray(out);
    },
  },
  flattenDeepArray: {
    params: ["value"],
    fn: (ev: Evaluator, [v], loc) => {
      const out: Thunk[] = [];
      const rec = (x: Value) => {
        if (x instanceof VArray) {
          ev.charge(x.elems.length, loc);
          for (const t of x.elems) rec(t.force());
        } else {
          if (out.length >= ev.maxMemory) ev.alloc(out.length + 1, loc);
          out.push(Thunk.of(x));
        }
      };
      rec(v);
      return new VArray(out);
    },
  },
  xor: {
    params: ["x", "y"],
    fn: (ev: Evaluator, [x, y], loc) => boolArg(ev, x, "xor", loc) !== boolArg(ev, y, "xor", loc),
  },
  xnor: {
    params: ["x", "y"],
    fn: (ev: Evaluator, [x, y], loc) => boolArg(ev, x, "xnor", loc) === boolArg(ev, y, "xnor", loc),
  },
  resolvePath: {
    params: ["f", "r"],
    fn: (ev: Evaluator, [f, r], loc) => {
      const parts = strArg(ev, f, "resolvePath", loc).split("/");
      return [...parts.slice(0, -1), strArg(ev, r, "resolvePath", loc)].join("/");
    },
  },
  reverse: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const xs = arr(ev, a, "reverse", loc).elems;
      ev.alloc(xs.length, loc);
      return new VArray(xs.slice().reverse());
    },
  },
  repeat: {
    params: ["what", "count"],
    fn: (ev: Evaluator, [w, c], loc) => {
      const n = numArg(ev, c, "repeat", loc);
      if (typeof w !== "string") arr(ev, w, "repeat", loc);
      // Like the reference (std.join of std.makeArray(count, ...)): a negative count fails there.
      if (n < 0) ev.error(loc, `makeArray requires size >= 0, got ${n}`);
      const times = Math.floor(n);
      // The reference builds std.makeArray(count, ...) first, even for an empty `what`.
      ev.alloc(times, loc);
      if (typeof w === "string" ? w.length === 0 : (w as VArray).elems.length === 0) return w;
      if (typeof w === "string") {
        ev.alloc(times * w.length, loc);
        return w.repeat(times);
      }
      const xs = (w as VArray).elems;
      ev.alloc(times * xs.length, loc);
      const out: Thunk[] = [];
      for (let i = 0; i < times; i++) append(ev, out, xs, loc);
      return new VArray(out);
    },
  },
  slice: {
    params: ["indexable", "index", "end", "step"],
    fn: (ev: Evaluator, [x, b, e, s], loc) => sliceValue(ev, x, b, e, s, loc),
  },
  primitiveEquals: {
    params: ["a", "b"],
    fn: (ev: Evaluator, [a, b], loc) => {
      if (typeName(a) !== typeName(b)) return false;
      if (typeof a === "object" && a !== null) {
        ev.error(loc, "primitiveEquals operates on primitive types, got " + typeName(a));
      }
      return a === b;
    },
  },
  equals: { params: ["a", "b"], fn: (ev: Evaluator, [a, b], loc) => equals(ev, a, b, loc) },
  assertEqual: {
    params: ["a", "b"],
    fn: (ev: Evaluator, [a, b], loc) => {
      if (equals(ev, a, b, loc)) return true;
      ev.error(loc, `Assertion failed. ${ev.toStr(a, loc)} != ${ev.toStr(b, loc)}`);
    },
  },
  mod: {
    params: ["a", "b"],
    fn: (ev: Evaluator, [a, b], loc) => {
      if (typeof a === "number" && typeof b === "number") {
        if (b === 0) ev.error(loc, "division by zero.");
        return a % b;
      }
      if (typeof a === "string") {
        return callStd(ev, "format", [Thunk.of(a), Thunk.of(b)], loc);
      }
      ev.error(loc, `Operator % cannot be used on types ${typeName(a)} and ${typeName(b)}.`);
    },
  },
};
