/**
 * Where two versions of a CSV text differ, in whole rows: the rows before the change and the rows
 * after it are the same in both versions, only a middle part needs parsing again.
 *
 * Only texts in a simple shape are split this way (no line break inside a quoted field, no
 * carriage return, no blank line, no blank first line): there every non-empty line after the
 * header is exactly one row, so rows can be counted by line breaks without running the CSV
 * scanner. Anything else is `undefined` and the caller parses the whole text.
 *
 * @module
 */

/** The rows two texts share at their start and end, and the differing middle of each. */
export interface RowDelta {
  /** Rows (after the header) that both texts start with. */
  prefixRows: number;
  /** Rows that both texts end with. */
  suffixRows: number;
  /** The differing middle of the old text: whole lines, each ending with a line break. */
  oldMiddle: string;
  /** The differing middle of the new text: whole lines (the last may lack its line break). */
  newMiddle: string;
  /** The header line shared by both texts (without its line break). */
  headerLine: string;
  /** Where the rows of the new text start: pass it with the new text to the next call. */
  rows: KnownRows;
}

/**
 * A text of the simple shape and where each of its rows (after the header) starts: lets the next
 * {@link rowDelta} from this text skip scanning it (shape check, row counting), so a one-row
 * change costs the changed rows, a few chunk comparisons and a copy of the offsets.
 */
export interface KnownRows {
  /** The text (compared by identity first, then by content). */
  readonly text: string;
  /** Offset of the first character of every row after the header, in order. */
  readonly starts: Int32Array;
}

const LF = 10;

/**
 * True when every non-empty line after the first is one CSV row and no line is blank (`whole`:
 * `text` is a whole file, whose start must not be a blank line either; else `text` starts
 * outside quotes and must end outside them).
 */
function simpleShape(text: string, whole = true): boolean {
  return text.indexOf("\r") < 0 && text.indexOf("\n\n") < 0 && quotesWithinLines(text) &&
    (!whole ||
      (text.charCodeAt(0) !== LF && !(text.charCodeAt(0) === 0xfeff && text.charCodeAt(1) === LF)));
}

/**
 * True when no line break lies between an opening quote and its closing one: with quotes paired
 * in order (an escaped `""` is a closing and an opening quote at once, which keeps the parity),
 * every quoted field then ends on the line it starts, and the text ends outside quotes.
 */
function quotesWithinLines(text: string): boolean {
  for (let open = text.indexOf('"'); open >= 0;) {
    const close = text.indexOf('"', open + 1);
    if (close < 0) return false;
    const br = text.indexOf("\n", open + 1);
    if (br >= 0 && br < close) return false;
    open = text.indexOf('"', close + 1);
  }
  return true;
}

/** Chunks compared at once: slices of flat strings share their characters (no copy). */
const CHUNK = 1 << 16;
/** Below this many characters the rest of the search goes character by character. */
const SMALL = 64;

/**
 * Length of the longest common prefix of `a` and `b` (at most `max`). Whole chunks are compared
 * with string equality (native, word-wise), halving the chunk at the first mismatch: a few
 * megabytes that share all but one row are compared in well under a millisecond, where a
 * `charCodeAt` loop takes several.
 */
function commonPrefixLength(a: string, b: string, max: number): number {
  let p = 0;
  let n = CHUNK;
  while (p < max) {
    if (n > max - p) n = max - p;
    if (n <= SMALL) {
      while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
      return p;
    }
    if (a.slice(p, p + n) === b.slice(p, p + n)) p += n;
    else n >>= 1;
  }
  return p;
}

/** Length of the longest common suffix of `a` and `b` (at most `max`), as {@link commonPrefixLength}. */
function commonSuffixLength(a: string, b: string, max: number): number {
  const lenA = a.length;
  const lenB = b.length;
  let s = 0;
  let n = CHUNK;
  while (s < max) {
    if (n > max - s) n = max - s;
    if (n <= SMALL) {
      while (s < max && a.charCodeAt(lenA - 1 - s) === b.charCodeAt(lenB - 1 - s)) s++;
      return s;
    }
    if (a.slice(lenA - s - n, lenA - s) === b.slice(lenB - s - n, lenB - s)) s += n;
    else n >>= 1;
  }
  return s;
}

/** Number of line breaks in `text` between `from` and `to`. */
function countBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Number of lines (rows) of a run of whole lines `text[from, to)`; the last may lack its break. */
function countLines(text: string, from: number, to: number): number {
  if (to <= from) return 0;
  return countBreaks(text, from, to) + (text.charCodeAt(to - 1) === LF ? 0 : 1);
}

/**
 * The row-level difference of two CSV texts of the simple shape, or `undefined` when either is
 * not of that shape or the header line differs.
 *
 * @example
 * ```ts
 * import { rowDelta } from "./text_delta.ts";
 * const d = rowDelta("name,x\na,1\nb,2\nc,3\n", "name,x\na,1\nb,9\nc,3\n")!;
 * console.log(d.prefixRows, d.suffixRows, JSON.stringify(d.newMiddle)); // 1 1 "b,9\n"
 * ```
 */
export function rowDelta(
  oldText: string,
  newText: string,
  known?: KnownRows,
): RowDelta | undefined {
  const starts = known !== undefined && known.text === oldText
    ? known.starts
    : simpleShape(oldText)
    ? rowStarts(oldText)
    : undefined;
  if (starts === undefined) return undefined;
  const headerEnd = oldText.indexOf("\n");
  if (headerEnd < 0 || newText.indexOf("\n") !== headerEnd) return undefined;
  const lenA = oldText.length;
  const lenB = newText.length;
  const max = Math.min(lenA, lenB);
  const p = commonPrefixLength(oldText, newText, max);
  // The shared prefix, cut back to a line start: whole lines both texts begin with.
  const cut = p === lenA && p === lenB ? p : oldText.lastIndexOf("\n", p - 1) + 1;
  if (cut <= headerEnd) return undefined; // the header line itself differs
  const s = commonSuffixLength(oldText, newText, max - cut);
  // The shared suffix, cut forward to a line start that lies inside it in both texts (the
  // character before the line start must be shared too).
  let suffixStart = lenA; // in the old text
  if (s > 0) {
    const br = oldText.indexOf("\n", lenA - s);
    if (br >= 0 && br + 1 <= lenA) suffixStart = br + 1;
  }
  const suffixLen = lenA - suffixStart;
  const middleEnd = lenB - suffixLen;
  // The new text is of the simple shape when the old one is and its new middle (with the line
  // breaks around it, where a blank line could appear) is.
  if (
    !simpleShape(
      newText.slice(cut - 1, Math.min(lenB, middleEnd + 1)).replaceAll('"', ""),
      false,
    ) ||
    !quotesWithinLines(newText.slice(cut, middleEnd))
  ) {
    return undefined;
  }
  const prefixRows = lowerBound(starts, cut);
  const suffixFrom = lowerBound(starts, suffixStart);
  return {
    prefixRows,
    suffixRows: starts.length - suffixFrom,
    oldMiddle: oldText.slice(cut, suffixStart),
    newMiddle: newText.slice(cut, middleEnd),
    headerLine: oldText.slice(0, headerEnd),
    rows: {
      text: newText,
      starts: spliceStarts(starts, prefixRows, suffixFrom, newText, cut, middleEnd, lenB - lenA),
    },
  };
}

/** Offsets of the rows after the header of a text of the simple shape. */
function rowStarts(text: string): Int32Array {
  const out: number[] = [];
  for (let i = text.indexOf("\n"); i >= 0 && i + 1 < text.length; i = text.indexOf("\n", i + 1)) {
    out.push(i + 1);
  }
  return Int32Array.from(out);
}

/** Index of the first offset in `starts` at or after `offset` (= rows starting before it). */
function lowerBound(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The row offsets of the new text: the old prefix rows, the rows of the new middle
 * `[cut, middleEnd)`, then the old suffix rows moved by `shift` characters.
 */
function spliceStarts(
  starts: Int32Array,
  prefixRows: number,
  suffixFrom: number,
  newText: string,
  cut: number,
  middleEnd: number,
  shift: number,
): Int32Array {
  const middle: number[] = [];
  for (let pos = cut; pos < middleEnd;) {
    middle.push(pos);
    const br = newText.indexOf("\n", pos);
    if (br < 0) break;
    pos = br + 1;
  }
  const out = new Int32Array(prefixRows + middle.length + (starts.length - suffixFrom));
  out.set(starts.subarray(0, prefixRows), 0);
  out.set(middle, prefixRows);
  let at = prefixRows + middle.length;
  for (let i = suffixFrom; i < starts.length; i++) out[at++] = starts[i] + shift;
  return out;
}

/** Number of rows of a middle part returned by {@link rowDelta}. */
export function middleRows(middle: string): number {
  return countLines(middle, 0, middle.length);
}
