/**
 * The duration grammar of `ttl` (reference GN4): one or more `<integer><unit>` segments with
 * units `s`, `m`, `h`, `d`, e.g. `"90s"`, `"6h"`, `"1h30m"`.
 *
 * @module
 */

const SEGMENT = /(\d+)([smhd])/y;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration into milliseconds; `undefined` when the text does not follow the grammar.
 *
 * @example
 * ```ts
 * parseDuration("1h30m"); // 5400000
 * parseDuration("6 h"); // undefined
 * ```
 */
export function parseDuration(text: string): number | undefined {
  if (text.length === 0) return undefined;
  let total = 0;
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < text.length) {
    const m = SEGMENT.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]];
  }
  return Number.isSafeInteger(total) ? total : undefined;
}
