/**
 * Native std functions over arrays and strings that need the evaluator (higher-order, lazy).
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { arr, boolArg, call, callT, func, mkArray, numArg, strArg } from "./builtins_util.ts";
import { sliceValue } from "./indexing.ts";
import { fieldNames } from "./objects.ts";
import { equals } from "./operators.ts";
import { type AnyNative, callStd } from "./std_bridge.ts";
import { codePoints, cpLength } from "./strings.ts";
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
  isArray: { params: ["v"], fn: (_ev, [x]) => x instanceof VArray },
  isObject: { params: ["v"], fn: (_ev, [x]) => x instanceof VObject },
  isFunction: { params: ["v"], fn: (_ev, [x]) => x instanceof VFunc },
  toString: { params: ["a"], fn: (ev: Evaluator, [x]: Value[], loc: Loc) => ev.toStr(x, loc) },
  makeArray: {
    params: ["sz", "func"],
    fn: (ev: Evaluator, [sz, f], loc) => {
      const n = numArg(ev, sz, "makeArray", loc);
      if (!Number.isInteger(n) || n < 0) {
        ev.error(loc, `makeArray requires size >= 0, got ${n}`);
      }
      const fn = func(ev, f, "makeArray", loc);
      const out: Thunk[] = [];
      for (let i = 0; i < n; i++) out.push(new Thunk(() => call(ev, fn, loc, i)));
      return new VArray(out);
    },
  },
  range: {
    params: ["from", "to"],
    fn: (ev: Evaluator, [a, b], loc) => {
      const from = numArg(ev, a, "range", loc);
      const to = numArg(ev, b, "range", loc);
      const out: Thunk[] = [];
      for (let i = from; i <= to; i++) out.push(Thunk.of(i));
      return new VArray(out);
    },
  },
  map: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "map", loc);
      const items = typeof a === "string" ? mkArray(codePoints(a)) : arr(ev, a, "map", loc);
      return new VArray(items.elems.map((t) => new Thunk(() => callT(ev, fn, loc, t))));
    },
  },
  mapWithIndex: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "mapWithIndex", loc);
      const items = typeof a === "string"
        ? mkArray(codePoints(a))
        : arr(ev, a, "mapWithIndex", loc);
      return new VArray(
        items.elems.map((t, i) => new Thunk(() => callT(ev, fn, loc, Thunk.of(i), t))),
      );
    },
  },
  filter: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "filter", loc);
      return new VArray(
        arr(ev, a, "filter", loc).elems.filter((t) => {
          const r = callT(ev, fn, loc, t);
          if (typeof r !== "boolean") {
            ev.error(loc, `filter function must return boolean, got: ${typeName(r)}`);
          }
          return r;
        }),
      );
    },
  },
  filterMap: {
    params: ["filter_func", "map_func", "arr"],
    fn: (ev: Evaluator, [ff, mf, a], loc) => {
      const f1 = func(ev, ff, "filterMap", loc);
      const f2 = func(ev, mf, "filterMap", loc);
      const kept = arr(ev, a, "filterMap", loc).elems.filter((t) => {
        const r = callT(ev, f1, loc, t);
        if (typeof r !== "boolean") {
          ev.error(loc, `filter function must return boolean, got: ${typeName(r)}`);
        }
        return r;
      });
      return new VArray(kept.map((t) => new Thunk(() => callT(ev, f2, loc, t))));
    },
  },
  flatMap: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "flatMap", loc);
      if (typeof a === "string") {
        let out = "";
        for (const c of codePoints(a)) {
          const r = call(ev, fn, loc, c);
          if (r === null) continue;
          out += strArg(ev, r, "flatMap", loc);
        }
        return out;
      }
      const out: Thunk[] = [];
      for (const t of arr(ev, a, "flatMap", loc).elems) {
        const r = callT(ev, fn, loc, t);
        if (r === null) continue;
        out.push(...arr(ev, r, "flatMap", loc).elems);
      }
      return new VArray(out);
    },
  },
  foldl: {
    params: ["func", "arr", "init"],
    fn: (ev: Evaluator, [f, a, init], loc) => {
      const fn = func(ev, f, "foldl", loc);
      let acc = init;
      const items = typeof a === "string" ? mkArray(codePoints(a)) : arr(ev, a, "foldl", loc);
      for (const t of items.elems) acc = callT(ev, fn, loc, Thunk.of(acc), t);
      return acc;
    },
  },
  foldr: {
    params: ["func", "arr", "init"],
    fn: (ev: Evaluator, [f, a, init], loc) => {
      const fn = func(ev, f, "foldr", loc);
      let acc = init;
      const items = typeof a === "string" ? mkArray(codePoints(a)) : arr(ev, a, "foldr", loc);
      for (let i = items.elems.length - 1; i >= 0; i--) {
        acc = callT(ev, fn, loc, items.elems[i], Thunk.of(acc));
      }
      return acc;
    },
  },
  all: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      for (const t of arr(ev, a, "all", loc).elems) {
        if (!boolArg(ev, t.force(), "all", loc)) return false;
      }
      return true;
    },
  },
  any: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      for (const t of arr(ev, a, "any", loc).elems) {
        if (boolArg(ev, t.force(), "any", loc)) return true;
      }
      return false;
    },
  },
  sum: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) =>
      arr(ev, a, "sum", loc).elems.reduce((s, t) => s + numArg(ev, t.force(), "sum", loc), 0),
  },
  avg: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const xs = arr(ev, a, "avg", loc).elems;
      if (!xs.length) ev.error(loc, "Cannot calculate average of an empty array.");
      return xs.reduce((s, t) => s + numArg(ev, t.force(), "avg", loc), 0) / xs.length;
    },
  },
  member: {
    params: ["arr", "x"],
    fn: (ev: Evaluator, [a, x], loc) => {
      if (typeof a === "string") return a.includes(strArg(ev, x, "member", loc));
      return arr(ev, a, "member", loc).elems.some((t) => equals(ev, t.force(), x, loc));
    },
  },
  contains: {
    params: ["arr", "elem"],
    fn: (ev: Evaluator, [a, x], loc) =>
      arr(ev, a, "contains", loc).elems.some((t) => equals(ev, t.force(), x, loc)),
  },
  count: {
    params: ["arr", "x"],
    fn: (ev: Evaluator, [a, x], loc) =>
      arr(ev, a, "count", loc).elems.filter((t) => equals(ev, t.force(), x, loc)).length,
  },
  find: {
    params: ["value", "arr"],
    fn: (ev: Evaluator, [x, a], loc) => {
      const out: Value[] = [];
      arr(ev, a, "find", loc).elems.forEach((t, i) => {
        if (equals(ev, t.force(), x, loc)) out.push(i);
      });
      return mkArray(out);
    },
  },
  remove: {
    params: ["arr", "elem"],
    fn: (ev: Evaluator, [a, x], loc) => {
      const xs = arr(ev, a, "remove", loc).elems;
      const i = xs.findIndex((t) => equals(ev, t.force(), x, loc));
      return i < 0 ? a : new VArray([...xs.slice(0, i), ...xs.slice(i + 1)]);
    },
  },
  removeAt: {
    params: ["arr", "at"],
    fn: (ev: Evaluator, [a, at], loc) => {
      const xs = arr(ev, a, "removeAt", loc).elems;
      const i = numArg(ev, at, "removeAt", loc);
      return new VArray(xs.filter((_, j) => j !== i));
    },
  },
  join: {
    params: ["sep", "arr"],
    fn: (ev: Evaluator, [sep, a], loc) => {
      const xs = arr(ev, a, "join", loc).elems.map((t) => t.force());
      if (typeof sep === "string") {
        const parts: string[] = [];
        for (const x of xs) {
          if (x === null) continue;
          if (typeof x !== "string") {
            ev.error(loc, `expected string but arr[${xs.indexOf(x)}] was ${typeName(x)}`);
          }
          parts.push(x);
        }
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
          if (!first) out.push(...sep.elems);
          first = false;
          out.push(...x.elems);
        }
        return new VArray(out);
      }
      ev.error(loc, `join requires string or array, got ${typeName(sep)}`);
    },
  },
  deepJoin: {
    params: ["arr"],
    fn: (ev: Evaluator, [a], loc) => {
      const rec = (v: Value): string => {
        if (typeof v === "string") return v;
        if (v instanceof VArray) return v.elems.map((t) => rec(t.force())).join("");
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
        out.push(...arr(ev, x, "flattenArrays", loc).elems);
      }
      return new VArray(out);
    },
  },
  flattenDeepArray: {
    params: ["value"],
    fn: (_ev: Evaluator, [v]) => {
      const out: Thunk[] = [];
      const rec = (x: Value) => {
        if (x instanceof VArray) { for (const t of x.elems) rec(t.force()); }
        else out.push(Thunk.of(x));
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
    fn: (ev: Evaluator, [a], loc) => new VArray(arr(ev, a, "reverse", loc).elems.slice().reverse()),
  },
  repeat: {
    params: ["what", "count"],
    fn: (ev: Evaluator, [w, c], loc) => {
      const n = numArg(ev, c, "repeat", loc);
      if (typeof w === "string") return w.repeat(n);
      const xs = arr(ev, w, "repeat", loc).elems;
      const out: Thunk[] = [];
      for (let i = 0; i < n; i++) out.push(...xs);
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
