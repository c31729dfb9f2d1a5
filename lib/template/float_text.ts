/**
 * Fast paths between floats and short decimal text (issue 15 item 4): printing a float with few
 * fractional digits and parsing a short plain decimal, both exact, without the general
 * (slower) native conversions. Either returns `null`/`undefined` when its fast path does not
 * apply; callers then use `String(x)` / `Number(s)`.
 * @module
 */

const POW10 = Array.from({ length: 23 }, (_, i) => Number("1e" + i));
const ZEROS = Array.from({ length: 16 }, (_, i) => "0".repeat(i));
/** Below this, decimal grid points 10^-p apart are more than 4 ulps apart (see below). */
const GRID_LIMIT = 2 ** 50;

/**
 * The shortest round-trip decimal text of a non-integral `x` with 1e-6 <= |x| and at most 15
 * fractional digits, exactly as `String(x)` prints it; `undefined` when that does not apply.
 *
 * For the smallest `p` with `round(|x|·10^p) / 10^p === |x|`, the decimal `M/10^p` reads back as
 * `x` (the division is correctly rounded, like parsing). While `|x|·10^p < 2^50`, grid points
 * `10^-p` apart lie more than 4 ulps apart, so at most one of them reads back as `x` and no
 * shorter decimal (a coarser grid, tried first) does: it is the shortest text, the one
 * ECMAScript's Number::toString chooses.
 *
 * @example
 * ```ts
 * shortDecimal(1.25); // "1.25"
 * ```
 */
export function shortDecimal(x: number): string | undefined {
  const a = x < 0 ? -x : x;
  if (!(a >= 1e-6) || Number.isInteger(a)) return undefined;
  for (let p = 1; p <= 15; p++) {
    const scaled = a * POW10[p];
    if (scaled >= GRID_LIMIT) return undefined;
    const m = Math.round(scaled);
    if (m / POW10[p] === a) {
      const int = Math.floor(a);
      const frac = String(m - int * POW10[p]);
      const body = int + "." + (frac.length < p ? ZEROS[p - frac.length] + frac : frac);
      return x < 0 ? "-" + body : body;
    }
  }
  return undefined;
}

/**
 * Parses `[+-]digits[.digits]` / `[+-].digits` with at most 15 digits and no exponent, exactly
 * (`N / 10^f` with both exact is correctly rounded, like `Number(s)`); `null` when `s` has any
 * other form.
 *
 * @example
 * ```ts
 * parseShortDecimal("-1.250"); // -1.25
 * ```
 */
export function parseShortDecimal(s: string): number | null {
  const n = s.length;
  let i = 0;
  let neg = false;
  if (n > 0) {
    const c = s.charCodeAt(0);
    if (c === 45 || c === 43) {
      neg = c === 45;
      i = 1;
    }
  }
  let mant = 0;
  let digits = 0;
  let intDigits = 0;
  let frac = 0;
  let dot = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mant = mant * 10 + (c - 48);
      digits++;
      if (dot) frac++;
      else intDigits++;
    } else if (c === 46 && !dot) dot = true;
    else return null;
  }
  // Rust accepts "1." and ".5" but not "." or "": at least one digit, an integer digit or a
  // fraction digit
  if (digits === 0 || digits > 15 || (intDigits === 0 && frac === 0)) return null;
  const v = frac === 0 ? mant : mant / POW10[frac];
  return neg ? -v : v;
}
