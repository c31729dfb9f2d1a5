/**
 * Native std functions that build arrays or call Jsonnet functions per element (makeArray,
 * range, map, filter, fold...). Every loop is charged against the step budget and every array
 * against the memory budget before it is built.
 *
 * @module
 */
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { append, arr, call, callT, chars, func, numArg, strArg } from "./builtins_util.ts";
import type { AnyNative } from "./std_bridge.ts";
import { codePoints } from "./strings.ts";
import { Thunk, VArray } from "./values.ts";

/** Natives for generating and transforming arrays. */
export const higherOrderBuiltins: Record<string, AnyNative> = {
  makeArray: {
    params: ["sz", "func"],
    fn: (ev: Evaluator, [sz, f], loc) => {
      const size = numArg(ev, sz, "makeArray", loc);
      if (!(size >= 0)) ev.error(loc, `makeArray requires size >= 0, got ${size}`);
      const n = Math.floor(size); // the reference truncates a fractional size
      const fn = func(ev, f, "makeArray", loc);
      ev.alloc(n, loc);
      const out: Thunk[] = [];
      for (let i = 0; i < n; i++) out.push(new Thunk(() => call(ev, fn, loc, i)));
      return new VArray(out);
    },
  },
  range: {
    params: ["from", "to"],
    fn: (ev: Evaluator, [a, b], loc) => {
      // The reference converts both bounds to integers (truncating).
      const from = Math.trunc(numArg(ev, a, "range", loc));
      const to = Math.trunc(numArg(ev, b, "range", loc));
      ev.alloc(Math.max(0, to - from + 1), loc);
      const out: Thunk[] = [];
      for (let i = from; i <= to; i++) out.push(Thunk.of(i));
      return new VArray(out);
    },
  },
  map: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "map", loc);
      const items = typeof a === "string" ? chars(ev, a, loc) : arr(ev, a, "map", loc);
      ev.alloc(items.elems.length, loc);
      return new VArray(items.elems.map((t) => new Thunk(() => callT(ev, fn, loc, t))));
    },
  },
  mapWithIndex: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "mapWithIndex", loc);
      const items = typeof a === "string" ? chars(ev, a, loc) : arr(ev, a, "mapWithIndex", loc);
      ev.alloc(items.elems.length, loc);
      return new VArray(
        items.elems.map((t, i) => new Thunk(() => callT(ev, fn, loc, Thunk.of(i), t))),
      );
    },
  },
  filter: {
    params: ["func", "arr"],
    fn: (ev: Evaluator, [f, a], loc) => {
      const fn = func(ev, f, "filter", loc);
      const xs = arr(ev, a, "filter", loc).elems;
      ev.alloc(xs.length, loc);
      return new VArray(
        xs.filter((t) => {
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
      const xs = arr(ev, a, "filterMap", loc).elems;
      ev.alloc(xs.length, loc);
      const kept = xs.filter((t) => {
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
          const piece = strArg(ev, r, "flatMap", loc);
          ev.alloc(out.length + piece.length, loc);
          out += piece;
        }
        return out;
      }
      const out: Thunk[] = [];
      for (const t of arr(ev, a, "flatMap", loc).elems) {
        const r = callT(ev, fn, loc, t);
        if (r === null) continue;
        append(ev, out, arr(ev, r, "flatMap", loc).elems, loc);
      }
      return new VArray(out);
    },
  },
  foldl: {
    params: ["func", "arr", "init"],
    fn: (ev: Evaluator, [f, a, init], loc) => {
      const fn = func(ev, f, "foldl", loc);
      let acc = init;
      const items = typeof a === "string" ? chars(ev, a, loc) : arr(ev, a, "foldl", loc);
      ev.charge(items.elems.length, loc);
      for (const t of items.elems) acc = callT(ev, fn, loc, Thunk.of(acc), t);
      return acc;
    },
  },
  foldr: {
    params: ["func", "arr", "init"],
    fn: (ev: Evaluator, [f, a, init], loc) => {
      const fn = func(ev, f, "foldr", loc);
      let acc = init;
      const items = typeof a === "string" ? chars(ev, a, loc) : arr(ev, a, "foldr", loc);
      ev.charge(items.elems.length, loc);
      for (let i = items.elems.length - 1; i >= 0; i--) {
        acc = callT(ev, fn, loc, items.elems[i], Thunk.of(acc));
      }
      return acc;
    },
  },
};
