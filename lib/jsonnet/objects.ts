/**
 * Object semantics: construction from literals and comprehensions, field lookup through the
 * inheritance chain (`super`, `+:`), visibility, assertions and extension (`a + b`).
 *
 * @module
 */
import { Hide, type Loc, type Node } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { plusValues } from "./operators.ts";
import { cmpCodepoint } from "./strings.ts";
import { Env, type FieldDef, type Layer, type Thunk, type Value, VObject } from "./values.ts";

type ObjNode = Extract<Node, { k: "obj" }>;
type CompNode = Extract<Node, { k: "objcomp" }>;

function fieldName(ev: Evaluator, n: Node, env: Env, loc: Loc): string | null {
  if (n.k === "lit" && typeof n.v === "string") return n.v;
  const v = ev.eval(n, env);
  if (v === null) return null;
  if (typeof v !== "string") ev.error(loc, `field name must be string, got ${typeName(v)}`);
  return v;
}

/** Evaluates an object literal into a single-layer object. */
export function makeObject(ev: Evaluator, n: ObjNode, env: Env): VObject {
  const fields = new Map<string, FieldDef>();
  for (const f of n.fields) {
    const name = fieldName(ev, f.name, env, f.name.loc);
    if (name === null) continue;
    if (fields.has(name)) ev.error(n.loc, `duplicate field name: "${name}"`);
    fields.set(name, { hide: f.hide, plus: f.plus, expr: f.value, loc: f.loc });
  }
  return new VObject([{ fields, asserts: n.asserts, locals: n.locals, env, dollar: n.dollar }]);
}

/** Evaluates an object comprehension. */
export function makeObjectComprehension(ev: Evaluator, n: CompNode, env: Env): VObject {
  const fields = new Map<string, FieldDef>();
  const f = n.field;
  ev.comprehension(n.specs, 0, env, (e) => {
    const name = fieldName(ev, f.name, e, f.name.loc);
    if (name === null) return;
    if (fields.has(name)) ev.error(n.loc, `duplicate field name: "${name}"`);
    fields.set(name, { hide: f.hide, plus: f.plus, expr: f.value, env: e, loc: f.loc });
  });
  return new VObject([{ fields, asserts: [], locals: n.locals, env, dollar: n.dollar }]);
}

/** Builds an object from already-computed field values (used by std and JSON conversion). */
export function objectFromThunks(entries: Iterable<[string, Thunk]>, hide = Hide.Inherit): VObject {
  const fields = new Map<string, FieldDef>();
  for (const [k, t] of entries) fields.set(k, { hide, plus: false, thunk: t });
  return new VObject([{ fields, asserts: [], locals: [], env: null, dollar: false }]);
}

/** `a + b` for objects: the layers of `b` on top of those of `a`. */
export function extendObject(a: VObject, b: VObject): VObject {
  return new VObject([...a.layers, ...b.layers]);
}

function fieldEnv(ev: Evaluator, o: VObject, i: number, fd: FieldDef): Env {
  if (!fd.env) {
    const cached = o.envs[i];
    if (cached) return cached;
  }
  const layer: Layer = o.layers[i];
  const base = fd.env ?? layer.env!;
  const env = new Env(base);
  env.self = o;
  env.superIdx = i;
  if (layer.dollar) env.dollar = o;
  if (layer.locals.length) {
    for (const b of layer.locals) env.set(b.name, ev.thunk(b.body, env));
  }
  if (!fd.env) o.envs[i] = env;
  return env;
}

/** Evaluates field `name` as seen from layer `from` downwards; undefined when absent. */
export function lookupField(
  ev: Evaluator,
  o: VObject,
  name: string,
  from: number,
  loc: Loc,
): Value | undefined {
  const top = from === o.layers.length - 1;
  if (top) {
    const c = o.cache.get(name);
    if (c !== undefined) return c;
  }
  for (let i = from; i >= 0; i--) {
    const fd = o.layers[i].fields.get(name);
    if (!fd) continue;
    let v: Value;
    if (fd.thunk) v = fd.thunk.force();
    else {
      ev.enter(fd.loc ?? loc, `object <anonymous>`);
      v = ev.eval(fd.expr!, fieldEnv(ev, o, i, fd));
      ev.leave();
    }
    if (fd.plus && i > 0) {
      const prev = lookupField(ev, o, name, i - 1, loc);
      if (prev !== undefined) v = plusValues(ev, prev, v, fd.loc ?? loc);
    }
    if (top) o.cache.set(name, v);
    return v;
  }
  return undefined;
}

/** Whether the field exists (from layer `from` down), optionally including hidden fields. */
export function hasField(o: VObject, name: string, from: number, includeHidden: boolean): boolean {
  if (from === o.layers.length - 1) {
    const vis = visibility(o).get(name);
    return vis === undefined ? false : includeHidden || vis;
  }
  for (let i = from; i >= 0; i--) if (o.layers[i].fields.has(name)) return true;
  return false;
}

/** Field name -> visible?, computed over the whole chain. */
export function visibility(o: VObject): Map<string, boolean> {
  if (o.visible) return o.visible;
  const m = new Map<string, boolean>();
  for (const l of o.layers) {
    for (const [k, fd] of l.fields) {
      if (fd.hide === Hide.Hidden) m.set(k, false);
      else if (fd.hide === Hide.Visible) m.set(k, true);
      else if (!m.has(k)) m.set(k, true);
    }
  }
  o.visible = m;
  return m;
}

/** Sorted field names (code point order), visible only unless `includeHidden`. */
export function fieldNames(o: VObject, includeHidden: boolean): string[] {
  if (includeHidden) {
    return o.sortedAll ??= [...visibility(o).keys()].sort(cmpCodepoint);
  }
  if (o.sortedVisible) return o.sortedVisible;
  const out: string[] = [];
  for (const [k, v] of visibility(o)) if (v) out.push(k);
  return o.sortedVisible = out.sort(cmpCodepoint);
}

/** Runs every object assertion of every layer with `self` bound to `o`. */
export function checkAsserts(ev: Evaluator, o: VObject, loc: Loc): void {
  o.assertsChecked = true;
  for (let i = 0; i < o.layers.length; i++) {
    const l = o.layers[i];
    if (!l.asserts.length) continue;
    const env = fieldEnv(ev, o, i, { hide: Hide.Inherit, plus: false });
    for (const a of l.asserts) {
      ev.enter(a.loc ?? loc, "object <anonymous>");
      ev.assertion(a.cond, a.msg, env, a.loc, "Object assertion failed.");
      ev.leave();
    }
  }
}

/** Reads a field with assertion checks; errors when missing. */
export function getField(ev: Evaluator, o: VObject, name: string, loc: Loc): Value {
  ev.checkAsserts(o, loc);
  const v = lookupField(ev, o, name, o.layers.length - 1, loc);
  if (v === undefined) ev.error(loc, `field does not exist: ${name}`);
  return v;
}
