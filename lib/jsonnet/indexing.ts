/**
 * Indexing (`a[i]`, `a.f`) and slicing (`a[b:e:s]`) of arrays, strings and objects.
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { getField } from "./objects.ts";
import { codePoints, cpLength, escapeJson } from "./strings.ts";
import { type Value, VArray, VObject } from "./values.ts";

/** `target[idx]`. */
export function indexValue(ev: Evaluator, target: Value, idx: Value, loc: Loc): Value {
  if (target instanceof VObject) {
    if (typeof idx !== "string") {
      ev.error(loc, `object index must be string, got ${typeName(idx)}.`);
    }
    return getField(ev, target, idx, loc);
  }
  if (target instanceof VArray) {
    if (typeof idx === "string") {
      ev.error(loc, `attempted index an array with string ${escapeJson(idx)}.`);
    }
    if (typeof idx !== "number") ev.error(loc, `array index must be number, got ${typeName(idx)}.`);
    if (!Number.isInteger(idx)) ev.error(loc, `array index was not integer: ${idx}`);
    const n = target.elems.length;
    if (idx < 0 || idx >= n) ev.error(loc, `array bounds error: ${idx} not within [0, ${n})`);
    return target.elems[idx].force();
  }
  if (typeof target === "string") {
    if (typeof idx !== "number") {
      ev.error(loc, `string index must be a number, got ${typeName(idx)}.`);
    }
    if (!Number.isInteger(idx)) ev.error(loc, `string index was not integer: ${idx}`);
    const n = cpLength(target);
    if (idx < 0 || idx >= n) ev.error(loc, `string bounds error: ${idx} not within [0, ${n})`);
    return n === target.length ? target[idx] : codePoints(target)[idx];
  }
  ev.error(loc, `can only index objects, strings, and arrays, got ${typeName(target)}.`);
}

/**
 * `target[start:end:step]` with Jsonnet 0.21 semantics: negative indices count from the end and
 * a negative step walks backwards (like Python); a zero step is an error.
 */
export function sliceValue(
  ev: Evaluator,
  target: Value,
  start: Value,
  end: Value,
  step: Value,
  loc: Loc,
): Value {
  const isStr = typeof target === "string";
  if (!isStr && !(target instanceof VArray)) {
    ev.error(loc, `std.slice accepts a string or an array, but got: ${typeName(target)}`);
  }
  for (const [what, v] of [["index", start], ["end", end], ["step", step]] as const) {
    if (v !== null && (typeof v !== "number" || !Number.isInteger(v))) {
      ev.error(loc, `std.slice ${what} must be an integer or null, got ${typeName(v)}`);
    }
  }
  const items: string[] | VArray = isStr ? codePoints(target as string) : target as VArray;
  const len = Array.isArray(items) ? items.length : items.elems.length;
  const s = (step ?? 1) as number;
  if (s === 0) ev.error(loc, `got [${start}:${end}:${s}] but step must be greater than 0`);
  const lower = s > 0 ? 0 : -1;
  const upper = s > 0 ? len : len - 1;
  const clamp = (v: Value, dflt: number): number => {
    if (v === null) return dflt;
    const n = v as number;
    return n < 0 ? Math.max(n + len, lower) : Math.min(n, upper);
  };
  const b = clamp(start, s > 0 ? lower : upper);
  const e = clamp(end, s > 0 ? upper : lower);
  const count = s > 0 ? Math.max(0, Math.ceil((e - b) / s)) : Math.max(0, Math.ceil((b - e) / -s));
  ev.alloc(count, loc);
  if (Array.isArray(items)) {
    const out: string[] = [];
    for (let k = 0, i = b; k < count; k++, i += s) out.push(items[i]);
    return out.join("");
  }
  const out = [];
  for (let k = 0, i = b; k < count; k++, i += s) out.push(items.elems[i]);
  return new VArray(out);
}
