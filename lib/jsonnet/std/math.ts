/**
 * Numeric std functions. Builtins the reference implements natively (`pow`, `floor`, `log`...)
 * check their argument types with the `Builtin function f expected (number) but got (...)`
 * message and reject non-finite results ("not a number" / "overflow"), as the reference does.
 *
 * @module
 */
import type { JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { checkBuiltin, compareStrings, typeOf } from "./values.ts";

/** Rejects NaN and infinite results like the reference interpreter. */
export function checkFinite(x: number): number {
  if (Number.isNaN(x)) throw new StdError("not a number");
  if (!Number.isFinite(x)) throw new StdError("overflow");
  return x;
}

/** Natural logarithm with the reference's result checks (`log(0)` fails with "overflow"). */
export function checkedLog(x: number): number {
  return checkFinite(Math.log(x));
}

/** `x ** n` with the reference's result checks. */
export function checkedPow(x: number, n: number): number {
  return checkFinite(Math.pow(x, n));
}

/** `std.char(n)`: the one-code-point string for code point `n` (fraction truncated). */
export function charOf(n: number): string {
  if (n < 0) throw new StdError(`codepoints must be >= 0, got ${n}`);
  const cp = Math.trunc(n);
  if (cp > 0x10ffff) throw new StdError(`invalid unicode codepoint, got ${cp}`);
  return String.fromCodePoint(cp);
}

/** `std.codepoint(c)`: the code point of a one-character string. */
export function codepointOf(s: JsonValue): number {
  checkBuiltin("codepoint", [s], ["string"]);
  const cps = Array.from(s as string);
  if (cps.length !== 1) {
    throw new StdError(`codepoint takes a string of length 1, got length ${cps.length}`);
  }
  return cps[0].codePointAt(0)!;
}

/** C `frexp`: `x = m * 2^e` with `0.5 <= |m| < 1` (both 0 for 0). */
export function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  let hi = view.getUint32(0);
  let biased = (hi >>> 20) & 0x7ff;
  let shift = 0;
  if (biased === 0) {
    // subnormal: scale into the normal range first
    view.setFloat64(0, x * 2 ** 64);
    hi = view.getUint32(0);
    biased = (hi >>> 20) & 0x7ff;
    shift = 64;
  }
  const e = biased - 1022;
  view.setUint32(0, (hi & 0x800fffff) | (1022 << 20));
  return [view.getFloat64(0), e - shift];
}

/** Wraps a one-number native builtin. */
function unary(name: string, f: (x: number) => number): (x: JsonValue) => number {
  return (x) => {
    checkBuiltin(name, [x], ["number"]);
    return checkFinite(f(x as number));
  };
}

function stdNumber(name: string, what: string, v: JsonValue): number {
  if (typeof v !== "number") {
    throw new StdError(`std.${name} ${what}expected number, got ${typeOf(v)}`);
  }
  return v;
}

/** Jsonnet's `<` on two numbers or two strings (code-point order), as std.clamp uses it. */
function less(a: JsonValue, b: JsonValue): boolean {
  if (typeof a === "number" && typeof b === "number") return a < b;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b) < 0;
  throw new StdError(
    `Binary operator < requires matching types, got ${typeOf(a)} and ${typeOf(b)}.`,
  );
}

function round(x: number): number {
  return Math.floor(x + 0.5);
}

/** The numeric std functions keyed by std name. */
export const mathFunctions: Record<string, (...a: JsonValue[]) => JsonValue> = {
  pow: (x, n) => {
    checkBuiltin("pow", [x, n], ["number", "number"]);
    return checkedPow(x as number, n as number);
  },
  floor: unary("floor", Math.floor),
  ceil: unary("ceil", Math.ceil),
  sqrt: unary("sqrt", Math.sqrt),
  sin: unary("sin", Math.sin),
  cos: unary("cos", Math.cos),
  tan: unary("tan", Math.tan),
  asin: unary("asin", Math.asin),
  acos: unary("acos", Math.acos),
  atan: unary("atan", Math.atan),
  log: unary("log", Math.log),
  exp: unary("exp", Math.exp),
  log2: unary("log2", (x) => checkedLog(x) / Math.log(2)),
  log10: unary("log10", (x) => checkedLog(x) / Math.log(10)),
  deg2rad: unary("deg2rad", (x) => x * Math.PI / 180),
  rad2deg: unary("rad2deg", (x) => x * 180 / Math.PI),
  mantissa: unary("mantissa", (x) => frexp(x)[0]),
  exponent: unary("exponent", (x) => frexp(x)[1]),
  atan2: (y, x) => {
    checkBuiltin("atan2", [y, x], ["number", "number"]);
    return checkFinite(Math.atan2(y as number, x as number));
  },
  hypot: (a, b) => {
    checkBuiltin("hypot", [a, b], ["number", "number"]);
    const x = a as number, y = b as number;
    return checkFinite(Math.sqrt(x * x + y * y));
  },
  modulo: (a, b) => {
    checkBuiltin("modulo", [a, b], ["number", "number"]);
    if (b === 0) throw new StdError("division by zero.");
    return checkFinite((a as number) % (b as number));
  },
  abs: (n) => {
    const x = stdNumber("abs", "", n);
    return x > 0 ? x : -x;
  },
  sign: (n) => {
    const x = stdNumber("sign", "", n);
    return x > 0 ? 1 : x < 0 ? -1 : 0;
  },
  max: (a, b) => {
    const x = stdNumber("max", "first param ", a), y = stdNumber("max", "second param ", b);
    return x > y ? x : y;
  },
  min: (a, b) => {
    const x = stdNumber("min", "first param ", a), y = stdNumber("min", "second param ", b);
    return x < y ? x : y;
  },
  clamp: (x, lo, hi) => less(x, lo) ? lo : less(hi, x) ? hi : x,
  round: (x) => round(stdNumber("round", "", x)),
  isEven: (x) => round(stdNumber("isEven", "", x)) % 2 === 0,
  isOdd: (x) => round(stdNumber("isOdd", "", x)) % 2 !== 0,
  isInteger: (x) => {
    const n = stdNumber("isInteger", "", x);
    return round(n) === n;
  },
  isDecimal: (x) => {
    const n = stdNumber("isDecimal", "", x);
    return round(n) !== n;
  },
  char: (n) => {
    checkBuiltin("char", [n], ["number"]);
    return charOf(n as number);
  },
  codepoint: (s) => codepointOf(s),
};
