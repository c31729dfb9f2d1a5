/**
 * Code-point aware string helpers (Jsonnet strings are sequences of Unicode code points) and
 * number formatting shared by manifestation and string conversion.
 *
 * @module
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** Number of code points in `s`. */
export function cpLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Splits a string into code points (fast path for BMP-only strings). */
export function codePoints(s: string): string[] {
  return SURROGATE.test(s) ? Array.from(s) : s.split("");
}

/** Compares two strings by Unicode code point (like the C++ implementation's UTF-32 strings). */
export function cmpCodepoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Formats a number for output: integral values exactly, digit for digit, as the reference
 * binary's `std::fixed` with precision 0 prints the double (`2^64` is `18446744073709551616`,
 * `1e22` is `10000000000000000000000`), other values in the shortest form that round-trips
 * (like go-jsonnet/jrsonnet), exponents C-style (`1e-07`).
 */
export function formatNumber(v: number): string {
  if (Number.isInteger(v)) {
    if (Object.is(v, -0)) return "-0";
    // Beyond 2^53 JS's shortest form pads with zeros ("18446744073709552000"); BigInt is exact.
    return Math.abs(v) <= Number.MAX_SAFE_INTEGER ? String(v) : BigInt(v).toString();
  }
  const s = String(v);
  const e = s.indexOf("e");
  if (e < 0) return s;
  const exp = s.slice(e + 1);
  const sign = exp[0] === "-" ? "-" : "+";
  const digits = exp.replace(/^[+-]/, "");
  return `${s.slice(0, e)}e${sign}${digits.length < 2 ? "0" + digits : digits}`;
}

/** Escapes a string as a JSON string literal exactly like the reference binary. */
export function escapeJson(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0x7f || c > 0x9f)) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
        break;
      case 0x08:
        out += "\\b";
        break;
      case 0x0c:
        out += "\\f";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      default:
        out += "\\u" + c.toString(16).padStart(4, "0");
    }
  }
  return out + s.slice(start) + '"';
}
