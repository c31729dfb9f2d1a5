/**
 * Native std functions for ordering: sort, uniq, the set family and min/max (all with keyF).
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { arr, call, chars, func, mkArray } from "./builtins_util.ts";
import { compare, equals } from "./operators.ts";
import type { AnyNative } from "./std_bridge.ts";
import { type Value, type VArray, VFunc } from "./values.ts";

const ID = new VFunc("id", [{ name: "x" }], null, null, (_ev, a) => a[0].force());

function keyed(ev: Evaluator, a: VArray, keyF: Value, loc: Loc): { v: Value; k: Value }[] {
  const f = func(ev, keyF, "sort", loc);
  ev.alloc(a.elems.length, loc);
  return a.elems.map((t) => {
    const v = t.force();
    return { v, k: f === ID ? v : call(ev, f, loc, v) };
  });
}

function sortKeyed(ev: Evaluator, a: VArray, keyF: Value, loc: Loc) {
  const items = keyed(ev, a, keyF, loc);
  ev.charge(items.length * Math.ceil(Math.log2(items.length + 1)), loc);
  return items.sort((x, y) => compare(ev, x.k, y.k, loc));
}

function uniqKeyed(ev: Evaluator, items: { v: Value; k: Value }[], loc: Loc) {
  const out: { v: Value; k: Value }[] = [];
  for (const it of items) {
    if (out.length && equals(ev, out[out.length - 1].k, it.k, loc)) continue;
    out.push(it);
  }
  return out;
}

/**
 * A set operand. The reference's `setInter` only indexes its operands, so a string there is the
 * set of its characters (`std.setInter("b", ["a", "b"])` is `["b"]`); its `setUnion` and
 * `setDiff` build with `+` and give nonsense for strings, so they keep requiring arrays.
 */
function operand(ev: Evaluator, v: Value, mode: string, loc: Loc): VArray {
  return mode === "inter" && typeof v === "string"
    ? chars(ev, v, loc)
    : arr(ev, v, "set" + mode, loc);
}

function setOp(ev: Evaluator, args: Value[], loc: Loc, mode: "union" | "inter" | "diff"): Value {
  const a = keyed(ev, operand(ev, args[0], mode, loc), args[2], loc);
  const b = keyed(ev, operand(ev, args[1], mode, loc), args[2], loc);
  const out: Value[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compare(ev, a[i].k, b[j].k, loc);
    if (c === 0) {
      if (mode !== "diff") out.push(a[i].v);
      i++;
      j++;
    } else if (c < 0) {
      if (mode !== "inter") out.push(a[i].v);
      i++;
    } else {
      if (mode === "union") out.push(b[j].v);
      j++;
    }
  }
  if (mode !== "inter") { for (; i < a.length; i++) out.push(a[i].v); }
  if (mode === "union") { for (; j < b.length; j++) out.push(b[j].v); }
  return mkArray(out);
}

function minMax(ev: Evaluator, args: Value[], loc: Loc, sign: number, name: string): Value {
  const a = arr(ev, args[0], name, loc);
  if (a.elems.length === 0) {
    if (args[2] === undefined || args[2] === UNSET_ERR) {
      ev.error(loc, `Expected at least one element in array. Got none`);
    }
    return args[2];
  }
  const items = keyed(ev, a, args[1], loc);
  let best = items[0];
  for (const it of items.slice(1)) if (compare(ev, it.k, best.k, loc) * sign > 0) best = it;
  return best.v;
}
const UNSET_ERR = "\u0000__jsonnet_no_default__";

/** Natives for sorting and sets. */
export const setBuiltins: Record<string, AnyNative> = {
  sort: {
    params: ["arr", "keyF"],
    defaults: [undefined, ID],
    fn: (ev: Evaluator, [a, k], loc) =>
      mkArray(sortKeyed(ev, arr(ev, a, "sort", loc), k, loc).map((x) => x.v)),
  },
  uniq: {
    params: ["arr", "keyF"],
    defaults: [undefined, ID],
    fn: (ev: Evaluator, [a, k], loc) =>
      mkArray(uniqKeyed(ev, keyed(ev, arr(ev, a, "uniq", loc), k, loc), loc).map((x) => x.v)),
  },
  set: {
    params: ["arr", "keyF"],
    defaults: [undefined, ID],
    fn: (ev: Evaluator, [a, k], loc) =>
      mkArray(uniqKeyed(ev, sortKeyed(ev, arr(ev, a, "set", loc), k, loc), loc).map((x) => x.v)),
  },
  setUnion: {
    params: ["a", "b", "keyF"],
    defaults: [undefined, undefined, ID],
    fn: (ev: Evaluator, a, l) => setOp(ev, a, l, "union"),
  },
  setInter: {
    params: ["a", "b", "keyF"],
    defaults: [undefined, undefined, ID],
    fn: (ev: Evaluator, a, l) => setOp(ev, a, l, "inter"),
  },
  setDiff: {
    params: ["a", "b", "keyF"],
    defaults: [undefined, undefined, ID],
    fn: (ev: Evaluator, a, l) => setOp(ev, a, l, "diff"),
  },
  setMember: {
    params: ["x", "arr", "keyF"],
    defaults: [undefined, undefined, ID],
    fn: (ev: Evaluator, [x, a, k], loc) => {
      const f = func(ev, k, "setMember", loc);
      const key = f === ID ? x : call(ev, f, loc, x);
      const items = keyed(ev, arr(ev, a, "setMember", loc), k, loc);
      let lo = 0;
      let hi = items.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const c = compare(ev, items[mid].k, key, loc);
        if (c === 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
    },
  },
  minArray: {
    params: ["arr", "keyF", "onEmpty"],
    defaults: [undefined, ID, UNSET_ERR],
    fn: (ev: Evaluator, a, loc) => minMax(ev, a, loc, -1, "minArray"),
  },
  maxArray: {
    params: ["arr", "keyF", "onEmpty"],
    defaults: [undefined, ID, UNSET_ERR],
    fn: (ev: Evaluator, a, loc) => minMax(ev, a, loc, 1, "maxArray"),
  },
};
