/**
 * String filters that build their output in a byte buffer in one pass over the code units
 * (`urlencode`, `urlencode_strict`, `slugify`, `upper`): the buffer is decoded once at the end,
 * instead of a string concatenation or a regex callback per character (issue 15 item 4).
 * @module
 */

/** A scratch byte buffer for the filters that build ASCII output (renders are synchronous). */
let scratch = new Uint8Array(4096);
/** Larger buffers are not kept between calls. */
const SCRATCH_MAX = 1 << 20;

/** A buffer of at least `n` bytes holding the first `used` bytes of `old` (default: none). */
function scratchFor(n: number, old?: Uint8Array, used = 0): Uint8Array {
  if (n <= scratch.length && old === undefined) return scratch;
  const b = new Uint8Array(Math.max(n, 2 * (old ?? scratch).length));
  if (old !== undefined) b.set(old.subarray(0, used));
  if (b.length <= SCRATCH_MAX) scratch = b;
  return b;
}

// ignoreBOM: a leading U+FEFF is text (upper keeps it), not a byte order mark to strip
const asciiDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
const HEX_DIGITS = new TextEncoder().encode("0123456789ABCDEF");

function pct(b: Uint8Array, o: number, byte: number): void {
  b[o] = 37;
  b[o + 1] = HEX_DIGITS[byte >> 4];
  b[o + 2] = HEX_DIGITS[byte & 15];
}

/**
 * Percent-encodes the UTF-8 bytes of `s` except the ASCII bytes `keep` marks (1), in one pass
 * into a byte buffer; a lone surrogate is encoded as U+FFFD, like Rust's lossy text.
 */
export function percentEncode(s: string, keep: Uint8Array): string {
  const n = s.length;
  const b = scratchFor(n * 9);
  let o = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 128) {
      if (keep[c] === 1) b[o++] = c;
      else {
        pct(b, o, c);
        o += 3;
      }
    } else if (c < 0x800) {
      pct(b, o, 0xc0 | (c >> 6));
      pct(b, o + 3, 0x80 | (c & 63));
      o += 6;
    } else if (c < 0xd800 || c > 0xdfff) {
      pct(b, o, 0xe0 | (c >> 12));
      pct(b, o + 3, 0x80 | ((c >> 6) & 63));
      pct(b, o + 6, 0x80 | (c & 63));
      o += 9;
    } else {
      const d = c <= 0xdbff && i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + d - 0xdc00 + 0x10000;
        i++;
        pct(b, o, 0xf0 | (c >> 18));
        pct(b, o + 3, 0x80 | ((c >> 12) & 63));
        pct(b, o + 6, 0x80 | ((c >> 6) & 63));
        pct(b, o + 9, 0x80 | (c & 63));
        o += 12;
      } else {
        pct(b, o, 0xef);
        pct(b, o + 3, 0xbf);
        pct(b, o + 6, 0xbd);
        o += 9;
      }
    }
  }
  return asciiDecoder.decode(b.subarray(0, o));
}

function keepTable(keep: (c: number) => boolean): Uint8Array {
  return Uint8Array.from({ length: 128 }, (_, c) => keep(c) ? 1 : 0);
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

// Tera's PYTHON_ENCODE_SET: controls, space and `"#<>?`{}:;=@[\]^|!$&'()*+,` are encoded.
const URL_ENCODED = new Set(" \"#<>`?{}:;=@[\\]^|!$&'()*+,".split("").map((c) => c.charCodeAt(0)));
export const URL_KEEP = keepTable((c) => c >= 0x20 && c !== 0x7f && !URL_ENCODED.has(c));
export const STRICT_KEEP = keepTable(isAlnum);

const TRANSLIT: Record<string, string> = {
  "ß": "ss",
  "æ": "ae",
  "Æ": "AE",
  "ø": "o",
  "Ø": "O",
  "œ": "oe",
  "Œ": "OE",
  "đ": "d",
  "Đ": "D",
  "ł": "l",
  "Ł": "L",
  "þ": "th",
  "Þ": "TH",
  "ð": "d",
  "Ð": "D",
  "ı": "i",
};

/** ASCII transliterations of non-ASCII characters already seen (a pure function's cache). */
const translitCache = new Map<string, string>();

function transliterate(ch: string): string {
  let t = translitCache.get(ch);
  if (t === undefined) {
    // approximated by stripping diacritics (deunicode in Tera)
    const base = TRANSLIT[ch] ?? ch.normalize("NFKD").replace(/\p{M}/gu, "");
    t = [...base].every((x) => x.charCodeAt(0) < 128) ? base : "-";
    if (translitCache.size < 4096) translitCache.set(ch, t);
  }
  return t;
}

/**
 * What a non-ASCII character contributes to a slug: `core` (its transliteration slugified, ""
 * when it has no letters or digits), whether a separator comes before and after it, and
 * whether it contributes anything at all (a stripped combining mark does not).
 */
interface SlugPiece {
  core: string;
  lead: boolean;
  trail: boolean;
  empty: boolean;
}

/**
 * Slug pieces of non-ASCII code points already seen (a pure function's cache), by index: BMP
 * code units find theirs through `bmpPiece` (a typed-array load instead of a `Map` lookup per
 * character), astral code points through `astralPiece`.
 */
const pieces: SlugPiece[] = [];
const astralPiece = new Map<number, number>();
/** Per BMP code unit: 0 not seen yet, SEPARATOR, NOTHING, or `PIECE + index` into `pieces`. */
const SEPARATOR = 1;
const NOTHING = 2;
const PIECE = 3;
const bmpPiece = new Uint16Array(65536);
const MAX_PIECES = 4096;

function slugPieceOf(cp: number): SlugPiece {
  const t = transliterate(String.fromCodePoint(cp));
  const core = slugifyByChar(t);
  return {
    core,
    lead: t !== "" && !isAlnum(t.charCodeAt(0)),
    trail: t !== "" && !isAlnum(t.charCodeAt(t.length - 1)),
    empty: t === "",
  };
}

/** The piece of a BMP code unit that is not (part of) a surrogate pair; fills `bmpPiece`. */
function bmpSlugPiece(c: number): SlugPiece {
  const p = slugPieceOf(c);
  const lone = c >= 0xd800 && c <= 0xdfff; // a lone surrogate: a pair shares its high half
  if (!lone && (p.empty || p.core === "")) bmpPiece[c] = p.empty ? NOTHING : SEPARATOR;
  else if (!lone && pieces.length < MAX_PIECES) {
    bmpPiece[c] = PIECE + pieces.length;
    pieces.push(p);
  }
  return p;
}

function astralSlugPiece(cp: number): SlugPiece {
  const i = astralPiece.get(cp);
  if (i !== undefined) return pieces[i];
  const p = slugPieceOf(cp);
  if (pieces.length < MAX_PIECES) {
    astralPiece.set(cp, pieces.length);
    pieces.push(p);
  }
  return p;
}

/** UTF-8 bytes of the uppercase of non-ASCII code points already seen (a pure function's cache). */
const upperCache = new Map<number, Uint8Array>();
const utf8Encoder = new TextEncoder();

/**
 * `upper` (Rust's `str::to_uppercase`, the same mappings as `toUpperCase`), with the ASCII
 * letters mapped in a byte buffer: `toUpperCase` on text with any non-Latin-1 character takes
 * a slow per-character path. Uppercasing has no context-dependent mappings, so mapping each
 * code point on its own gives the same text; text with lone surrogates goes native.
 */
export function upperCase(s: string): string {
  const n = s.length;
  if (n < 64 || !s.isWellFormed()) return s.toUpperCase();
  let b = scratchFor(n);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      b[o++] = c >= 97 && c <= 122 ? c - 32 : c;
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff) {
      cp = (c - 0xd800) * 0x400 + s.charCodeAt(i + 1) - 0xdc00 + 0x10000;
      i++;
    }
    let m = upperCache.get(cp);
    if (m === undefined) {
      m = utf8Encoder.encode(String.fromCodePoint(cp).toUpperCase());
      if (upperCache.size < 4096) upperCache.set(cp, m);
    }
    const need = o + m.length + (n - i);
    if (need > b.length) b = scratchFor(need, b, o);
    for (let k = 0; k < m.length; k++) b[o++] = m[k];
  }
  return asciiDecoder.decode(b.subarray(0, o));
}

/** Lowercased ASCII letters and digits by code unit; 0 for every other ASCII character. */
const SLUG_BYTE = Uint8Array.from(
  { length: 128 },
  (_, c) => isAlnum(c) ? (c >= 65 && c <= 90 ? c + 32 : c) : 0,
);

/** `slugify`: ASCII letters/digits, everything else collapses to `-`. */
export function slugify(s: string): string {
  // Same result as the character loop below, in one pass over the code units into a byte
  // buffer: a separator is written only when a kept character follows it (so edge separators
  // vanish), and non-ASCII characters contribute their cached slug pieces. The loop over
  // ASCII text stays in a small function of its own (it does not see the piece handling).
  const n = s.length;
  slugOut = scratchFor(n + 1);
  slugLen = 0;
  slugDash = false;
  for (let i = slugAscii(s, 0, n); i < n; i = slugAscii(s, slugOther(s, i, n), n));
  return asciiDecoder.decode(slugOut.subarray(0, slugLen));
}

/** The state of the running `slugify`: its output buffer, bytes written, separator pending. */
let slugOut: Uint8Array = scratch;
let slugLen = 0;
let slugDash = false;

/** Slugifies ASCII code units from `i` on; returns the index of the first non-ASCII one. */
function slugAscii(s: string, i: number, n: number): number {
  const buf = slugOut;
  let o = slugLen;
  let dash = slugDash;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) break;
    const b = SLUG_BYTE[c];
    if (b === 0) dash = true;
    else {
      if (dash) {
        if (o !== 0) buf[o++] = 45;
        dash = false;
      }
      buf[o++] = b;
    }
  }
  slugLen = o;
  slugDash = dash;
  return i;
}

/** Adds the piece of the non-ASCII character at `i`; returns the index after it. */
function slugOther(s: string, i: number, n: number): number {
  const c = s.charCodeAt(i);
  const kind = bmpPiece[c];
  if (kind === SEPARATOR) {
    slugDash = true;
    return i + 1;
  }
  if (kind === NOTHING) return i + 1;
  let p: SlugPiece;
  if (kind >= PIECE) p = pieces[kind - PIECE];
  else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
    p = astralSlugPiece((c - 0xd800) * 0x400 + s.charCodeAt(i + 1) - 0xdc00 + 0x10000);
    i++;
  } else p = bmpSlugPiece(c);
  if (p.empty) return i + 1;
  const core = p.core;
  if (core === "") {
    slugDash = true;
    return i + 1;
  }
  // room for this piece, its separator and one byte per remaining code unit
  const need = slugLen + core.length + 1 + (n - i);
  if (need > slugOut.length) slugOut = scratchFor(need, slugOut, slugLen);
  const buf = slugOut;
  let o = slugLen;
  if ((slugDash || p.lead) && o !== 0) buf[o++] = 45;
  for (let k = 0; k < core.length; k++) buf[o++] = core.charCodeAt(k);
  slugLen = o;
  slugDash = p.trail;
  return i + 1;
}

/** The character-by-character `slugify` of the slug crate (kept as the reference). */
export function slugifyByChar(s: string): string {
  let out = "";
  let prevDash = true;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    let ascii: string | undefined;
    if (c >= 128) {
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length &&
        (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      ascii = transliterate(s.slice(i, pair ? i + 2 : i + 1));
      if (pair) i++;
    }
    const n = ascii === undefined ? 1 : ascii.length;
    for (let k = 0; k < n; k++) {
      if (ascii !== undefined) c = ascii.charCodeAt(k);
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
        out += String.fromCharCode(c);
        prevDash = false;
      } else if (c >= 65 && c <= 90) {
        out += String.fromCharCode(c + 32);
        prevDash = false;
      } else if (!prevDash) {
        out += "-";
        prevDash = true;
      }
    }
  }
  if (out.endsWith("-")) out = out.slice(0, -1);
  return out;
}
