/**
 * Compiles expressions into closures. The three evaluation modes mirror Tera's renderer:
 * value (`eval_expression`), truth (`eval_as_bool`) and number (`eval_as_number`), each with
 * Tera's rules for undefined values, filters and negation.
 * @module
 */

import type { Expr, ExprVal, FnCall } from "./ast.ts";
import { RenderFailure } from "./errors.ts";
import type { FilterFn, Registry, State } from "./runtime.ts";
import {
  describe,
  displayF64,
  isFloat,
  isInt,
  isNumber,
  isObject,
  isTruthy,
  mkFloat,
  num,
  numberToString,
  strictEquals,
  type TeraFloat,
} from "./value.ts";

/** A compiled expression producing a value. */
export type Ev = (st: State) => unknown;
/** A compiled expression producing a truth value. */
export type BoolEv = (st: State) => boolean;
/** A compiled numeric expression; `null` stands for Tera's "not a number" result. */
export type NumEv = (st: State) => number | TeraFloat | null;

/** Hook for macro calls (provided by the node compiler). */
export interface MacroCaller {
  call(ns: string, name: string, args: Map<string, Ev>, pos: number): (st: State) => string;
}

function fail(msg: string, pos: number, cause?: unknown): never {
  throw new RenderFailure(msg, pos, cause === undefined ? undefined : { cause });
}

/** Re-throws an error from a filter/test/function with a location and the callee's name. */
function wrapCall(kind: string, name: string, pos: number, e: unknown): never {
  if (e instanceof RenderFailure) {
    if (e.pos < 0) e.pos = pos;
    throw e;
  }
  const msg = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError && /call stack/i.test(msg)) {
    fail(`${kind} \`${name}\` failed: value nested too deeply (cyclic?)`, pos, e);
  }
  fail(`${kind} \`${name}\` failed: ${msg}`, pos, e);
}

/** A literal without filters: its value does not depend on the render. */
function isLiteral(e: Expr): boolean {
  const k = e.val.k;
  return e.filters.length === 0 && !e.negated &&
    (k === "str" || k === "int" || k === "float" || k === "bool");
}

/** Compiles expressions of one template. */
export class ExprCompiler {
  constructor(readonly macros: MacroCaller) {}

  /** `eval_expression`: the value of an expression, filters applied. */
  value(e: Expr): Ev {
    const base = this.baseValue(e);
    const filters = e.filters.filter((f) => f.name !== "safe" && f.name !== "default").map((f) =>
      this.filter(f)
    );
    const negated = e.negated;
    if (filters.length === 0 && !negated) return base;
    if (e.val.k === "ident" && negated) {
      // an undefined (or failed) lookup short-circuits to `true` before the filters run
      return (st) => {
        let v = base(st);
        if (v === NOT_FOUND) return true;
        for (let i = 0; i < filters.length; i++) v = filters[i](st, v);
        return !isTruthy(v);
      };
    }
    return (st) => {
      let v = base(st);
      for (let i = 0; i < filters.length; i++) v = filters[i](st, v);
      return negated ? !isTruthy(v) : v;
    };
  }

  private baseValue(e: Expr): Ev {
    const val = e.val;
    const pos = e.pos;
    switch (val.k) {
      case "str": {
        const v = val.v;
        return () => v;
      }
      case "int": {
        const v = val.v;
        return () => v;
      }
      case "float": {
        const v = mkFloat(val.v);
        return () => v;
      }
      case "bool": {
        const v = val.v;
        return () => v;
      }
      case "array": {
        const items = val.items.map((i) => this.value(i));
        return (st) => items.map((f) => f(st));
      }
      case "in":
        return this.inCond(val.lhs, val.rhs, val.negated, pos);
      case "concat":
        return this.concat(val.parts, pos);
      case "ident":
        return this.ident(e);
      case "fn":
        return this.fnCall(val.call);
      case "macro": {
        const args = new Map([...val.args].map(([k, v]) => [k, this.value(v)]));
        return this.macros.call(val.ns, val.name, args, pos);
      }
      case "test":
        return this.test(val);
      case "logic":
        // Tera negates a logic expression here and again after the filters
        return this.bool(e);
      case "group":
        return this.bool(val.inner);
      case "math": {
        const n = this.numberOf(val, pos);
        return (st) => {
          const r = n(st);
          return r === null ? "NaN" : r;
        };
      }
    }
  }

  private ident(e: Expr): Ev {
    const val = e.val as Extract<ExprVal, { k: "ident" }>;
    const path = val.path;
    const pos = e.pos;
    const hasDefault = e.filters.length > 0 && e.filters[0].name === "default";
    const negated = e.negated;
    let def: Ev | null = null;
    if (hasDefault) {
      const d = e.filters[0].args.get("value");
      def = d
        ? this.value(d)
        : () => fail("The `default` filter requires a `value` argument.", e.filters[0].pos);
    }
    return (st) => {
      let v: unknown;
      try {
        v = st.lookup(path);
      } catch (err) {
        if (def) return def(st);
        if (negated) return NOT_FOUND;
        throw relocate(err, pos);
      }
      if (v === undefined) {
        if (def) return def(st);
        if (negated) return NOT_FOUND;
        fail(`Variable \`${path.raw}\` not found in context`, pos);
      }
      if (v === null && def) return def(st);
      return v;
    };
  }

  private concat(parts: ExprVal[], pos: number): Ev {
    const fs = parts.map((p): Ev => {
      switch (p.k) {
        case "str": {
          const s = p.v;
          return () => s;
        }
        case "int": {
          const s = String(p.v);
          return () => s;
        }
        case "float": {
          const s = displayF64(p.v);
          return () => s;
        }
        case "ident": {
          const path = p.path;
          return (st) => {
            const v = st.lookup(path);
            if (v === undefined) fail(`Variable \`${path.raw}\` not found in context`, pos);
            if (typeof v === "string") return v;
            if (isNumber(v)) return numberToString(v);
            return fail(
              `Tried to concat a value that is not a string or a number from ident ${path.raw}`,
              pos,
            );
          };
        }
        case "fn": {
          const f = this.fnCall(p.call);
          const name = p.call.name;
          return (st) => {
            const v = f(st);
            if (typeof v === "string") return v;
            if (isNumber(v)) return numberToString(v);
            return fail(
              `Tried to concat a value that is not a string or a number from function call ${name}`,
              pos,
            );
          };
        }
        default:
          return () => fail("invalid concatenation", pos);
      }
    });
    return (st) => {
      let s = "";
      for (let i = 0; i < fs.length; i++) s += fs[i](st) as string;
      return s;
    };
  }

  private args(call: FnCall): (st: State) => Record<string, unknown> {
    const entries = [...call.args].map(([k, v]) => [k, this.value(v)] as const);
    if ([...call.args.values()].every(isLiteral)) {
      // literal arguments (`truncate(length=40)`): one object for every call; built-ins only
      // read their arguments and user callbacks get a copy (environment.ts)
      const o: Record<string, unknown> = {};
      for (const [k, f] of entries) o[k] = f(null as unknown as State);
      return () => o;
    }
    return (st) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < entries.length; i++) o[entries[i][0]] = entries[i][1](st);
      return o;
    };
  }

  /** A function call. */
  fnCall(call: FnCall): Ev {
    const args = this.args(call);
    const name = call.name;
    const pos = call.pos;
    return (st) => {
      const fn = st.registry.functions.get(name);
      if (!fn) fail(`Function '${name}' not found`, pos);
      const a = args(st);
      try {
        return fn(a);
      } catch (e) {
        wrapCall("Function", name, pos, e);
      }
    };
  }

  /** A filter application: `(state, input) => output`. */
  filter(call: FnCall): (st: State, v: unknown) => unknown {
    const args = this.args(call);
    const name = call.name;
    const pos = call.pos;
    // the filter looked up once per registry (a compiled template renders with one registry)
    let registry: Registry | null = null;
    let f: FilterFn | undefined;
    return (st, v) => {
      if (st.registry !== registry) {
        f = st.registry.filters.get(name);
        if (!f) fail(`Filter '${name}' not found`, pos);
        registry = st.registry;
      }
      const a = args(st);
      try {
        return f!(v, a);
      } catch (e) {
        wrapCall("Filter", name, pos, e);
      }
    };
  }

  private test(t: Extract<ExprVal, { k: "test" }>): BoolEv {
    const args = t.args.map((a) => this.value(a));
    const { name, path, negated } = t;
    return (st) => {
      const tester = st.registry.tests.get(name);
      if (!tester) fail(`Test '${name}' not found`, -1);
      const a = args.map((f) => f(st));
      let v: unknown;
      try {
        v = st.lookup(path);
      } catch {
        v = undefined;
      }
      let r: boolean;
      try {
        r = tester(v, a);
      } catch (e) {
        wrapCall("Test", name, -1, e);
      }
      return negated ? !r : r;
    };
  }

  private inCond(lhsE: Expr, rhsE: Expr, negated: boolean, pos: number): BoolEv {
    const lhs = this.value(lhsE);
    const rhs = this.value(rhsE);
    return (st) => {
      const l = lhs(st);
      const r = rhs(st);
      let present: boolean;
      if (Array.isArray(r)) present = r.some((x) => strictEquals(x, l));
      else if (typeof r === "string") {
        if (typeof l !== "string") {
          fail(`Tried to check if ${describe(l)} is in a string, but it isn't a string`, pos);
        }
        present = r.includes(l);
      } else if (isObject(r)) {
        if (typeof l !== "string") {
          fail(`Tried to check if ${describe(l)} is in a object, but it isn't a string`, pos);
        }
        present = Object.prototype.hasOwnProperty.call(r, l) && r[l] !== undefined;
      } else fail("The `in` operator only supports strings, arrays and objects.", pos);
      return negated ? !present : present;
    };
  }

  /** `eval_as_bool`. */
  bool(e: Expr): BoolEv {
    const r = this.boolBase(e);
    if (!e.negated || e.val.k === "ident") return r;
    return (st) => !r(st);
  }

  private boolBase(e: Expr): BoolEv {
    const val = e.val;
    const pos = e.pos;
    switch (val.k) {
      case "logic": {
        const op = val.op;
        if (op === "or" || op === "and") {
          const l = this.bool(val.lhs);
          const r = this.bool(val.rhs);
          return op === "or" ? (st) => l(st) || r(st) : (st) => l(st) && r(st);
        }
        if (op === "==" || op === "!=") {
          const l = this.value(val.lhs);
          const r = this.value(val.rhs);
          const eq = op === "==";
          return (st) => {
            const a = l(st);
            const b = r(st);
            if (isNumber(a) || isNumber(b)) {
              if (!isNumber(a) || !isNumber(b)) return false;
              return (num(a) === num(b)) === eq;
            }
            return strictEquals(a, b) === eq;
          };
        }
        const l = this.exprNumber(val.lhs);
        const r = this.exprNumber(val.rhs);
        return (st) => {
          const a = l(st);
          const b = r(st);
          if (a === null || b === null) fail("Comparison to NaN", pos);
          const x = num(a);
          const y = num(b);
          switch (op) {
            case ">=":
              return x >= y;
            case ">":
              return x > y;
            case "<=":
              return x <= y;
            default:
              return x < y;
          }
        };
      }
      case "group":
        return this.bool(val.inner);
      case "ident": {
        const v = this.value(e);
        return (st) => {
          let x: unknown;
          try {
            x = v(st);
          } catch {
            return false;
          }
          return x === NOT_FOUND ? true : isTruthy(x);
        };
      }
      case "math":
      case "int":
      case "float": {
        const n = this.numberOf(val, pos);
        return (st) => {
          const r = n(st);
          return r !== null && num(r) !== 0;
        };
      }
      case "in":
        return this.inCond(val.lhs, val.rhs, val.negated, pos);
      case "test":
        return this.test(val);
      case "bool": {
        const v = val.v;
        return () => v;
      }
      case "str": {
        const v = val.v !== "";
        return () => v;
      }
      case "fn": {
        const f = this.fnCall(val.call);
        const name = val.call.name;
        return (st) => {
          const v = f(st);
          if (typeof v !== "boolean") {
            fail(
              `Function \`${name}\` was used in a logic operation but is not returning a bool`,
              pos,
            );
          }
          return v;
        };
      }
      case "concat": {
        const v = this.value(e);
        return (st) => {
          const x = v(st);
          return typeof x === "string" ? x !== "" : isTruthy(x);
        };
      }
      case "macro": {
        const v = this.baseValue(e);
        return (st) => (v(st) as string) !== "";
      }
      case "array":
        return () => fail("an array literal can not be used as a condition", pos);
    }
  }

  /** `eval_expr_as_number`: filters (if any) then a number. */
  exprNumber(e: Expr): NumEv {
    if (e.filters.length === 0) return this.numberOf(e.val, e.pos);
    const v = this.value(e);
    const pos = e.pos;
    return (st) => {
      const x = v(st);
      if (!isNumber(x)) fail("Tried to do math with an expression not resulting in a number", pos);
      return x;
    };
  }

  /** `eval_as_number`. */
  numberOf(val: ExprVal, pos: number): NumEv {
    switch (val.k) {
      case "ident": {
        const path = val.path;
        return (st) => {
          let v: unknown;
          try {
            v = st.lookup(path);
          } catch (err) {
            throw relocate(err, pos);
          }
          if (v === undefined) fail(`Variable \`${path.raw}\` not found in context`, pos);
          if (!isNumber(v)) {
            fail(`Variable \`${path.raw}\` was used in a math operation but is not a number`, pos);
          }
          return v;
        };
      }
      case "int": {
        const v = val.v;
        return () => v;
      }
      case "float": {
        const v = mkFloat(val.v);
        return () => v;
      }
      case "math":
        return this.math(val.op, this.exprNumber(val.lhs), this.exprNumber(val.rhs), pos);
      case "fn": {
        const f = this.fnCall(val.call);
        const name = val.call.name;
        return (st) => {
          const v = f(st);
          if (!isNumber(v)) {
            fail(
              `Function \`${name}\` was used in a math operation but is not returning a number`,
              pos,
            );
          }
          return v;
        };
      }
      case "str":
        return () => fail(`Tried to do math with a string: \`${val.v}\``, pos);
      case "bool":
        return () => fail(`Tried to do math with a boolean: \`${val.v}\``, pos);
      case "concat":
        return () => fail("Tried to do math with a string concatenation", pos);
      case "test":
        return () => fail(`Tried to do math with a test: ${val.name}`, pos);
      default:
        return () => fail(`Tried to do math with an unsupported expression (${val.k})`, pos);
    }
  }

  private math(op: string, l: NumEv, r: NumEv, pos: number): NumEv {
    return (st) => {
      const a = l(st);
      const b = r(st);
      if (a === null || b === null) return null;
      const bothInt = isInt(a) && isInt(b);
      const x = num(a);
      const y = num(b);
      switch (op) {
        case "*":
          if (bothInt) return checkedInt(x * y, `${x} x ${y} results in an out of bounds i64`, pos);
          return finiteFloat(x * y);
        case "/": {
          const q = x / y;
          if (Number.isNaN(q)) return null;
          // Rust `res as i64` saturates at the i64 bounds (i64::MAX prints exactly).
          if (Number.isFinite(q) && Math.round(q) === q) return saturateI64(q);
          return finiteFloat(q);
        }
        case "+":
          if (bothInt) return checkedInt(x + y, `${x} + ${y} results in an out of bounds i64`, pos);
          return overflowingFloat(x + y, pos);
        case "-":
          if (bothInt) return checkedInt(x - y, `${x} - ${y} results in an out of bounds i64`, pos);
          return overflowingFloat(x - y, pos);
        default:
          if (bothInt) {
            if (y === 0) fail(`Tried to do a modulo by zero: ${x}/${y}`, pos);
            return x % y + 0;
          }
          return finiteFloat(x % y);
      }
    };
  }
}

/** Internal marker: a negated lookup of an undefined variable (Tera yields `true`). */
const NOT_FOUND: unique symbol = Symbol("not-found");

const I64_LIMIT = 9223372036854775807;

function checkedInt(v: number, msg: string, pos: number): number {
  if (v > I64_LIMIT || v < -I64_LIMIT - 1) fail(msg, pos);
  return v;
}

function saturateI64(v: number): number {
  return v > I64_LIMIT ? I64_LIMIT : v < -I64_LIMIT - 1 ? -I64_LIMIT - 1 : v + 0;
}

function finiteFloat(v: number): number | TeraFloat | null {
  return Number.isFinite(v) ? mkFloat(v) : null;
}

function overflowingFloat(v: number, pos: number): number | TeraFloat {
  if (!Number.isFinite(v)) fail("the result of a float operation is not finite", pos);
  return mkFloat(v);
}

function relocate(err: unknown, pos: number): unknown {
  if (err instanceof RenderFailure && err.pos < 0) err.pos = pos;
  return err;
}

/** True when a value is a float (re-exported for node compilation). */
export { isFloat };
