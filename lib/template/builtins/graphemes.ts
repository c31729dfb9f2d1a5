/**
 * Extended grapheme clusters (UAX #29) as Tera counts them with `unicode-segmentation`, found
 * lazily: `truncate` only looks as far into a string as the length it keeps.
 * @module
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Splits a string into extended grapheme clusters.
 *
 * @example
 * ```ts
 * import { graphemes } from "./graphemes.ts";
 * graphemes("e\u0301a"); // ["e\u0301", "a"]
 * ```
 */
export function graphemes(s: string): string[] {
  const out: string[] = [];
  for (const g of segmenter.segment(s)) {
    const cuts = legacyCuts(g.segment);
    if (cuts === null) out.push(g.segment);
    else cuts.forEach((c, k) => out.push(g.segment.slice(c, cuts[k + 1])));
  }
  return out;
}

const INDIC = /[\u0900-\u0d7f]/;
const MARK_THEN_INDIC_LETTER = /[\p{M}\u200c\u200d](?=[\u0900-\u0d7f])(?=\p{Lo})/gu;

/**
 * Where a cluster of the JS segmenter (Unicode 15.1+, rule GB9c joins Indic conjuncts such as
 * "क्ष") splits under Unicode 15.0, which Tera's unicode-segmentation implements: before an
 * Indic letter that follows a mark or ZWJ (then GB999 applies). Null when it does not split.
 */
function legacyCuts(cluster: string): number[] | null {
  if (cluster.length < 3 || !INDIC.test(cluster)) return null;
  const cuts = [0];
  for (const m of cluster.matchAll(MARK_THEN_INDIC_LETTER)) cuts.push(m.index + m[0].length);
  return cuts.length === 1 ? null : cuts;
}

/**
 * True for a UTF-16 unit whose Grapheme_Cluster_Break class is Control, CR, LF or Other and
 * that is not a surrogate: ASCII, U+00A0–U+02FF (Latin; the soft hyphen U+00AD is Control),
 * U+0370–U+0482 (Greek, Cyrillic letters) and U+4E00–U+9FFF (CJK ideographs). Between two such
 * units there is always a boundary (GB4, GB5, GB999), except inside CR LF (GB3): the rules that
 * join (GB6–GB13) need Extend, ZWJ, SpacingMark, Prepend, Hangul or Regional_Indicator
 * characters, none of which is in these ranges.
 */
function plain(c: number): boolean {
  return c <= 0x7f || (c >= 0xa0 && c <= 0x2ff) || (c >= 0x370 && c <= 0x482) ||
    (c >= 0x4e00 && c <= 0x9fff);
}

function certainBoundary(s: string, i: number): boolean {
  const p = s.charCodeAt(i - 1);
  const c = s.charCodeAt(i);
  return plain(p) && plain(c) && !(p === 13 && c === 10);
}

/** Grapheme_Cluster_Break classes the fast path of {@link graphemeOffset} knows. */
const OTHER = 0;
const CONTROL = 1;
const CR = 2;
const LF = 3;
const EXTEND = 4;
const UNKNOWN = 5;

/**
 * The Grapheme_Cluster_Break class of a code point in ranges whose classes are simple: ASCII
 * and C1 controls, U+00A0–U+02FF (Latin; the soft hyphen U+00AD is Control), the combining
 * diacritical marks U+0300–U+036F (Extend), U+0370–U+0482 (Greek, Cyrillic letters),
 * U+4E00–U+9FFF (CJK ideographs) and the emoji blocks U+1F300–U+1F64F, U+1F680–U+1F6FF,
 * U+1F900–U+1F9FF (Other; the skin tone modifiers U+1F3FB–U+1F3FF are Extend). UNKNOWN
 * elsewhere (then `Intl.Segmenter` decides).
 */
function kindOf(cp: number): number {
  if (cp < 0x7f) return cp >= 0x20 ? OTHER : cp === 13 ? CR : cp === 10 ? LF : CONTROL;
  if (cp < 0xa0) return CONTROL;
  if (cp <= 0x2ff) return cp === 0xad ? CONTROL : OTHER;
  if (cp <= 0x36f) return EXTEND;
  if (cp <= 0x482) return OTHER;
  if (cp >= 0x4e00 && cp <= 0x9fff) return OTHER;
  if (cp >= 0x1f300 && cp <= 0x1f9ff) {
    if (cp <= 0x1f64f) return cp >= 0x1f3fb && cp <= 0x1f3ff ? EXTEND : OTHER;
    if (cp >= 0x1f680 && cp <= 0x1f6ff) return OTHER;
    if (cp >= 0x1f900) return OTHER;
  }
  return UNKNOWN;
}

/**
 * Whether UAX #29 puts a boundary between classes `p` and `c` (both known): GB3 (CR × LF),
 * GB4/GB5 (after and before controls), GB9 (× Extend), otherwise GB999. The other rules need
 * ZWJ, SpacingMark, Prepend, Hangul or Regional_Indicator characters, none of them known.
 */
function breaks(p: number, c: number): boolean {
  if (p === CR && c === LF) return false;
  if (p === CONTROL || p === CR || p === LF) return true;
  if (c === CONTROL || c === CR || c === LF) return true;
  return c !== EXTEND;
}

/** The code point at `i` (a lone surrogate stands for itself). */
function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + d - 0xdc00 + 0x10000;
  }
  return c;
}

/**
 * UTF-16 offset where grapheme number `n` (0-based) starts, or -1 when `s` has at most `n`
 * graphemes. Runs of characters with simple break classes ({@link kindOf}) are counted
 * directly; only the stretches between certain boundaries that contain other characters go
 * through `Intl.Segmenter`, so the cost is proportional to the prefix examined, not to the
 * whole string.
 *
 * @example
 * ```ts
 * import { graphemeOffset } from "./graphemes.ts";
 * graphemeOffset("ae\u0301b", 2); // 3
 * graphemeOffset("ab", 2); // -1
 * ```
 */
export function graphemeOffset(s: string, n: number): number {
  const len = s.length;
  if (len <= n) return -1; // never more graphemes than UTF-16 units
  if (n === 0) return 0;
  let count = 1; // graphemes started before position i
  let start = 0; // start of the last grapheme counted
  let cp = codePointAt(s, 0);
  let pk = kindOf(cp);
  let i = cp > 0xffff ? 2 : 1;
  while (i < len) {
    cp = codePointAt(s, i);
    const ck = kindOf(cp);
    if (pk !== UNKNOWN && ck !== UNKNOWN) {
      if (breaks(pk, ck)) {
        if (count === n) return i;
        count++;
        start = i;
      }
      pk = ck;
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    // Segment from the last grapheme start to a certain boundary, far enough to likely
    // reach grapheme n in one go (each grapheme is at least one unit).
    let j = Math.min(len, Math.max(i + 1, start + 2 * (n - count) + 16));
    while (j < len && !certainBoundary(s, j)) j++;
    count--; // the grapheme at `start` is counted again by the segmenter
    let last = start;
    for (const seg of segmenter.segment(s.slice(start, j))) {
      for (const cut of legacyCuts(seg.segment) ?? [0]) {
        if (count === n) return start + seg.index + cut;
        count++;
        last = start + seg.index + cut;
      }
    }
    start = last;
    i = j;
    if (j < len) pk = kindOf(s.charCodeAt(j - 1)); // a plain BMP unit (certainBoundary)
  }
  return -1;
}
