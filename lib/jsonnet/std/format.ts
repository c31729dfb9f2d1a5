/**
 * `std.format` (the `%` operator on strings): Python-style %-formatting exactly as the
 * reference std.jsonnet implements it, quirks included (`%.3g` of 0.0001234 is `0`, `%d`
 * digits are produced by repeated floating-point division, `%g` of 0 fails with "overflow").
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { chargeAlloc } from "./limits.ts";
import { charOf, checkedLog, checkedPow } from "./math.ts";
import { toStringValue } from "./to_string.ts";
import { cpLength, isObject, typeOf } from "./values.ts";

interface Flags {
  alt: boolean;
  zero: boolean;
  left: boolean;
  blank: boolean;
  plus: boolean;
}

type Ctype = "d" | "o" | "x" | "e" | "f" | "g" | "c" | "s" | "%";

interface Code {
  mkey: string | null;
  flags: Flags;
  fw: number | "*";
  prec: number | "*" | null;
  ctype: Ctype;
  caps: boolean;
}

const TRUNCATED = "Truncated format code.";

const CONV: Record<string, [Ctype, boolean]> = {
  d: ["d", false],
  i: ["d", false],
  u: ["d", false],
  o: ["o", false],
  x: ["x", false],
  X: ["x", true],
  e: ["e", false],
  E: ["e", true],
  f: ["f", false],
  F: ["f", true],
  g: ["g", false],
  G: ["g", true],
  c: ["c", false],
  s: ["s", false],
  "%": ["%", false],
};

/** Parses a format string (as code points) into literal strings and conversion codes. */
function parseCodes(str: string[]): (string | Code)[] {
  const out: (string | Code)[] = [];
  let cur = "";
  let i = 0;
  const at = (j: number): string => {
    if (j >= str.length) throw new StdError(TRUNCATED);
    return str[j];
  };
  const width = (): number | "*" => {
    if (i < str.length && str[i] === "*") {
      i++;
      return "*";
    }
    let v = 0;
    for (;;) {
      const c = at(i);
      if (c < "0" || c > "9") return v;
      v = v * 10 + (c.charCodeAt(0) - 48);
      i++;
    }
  };
  while (i < str.length) {
    const c = str[i++];
    if (c !== "%") {
      cur += c;
      continue;
    }
    let mkey: string | null = null;
    if (at(i) === "(") {
      i++;
      let v = "";
      while (at(i) !== ")") v += str[i++];
      i++;
      mkey = v;
    }
    const flags: Flags = { alt: false, zero: false, left: false, blank: false, plus: false };
    for (;;) {
      const f = at(i);
      if (f === "#") flags.alt = true;
      else if (f === "0") flags.zero = true;
      else if (f === "-") flags.left = true;
      else if (f === " ") flags.blank = true;
      else if (f === "+") flags.plus = true;
      else break;
      i++;
    }
    const fw = width();
    let prec: number | "*" | null = null;
    if (at(i) === ".") {
      i++;
      prec = width();
    }
    const lm = at(i);
    if (lm === "h" || lm === "l" || lm === "L") i++;
    const t = at(i);
    const conv = Object.hasOwn(CONV, t) ? CONV[t] : undefined;
    if (!conv) throw new StdError("Unrecognised conversion type: " + t);
    i++;
    out.push(cur, { mkey, flags, fw, prec, ctype: conv[0], caps: conv[1] });
    cur = "";
  }
  out.push(cur);
  return out;
}

function padLeft(s: string, w: number, p: string): string {
  const n = w - cpLength(s);
  if (n > 0) chargeAlloc(s.length + n * p.length);
  return n > 0 ? p.repeat(n) + s : s;
}

function padRight(s: string, w: number, p: string): string {
  const n = w - cpLength(s);
  if (n > 0) chargeAlloc(s.length + n * p.length);
  return n > 0 ? s + p.repeat(n) : s;
}

/** Jsonnet's `'' + n` for the small non-negative integers produced while rendering digits. */
function digit(n: number): string {
  return String(n);
}

function renderInt(
  neg: boolean,
  mag: number,
  minChars: number,
  minDigits: number,
  blank: boolean,
  plus: boolean,
  radix: number,
  zeroPrefix: string,
): string {
  let dec: string;
  if (mag === 0) {
    dec = "0";
  } else {
    const parts: string[] = [];
    let n = mag;
    while (n !== 0) {
      parts.push(digit(n % radix));
      n = Math.floor(n / radix);
    }
    dec = zeroPrefix + parts.reverse().join("");
  }
  const zp = minChars - (neg || blank || plus ? 1 : 0);
  const zp2 = Math.max(zp, minDigits);
  return (neg ? "-" : plus ? "+" : blank ? " " : "") + padLeft(dec, zp2, "0");
}

function renderHex(
  n: number,
  minChars: number,
  minDigits: number,
  blank: boolean,
  plus: boolean,
  addZerox: boolean,
  caps: boolean,
): string {
  const numerals = caps ? "0123456789ABCDEF" : "0123456789abcdef";
  const abs = Math.abs(n);
  let hex: string;
  if (Math.floor(abs) === 0) {
    hex = "0";
  } else {
    const parts: string[] = [];
    let m = Math.floor(abs);
    while (m !== 0) {
      parts.push(numerals[m % 16]);
      m = Math.floor(m / 16);
    }
    hex = parts.reverse().join("");
  }
  const neg = n < 0;
  const zp = minChars - (neg || blank || plus ? 1 : 0) - (addZerox ? 2 : 0);
  const zp2 = Math.max(zp, minDigits);
  const hex2 = (addZerox ? (caps ? "0X" : "0x") : "") + padLeft(hex, zp2, "0");
  return (neg ? "-" : plus ? "+" : blank ? " " : "") + hex2;
}

function stripTrailingZero(s: string): string {
  let i = s.length - 1;
  while (i >= 0 && s[i] === "0") i--;
  return s.slice(0, i + 1);
}

function renderFloatDec(
  n: number,
  zeroPad: number,
  blank: boolean,
  plus: boolean,
  ensurePt: boolean,
  trailing: boolean,
  prec: number,
): string {
  const abs = Math.abs(n);
  const denominator = checkedPow(10, prec);
  const numerator = abs * denominator + 0.5;
  const whole = Math.sign(abs) * Math.floor(numerator / denominator);
  const frac = Math.floor(numerator) % denominator;
  const dotSize = prec === 0 && !ensurePt ? 0 : 1;
  const zp = zeroPad - prec - dotSize;
  const str = renderInt(n < 0, whole, zp, 0, blank, plus, 10, "");
  if (prec === 0) return str + (ensurePt ? "." : "");
  if (trailing || frac > 0) {
    const fracStr = renderInt(false, frac, prec, 0, false, false, 10, "");
    return str + "." + (trailing ? fracStr : stripTrailingZero(fracStr));
  }
  return str;
}

function log10Floor(n: number): number {
  return Math.floor(checkedLog(Math.abs(n)) / checkedLog(10));
}

function renderFloatSci(
  n: number,
  zeroPad: number,
  blank: boolean,
  plus: boolean,
  ensurePt: boolean,
  trailing: boolean,
  caps: boolean,
  prec: number,
): string {
  const exponent = n === 0 ? 0 : log10Floor(n);
  const suff = (caps ? "E" : "e") +
    renderInt(exponent < 0, Math.abs(exponent), 3, 0, false, true, 10, "");
  const mantissa = exponent === -324
    ? n * 10 / checkedPow(10, exponent + 1)
    : n / checkedPow(10, exponent);
  return renderFloatDec(mantissa, zeroPad - cpLength(suff), blank, plus, ensurePt, trailing, prec) +
    suff;
}

function needNum(val: JsonValue, i: number | string): number {
  if (typeof val !== "number") {
    throw new StdError(`Format required number at ${i}, got ${typeOf(val)}`);
  }
  return val;
}

function formatCode(
  val: JsonValue,
  code: Code,
  fw: number,
  precOf: () => number | null,
  i: number | string,
): string {
  const f = code.flags;
  const zp = f.zero && !f.left ? fw : 0;
  const fpprec = () => precOf() ?? 6;
  const iprec = () => precOf() ?? 0;
  switch (code.ctype) {
    case "s":
      return toStringValue(val);
    case "d": {
      const v = needNum(val, i);
      return renderInt(v <= -1, Math.floor(Math.abs(v)), zp, iprec(), f.blank, f.plus, 10, "");
    }
    case "o": {
      const v = needNum(val, i);
      const zeroPrefix = f.alt ? "0" : "";
      return renderInt(
        v <= -1,
        Math.floor(Math.abs(v)),
        zp,
        iprec(),
        f.blank,
        f.plus,
        8,
        zeroPrefix,
      );
    }
    case "x": {
      const v = Math.floor(needNum(val, i));
      return renderHex(v, zp, iprec(), f.blank, f.plus, f.alt, code.caps);
    }
    case "f": {
      const v = needNum(val, i);
      return renderFloatDec(v, zp, f.blank, f.plus, f.alt, true, fpprec());
    }
    case "e": {
      const v = needNum(val, i);
      return renderFloatSci(v, zp, f.blank, f.plus, f.alt, true, code.caps, fpprec());
    }
    case "g": {
      const v = needNum(val, i);
      const p = fpprec();
      // log(0) is -Infinity: 0 has exponent 0 (0.18's std.jsonnet overflowed here; 0.21 fixed it).
      const exponent = v === 0 ? 0 : log10Floor(v);
      if (exponent < -4 || exponent >= p) {
        return renderFloatSci(v, zp, f.blank, f.plus, f.alt, f.alt, code.caps, p - 1);
      }
      const digitsBeforePt = Math.max(1, exponent + 1);
      return renderFloatDec(v, zp, f.blank, f.plus, f.alt, f.alt, p - digitsBeforePt);
    }
    case "c":
      if (typeof val === "number") return charOf(val);
      if (typeof val === "string") {
        const n = cpLength(val);
        if (n === 1) return val;
        throw new StdError("%c expected 1-sized string got: " + n);
      }
      throw new StdError("%c expected number / string, got: " + typeOf(val));
    default:
      throw new StdError("Unknown code: " + code.ctype);
  }
}

function widthValue(v: JsonValue): number {
  if (typeof v !== "number") {
    throw new StdError(`Binary operator - requires matching types, got number and ${typeOf(v)}.`);
  }
  return v;
}

function pad(s: string, code: Code, fw: number): string {
  return code.flags.left ? padRight(s, fw, " ") : padLeft(s, fw, " ");
}

function formatArray(codes: (string | Code)[], arr: JsonValue[]): string {
  let out = "";
  let j = 0;
  for (const code of codes) {
    if (typeof code === "string") {
      out += code;
      continue;
    }
    const notEnough = (k: number) =>
      new StdError(`Not enough values to format: ${arr.length}, expected at least ${k}`);
    let fw: number;
    if (code.fw === "*") {
      if (j >= arr.length) throw notEnough(j);
      fw = widthValue(arr[j++]);
    } else fw = code.fw;
    let precOf: () => number | null;
    if (code.prec === "*") {
      const k = j++;
      precOf = () => {
        if (k >= arr.length) throw notEnough(k);
        return widthValue(arr[k]);
      };
    } else {
      const prec = code.prec;
      precOf = () => prec;
    }
    if (code.ctype === "%") {
      out += pad("%", code, fw);
      continue;
    }
    if (j >= arr.length) {
      throw new StdError(`Not enough values to format: ${arr.length}, expected more than ${j}`);
    }
    out += pad(formatCode(arr[j], code, fw, precOf, j), code, fw);
    j++;
  }
  if (j < arr.length) {
    throw new StdError(`Too many values to format: ${arr.length}, expected ${j}`);
  }
  return out;
}

function formatObject(codes: (string | Code)[], obj: JsonObject): string {
  let out = "";
  for (const code of codes) {
    if (typeof code === "string") {
      out += code;
      continue;
    }
    if (code.fw === "*") throw new StdError("Cannot use * field width with object.");
    const fw = code.fw;
    if (code.ctype === "%") {
      out += pad("%", code, fw);
      continue;
    }
    if (code.mkey === null) throw new StdError("Mapping keys required.");
    const key = code.mkey;
    if (!Object.hasOwn(obj, key)) throw new StdError("No such field: " + key);
    const prec = code.prec;
    const precOf = () => {
      if (prec === "*") throw new StdError("Cannot use * precision with object.");
      return prec;
    };
    out += pad(formatCode(obj[key], code, fw, precOf, key), code, fw);
  }
  return out;
}

/**
 * `std.format(str, vals)`: `vals` is an array (positional), an object (`%(key)s` codes) or a
 * single value (treated as a one-element array).
 */
export function format(str: string, vals: JsonValue): string {
  const codes = parseCodes(Array.from(str));
  if (Array.isArray(vals)) return formatArray(codes, vals);
  if (isObject(vals)) return formatObject(codes, vals);
  return formatArray(codes, [vals]);
}
