/**
 * Native std functions over objects, plus `extVar`, `trace` and `manifestJsonEx`.
 *
 * @module
 */
import { Hide, type Loc } from "./ast.ts";
import { type Evaluator, typeName } from "./evaluator.ts";
import { boolArg, callT, func, mkArray, obj, strArg } from "./builtins_util.ts";
import { BuiltinError } from "./errors.ts";
import { manifestJsonEx } from "./manifest_json.ts";
import { fieldNames, getField, hasField, objectFromThunks } from "./objects.ts";
import type { AnyNative } from "./std_bridge.ts";
import { Thunk, type Value, VArray, VObject } from "./values.ts";

function fieldThunk(ev: Evaluator, o: VObject, k: string, loc: Loc): Thunk {
  return new Thunk(() => getField(ev, o, k, loc));
}

/** Field names, charged against the budgets. */
function names(ev: Evaluator, o: VObject, hidden: boolean, loc: Loc): string[] {
  const r = fieldNames(o, hidden);
  ev.alloc(r.length, loc);
  return r;
}

function values(ev: Evaluator, o: VObject, hidden: boolean, loc: Loc): VArray {
  return new VArray(names(ev, o, hidden, loc).map((k) => fieldThunk(ev, o, k, loc)));
}

function keysValues(ev: Evaluator, o: VObject, hidden: boolean, loc: Loc): VArray {
  return new VArray(
    names(ev, o, hidden, loc).map((k) =>
      Thunk.of(objectFromThunks([["key", Thunk.of(k)], ["value", fieldThunk(ev, o, k, loc)]]))
    ),
  );
}

function isContent(v: Value): boolean {
  if (v === null) return false;
  if (v instanceof VArray) return v.elems.length > 0;
  if (v instanceof VObject) return fieldNames(v, false).length > 0;
  return true;
}

function prune(ev: Evaluator, v: Value, loc: Loc): Value {
  if (v instanceof VArray) {
    const out: Value[] = [];
    for (const t of v.elems) {
      const p = prune(ev, t.force(), loc);
      if (isContent(p)) out.push(p);
    }
    return mkArray(out);
  }
  if (v instanceof VObject) {
    const out: [string, Thunk][] = [];
    for (const k of fieldNames(v, false)) {
      const p = prune(ev, getField(ev, v, k, loc), loc);
      if (isContent(p)) out.push([k, Thunk.of(p)]);
    }
    return objectFromThunks(out);
  }
  return v;
}

function mergePatch(ev: Evaluator, target: Value, patch: Value, loc: Loc): Value {
  if (!(patch instanceof VObject)) return patch;
  const t = target instanceof VObject ? target : null;
  const out: [string, Thunk][] = [];
  const pf = fieldNames(patch, false);
  const tf = t ? fieldNames(t, false) : [];
  const names = [...new Set([...tf, ...pf])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const k of names) {
    const inPatch = hasField(patch, k, patch.layers.length - 1, false);
    if (!inPatch) {
      out.push([k, fieldThunk(ev, t!, k, loc)]);
      continue;
    }
    const pv = getField(ev, patch, k, loc);
    if (pv === null) continue;
    const inTarget = t !== null && hasField(t, k, t.layers.length - 1, false);
    out.push([k, Thunk.of(mergePatch(ev, inTarget ? getField(ev, t!, k, loc) : null, pv, loc))]);
  }
  return objectFromThunks(out);
}

/** Natives for objects and host interaction. */
export const objectBuiltins: Record<string, AnyNative> = {
  objectFields: {
    params: ["o"],
    fn: (ev: Evaluator, [o], loc) =>
      mkArray(names(ev, obj(ev, o, "objectFields", loc), false, loc)),
  },
  objectFieldsAll: {
    params: ["o"],
    fn: (ev: Evaluator, [o], loc) =>
      mkArray(names(ev, obj(ev, o, "objectFieldsAll", loc), true, loc)),
  },
  objectFieldsEx: {
    params: ["obj", "hidden"],
    fn: (ev: Evaluator, [o, h], loc) =>
      mkArray(
        names(ev, obj(ev, o, "objectFieldsEx", loc), boolArg(ev, h, "objectFieldsEx", loc), loc),
      ),
  },
  objectHasEx: {
    params: ["obj", "fname", "hidden"],
    fn: (ev: Evaluator, [o, f, h], loc) => {
      const x = obj(ev, o, "objectHasEx", loc);
      const name = strArg(ev, f, "objectHasEx", loc);
      return hasField(x, name, x.layers.length - 1, boolArg(ev, h, "objectHasEx", loc));
    },
  },
  objectHas: {
    params: ["o", "f"],
    fn: (ev: Evaluator, [o, f], loc) => {
      const x = obj(ev, o, "objectHas", loc);
      return hasField(x, strArg(ev, f, "objectHas", loc), x.layers.length - 1, false);
    },
  },
  objectHasAll: {
    params: ["o", "f"],
    fn: (ev: Evaluator, [o, f], loc) => {
      const x = obj(ev, o, "objectHasAll", loc);
      return hasField(x, strArg(ev, f, "objectHasAll", loc), x.layers.length - 1, true);
    },
  },
  objectValues: {
    params: ["o"],
    fn: (ev: Evaluator, [o], loc) => values(ev, obj(ev, o, "objectValues", loc), false, loc),
  },
  objectValuesAll: {
    params: ["o"],
    fn: (ev: Evaluator, [o], loc) => values(ev, obj(ev, o, "objectValuesAll", loc), true, loc),
  },
  objectKeysValues: {
    params: ["o"],
    fn: (ev: Evaluator, [o], loc) =>
      keysValues(ev, obj(ev, o, "objectKeysValues", loc), false, loc),
  },
  objectKeysValuesAll: {
    params: ["o"],
    fn: (ev: Evaluator, [o], loc) =>
      keysValues(ev, obj(ev, o, "objectKeysValuesAll", loc), true, loc),
  },
  get: {
    params: ["o", "f", "default", "inc_hidden"],
    defaults: [undefined, undefined, null, true],
    lazy: true,
    fn: (ev: Evaluator, [ot, ft, dt, ht], loc) => {
      const o = obj(ev, ot.force(), "get", loc);
      const f = strArg(ev, ft.force(), "get", loc);
      const hidden = boolArg(ev, ht.force(), "get", loc);
      if (!hasField(o, f, o.layers.length - 1, hidden)) return dt.force();
      return getField(ev, o, f, loc);
    },
  },
  objectRemoveKey: {
    params: ["obj", "key"],
    fn: (ev: Evaluator, [o, k], loc) => {
      const x = obj(ev, o, "objectRemoveKey", loc);
      const key = strArg(ev, k, "objectRemoveKey", loc);
      const out: [string, Thunk][] = [];
      for (const f of names(ev, x, true, loc)) {
        if (f !== key) out.push([f, fieldThunk(ev, x, f, loc)]);
      }
      const r = objectFromThunks(out);
      const vis = new Set(fieldNames(x, false));
      for (const [f, def] of r.layers[0].fields) {
        if (!vis.has(f)) def.hide = Hide.Hidden;
      }
      return r;
    },
  },
  mapWithKey: {
    params: ["func", "obj"],
    fn: (ev: Evaluator, [f, o], loc) => {
      const fn = func(ev, f, "mapWithKey", loc);
      const x = obj(ev, o, "mapWithKey", loc);
      return objectFromThunks(
        names(ev, x, false, loc).map((k) => [
          k,
          new Thunk(() => callT(ev, fn, loc, Thunk.of(k), fieldThunk(ev, x, k, loc))),
        ]),
      );
    },
  },
  prune: { params: ["a"], fn: (ev: Evaluator, [a], loc) => prune(ev, a, loc) },
  mergePatch: {
    params: ["target", "patch"],
    fn: (ev: Evaluator, [t, p], loc) => mergePatch(ev, t, p, loc),
  },
  extVar: {
    params: ["x"],
    fn: (ev: Evaluator, [x], loc) => {
      const name = strArg(ev, x, "extVar", loc);
      const v = ev.host.extVar(name);
      if (v === undefined) ev.error(loc, `undefined external variable: ${name}`);
      return v;
    },
  },
  trace: {
    params: ["str", "rest"],
    lazy: true,
    fn: (ev: Evaluator, [s, rest], loc) => {
      const msg = s.force();
      // The message must be a string, as in the reference (it is not converted).
      if (typeof msg !== "string") {
        throw new BuiltinError(
          `Builtin function trace expected string as first parameter but got ${typeName(msg)}`,
        );
      }
      ev.host.trace(`TRACE: ${loc.file}:${loc.line} ${msg}`);
      return rest.force();
    },
  },
  manifestJsonEx: {
    params: ["value", "indent", "newline", "key_val_sep"],
    defaults: [undefined, undefined, "\n", ": "],
    fn: (ev: Evaluator, [v, ind, nl, kv], loc) =>
      manifestJsonEx(
        ev,
        v,
        strArg(ev, ind, "manifestJsonEx", loc),
        strArg(ev, nl, "manifestJsonEx", loc),
        strArg(ev, kv, "manifestJsonEx", loc),
        loc,
      ),
  },
  native: {
    params: ["name"],
    // No native functions are registered; the reference binary returns null for unknown names.
    fn: (ev: Evaluator, [n], loc) => (strArg(ev, n, "native", loc), null),
  },
};
