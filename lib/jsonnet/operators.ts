/**
 * Unary and binary operators, deep equality and ordering.
 *
 * @module
 */
import type { Loc, Node } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import { typeName } from "./evaluator.ts";
import { extendObject, fieldNames, getField, hasField } from "./objects.ts";
import { cmpCodepoint } from "./strings.ts";
import { type Env, Thunk, type Value, VArray, VFunc, VObject } from "./values.ts";
import { callStd } from "./std_bridge.ts";
import { JsonnetError } from "./errors.ts";

type BinNode = Extract<Node, { k: "bin" }>;

function num(ev: Evaluator, v: number, loc: Loc): number {
  if (!Number.isFinite(v)) ev.error(loc, Number.isNaN(v) ? "not a number" : "overflow");
  return v;
}

const BITWISE_RANGE = "numeric value outside safe integer range for bitwise operation.";

/**
 * A bitwise operand as an int64. Outside [-2^53, 2^53] the reference (0.21) raises a *static*
 * error (`STATIC ERROR: file:line:col: …`, no trace), even though it is found while evaluating.
 */
function toInt64(_ev: Evaluator, v: number, loc: Loc): bigint {
  if (!(v >= -9007199254740992 && v <= 9007199254740992)) {
    throw new JsonnetError("STATIC ERROR", BITWISE_RANGE, loc);
  }
  return BigInt.asIntN(64, BigInt(Math.trunc(v)));
}

/** `x << sh` (sh in 0..63); a result beyond int64 is a runtime error, as in the reference. */
function shiftLeft(ev: Evaluator, x: bigint, sh: bigint, loc: Loc): number {
  const r = x << sh;
  if (r !== BigInt.asIntN(64, r)) ev.error(loc, BITWISE_RANGE);
  return Number(r);
}

/** `a + b` for any operand types. */
export function plusValues(ev: Evaluator, a: Value, b: Value, loc: Loc): Value {
  if (typeof a === "number" && typeof b === "number") return num(ev, a + b, loc);
  if (typeof a === "string" || typeof b === "string") {
    const x = ev.toStr(a, loc);
    const y = ev.toStr(b, loc);
    // Concatenation is O(1) for JS strings: only the size is checked, no steps charged.
    if (x.length + y.length > ev.maxMemory) ev.alloc(x.length + y.length, loc);
    return x + y;
  }
  if (a instanceof VArray && b instanceof VArray) {
    ev.alloc(a.elems.length + b.elems.length, loc);
    return new VArray(a.elems.concat(b.elems));
  }
  if (a instanceof VObject && b instanceof VObject) return extendObject(a, b);
  if (a === null && b === null) ev.error(loc, "binary operator + does not operate on null.");
  ev.error(
    loc,
    `binary operator + requires matching types, got ${typeName(a)} and ${typeName(b)}.`,
  );
}

/** Deep equality (`==`, `std.equals`). */
export function equals(ev: Evaluator, a: Value, b: Value, loc: Loc): boolean {
  if (a === b) return true;
  const ta = typeName(a);
  if (ta !== typeName(b)) return false;
  if (a instanceof VArray && b instanceof VArray) {
    if (a.elems.length !== b.elems.length) return false;
    for (let i = 0; i < a.elems.length; i++) {
      if (!equals(ev, a.elems[i].force(), b.elems[i].force(), loc)) return false;
    }
    return true;
  }
  if (a instanceof VObject && b instanceof VObject) {
    const fa = fieldNames(a, false);
    const fb = fieldNames(b, false);
    if (fa.length !== fb.length) return false;
    for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i]) return false;
    for (const f of fa) {
      if (!equals(ev, getField(ev, a, f, loc), getField(ev, b, f, loc), loc)) return false;
    }
    return true;
  }
  if (a instanceof VFunc) ev.error(loc, "cannot test equality of functions");
  return false;
}

/** Three-way comparison for `<`, `<=`, `>`, `>=` (numbers, strings, arrays). */
export function compare(ev: Evaluator, a: Value, b: Value, loc: Loc): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return cmpCodepoint(a, b);
  if (a instanceof VArray && b instanceof VArray) {
    const n = Math.min(a.elems.length, b.elems.length);
    for (let i = 0; i < n; i++) {
      const c = compare(ev, a.elems[i].force(), b.elems[i].force(), loc);
      if (c !== 0) return c;
    }
    return a.elems.length - b.elems.length;
  }
  if (typeName(a) !== typeName(b)) {
    ev.error(
      loc,
      `binary operator < requires matching types, got ${typeName(a)} and ${typeName(b)}.`,
    );
  }
  ev.error(loc, `binary operator < does not operate on ${typeName(a)}s.`);
}

/**
 * Evaluates a binary operator node (short-circuiting `&&` and `||`). Left-nested chains such as
 * `a + b + c + ...` are evaluated iteratively so very long chains cannot exhaust the JS stack.
 */
export function binary(ev: Evaluator, n: BinNode, env: Env): Value {
  if (n.l.k !== "bin") return applyBinary(ev, n, ev.eval(n.l, env), env);
  const spine: BinNode[] = [];
  let cur: Node = n;
  while (cur.k === "bin") {
    spine.push(cur);
    cur = cur.l;
  }
  let acc = ev.eval(cur, env);
  for (let i = spine.length - 1; i >= 0; i--) acc = applyBinary(ev, spine[i], acc, env);
  return acc;
}

/** Applies binary node `n` to an already evaluated left operand. */
export function applyBinary(ev: Evaluator, n: BinNode, a: Value, env: Env): Value {
  const op = n.op;
  const loc = n.loc;
  if (op === "&&" || op === "||") {
    if (typeof a !== "boolean") {
      ev.error(
        loc,
        `binary operator ${op} requires matching types, got ${typeName(a)} and boolean.`,
      );
    }
    if (op === "&&" ? !a : a) return a;
    const b = ev.eval(n.r, env);
    if (typeof b !== "boolean") {
      ev.error(
        loc,
        `binary operator ${op} requires matching types, got boolean and ${typeName(b)}.`,
      );
    }
    return b;
  }
  const b = ev.eval(n.r, env);
  switch (op) {
    case "+":
      return plusValues(ev, a, b, loc);
    case "==":
      return equals(ev, a, b, loc);
    case "!=":
      return !equals(ev, a, b, loc);
    case "<":
      return compare(ev, a, b, loc) < 0;
    case "<=":
      return compare(ev, a, b, loc) <= 0;
    case ">":
      return compare(ev, a, b, loc) > 0;
    case ">=":
      return compare(ev, a, b, loc) >= 0;
    case "in":
      if (typeof a !== "string") {
        ev.error(
          loc,
          `the left hand side of the 'in' operator should be a string, got ${typeName(a)}`,
        );
      }
      if (!(b instanceof VObject)) {
        ev.error(
          loc,
          `the right hand side of the 'in' operator should be an object, got ${typeName(b)}`,
        );
      }
      return hasField(b, a, b.layers.length - 1, true);
    case "%":
      if (typeof a === "string") return callStd(ev, "format", [Thunk.of(a), Thunk.of(b)], loc);
      if (typeof a === "number" && typeof b === "number") {
        if (b === 0) ev.error(loc, "division by zero.");
        return num(ev, a % b, loc);
      }
      ev.error(loc, `Operator % cannot be used on types ${typeName(a)} and ${typeName(b)}.`);
  }
  if (typeof a !== "number" || typeof b !== "number") {
    if (typeName(a) === typeName(b)) {
      ev.error(loc, `binary operator ${op} does not operate on ${typeName(a)}s.`);
    }
    ev.error(
      loc,
      `binary operator ${op} requires matching types, got ${typeName(a)} and ${typeName(b)}.`,
    );
  }
  switch (op) {
    case "-":
      return num(ev, a - b, loc);
    case "*":
      return num(ev, a * b, loc);
    case "/":
      if (b === 0) ev.error(loc, "division by zero.");
      return num(ev, a / b, loc);
    case "<<":
    case ">>": {
      const x = toInt64(ev, a, loc);
      const s = toInt64(ev, b, loc);
      if (s < 0n) ev.error(loc, "shift by negative exponent.");
      const sh = s & 63n;
      return op === "<<" ? shiftLeft(ev, x, sh, loc) : Number(x >> sh);
    }
    case "&":
      return Number(toInt64(ev, a, loc) & toInt64(ev, b, loc));
    case "^":
      return Number(toInt64(ev, a, loc) ^ toInt64(ev, b, loc));
    case "|":
      return Number(toInt64(ev, a, loc) | toInt64(ev, b, loc));
  }
  ev.error(loc, `Unknown operator ${op}`);
}

/** Evaluates a unary operator. */
export function unary(ev: Evaluator, op: string, v: Value, loc: Loc): Value {
  if (op === "!") {
    if (typeof v !== "boolean") {
      ev.error(loc, `unary operator ! does not operate on ${typeName(v)}s.`);
    }
    return !v;
  }
  if (typeof v !== "number") {
    ev.error(loc, `unary operator ${op} does not operate on type ${typeName(v)}`);
  }
  if (op === "-") return -v;
  if (op === "+") return v;
  return Number(~toInt64(ev, v, loc));
}
