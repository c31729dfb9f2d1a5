/**
 * String filters of Tera (`upper`, `replace`, `truncate`, `slugify`, `urlencode`...).
 * @module
 */

import { isRustWhitespace, trim, trimEnd, trimStart } from "../value.ts";
import { argInt, argStr, type FilterTable, optStr, strValue } from "./args.ts";
import { graphemeOffset } from "./graphemes.ts";

export { graphemes } from "./graphemes.ts";

function escapes(p: string): string {
  return p.replaceAll("\\n", "\n").replaceAll("\\t", "\t");
}

function trimStartMatches(s: string, pat: string): string {
  if (pat === "") return s;
  while (s.startsWith(pat)) s = s.slice(pat.length);
  return s;
}

function trimEndMatches(s: string, pat: string): string {
  if (pat === "") return s;
  while (s.endsWith(pat)) s = s.slice(0, s.length - pat.length);
  return s;
}

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

const asciiDecoder = new TextDecoder();
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
function percentEncode(s: string, keep: Uint8Array): string {
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
const URL_KEEP = keepTable((c) => c >= 0x20 && c !== 0x7f && !URL_ENCODED.has(c));
const STRICT_KEEP = keepTable(isAlnum);

/** Characters to replace and their entities (`chars[i]` becomes `entities[i]`). */
interface Entities {
  chars: string[];
  entities: string[];
}

/**
 * Replaces the characters of `table` with their entities. The next occurrence of each character
 * is found with `indexOf` (a native search), so the text between them is never walked in JS.
 */
function escapeChars(s: string, table: Entities): string {
  const { chars, entities } = table;
  const k = chars.length;
  const next: number[] = new Array(k);
  let any = false;
  for (let j = 0; j < k; j++) {
    next[j] = s.indexOf(chars[j]);
    if (next[j] >= 0) any = true;
  }
  if (!any) return s;
  let out = "";
  let last = 0;
  for (;;) {
    let which = -1;
    let at = s.length;
    for (let j = 0; j < k; j++) {
      const p = next[j];
      if (p >= 0 && p < at) {
        at = p;
        which = j;
      }
    }
    if (which < 0) break;
    out += at > last ? s.slice(last, at) + entities[which] : entities[which];
    last = at + 1;
    next[which] = s.indexOf(chars[which], last);
  }
  return out + s.slice(last);
}

function entityTable(map: Record<string, string>): Entities {
  return { chars: Object.keys(map), entities: Object.values(map) };
}

const HTML_ENTITIES = entityTable({
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
  "/": "&#x2F;",
});
const XML_ENTITIES = entityTable({
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
});

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

/** Slug pieces of non-ASCII code points already seen (a pure function's cache). */
const pieceCache = new Map<number, SlugPiece>();
/** BMP code units whose piece is known to be only a separator (1) or nothing (2). */
const SEPARATOR = 1;
const NOTHING = 2;
const bmpKind = new Uint8Array(65536);

function slugPiece(cp: number): SlugPiece {
  let p = pieceCache.get(cp);
  if (p === undefined) {
    const t = transliterate(String.fromCodePoint(cp));
    const core = slugifyByChar(t);
    p = {
      core,
      lead: t !== "" && !isAlnum(t.charCodeAt(0)),
      trail: t !== "" && !isAlnum(t.charCodeAt(t.length - 1)),
      empty: t === "",
    };
    const unit = cp < 0xd800 || (cp > 0xdfff && cp < 0x10000); // not (part of) a pair
    if (unit && (p.empty || core === "")) bmpKind[cp] = p.empty ? NOTHING : SEPARATOR;
    else if (pieceCache.size < 4096) pieceCache.set(cp, p);
  }
  return p;
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
  // vanish), and non-ASCII characters contribute their cached slug pieces.
  const n = s.length;
  let buf = scratchFor(n + 1);
  let o = 0;
  let dash = false; // a separator seen since the last kept character
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      const b = SLUG_BYTE[c];
      if (b === 0) dash = true;
      else {
        if (dash) {
          if (o !== 0) buf[o++] = 45;
          dash = false;
        }
        buf[o++] = b;
      }
      continue;
    }
    const kind = bmpKind[c];
    if (kind === SEPARATOR) {
      dash = true;
      continue;
    }
    if (kind === NOTHING) continue;
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + d - 0xdc00 + 0x10000;
        i++;
      }
    }
    const p = slugPiece(cp);
    if (p.empty) continue;
    const core = p.core;
    if (core === "") {
      dash = true;
      continue;
    }
    // room for this piece, its separator and one byte per remaining code unit
    const need = o + core.length + 1 + (n - i);
    if (need > buf.length) buf = scratchFor(need, buf, o);
    if ((dash || p.lead) && o !== 0) buf[o++] = 45;
    for (let k = 0; k < core.length; k++) buf[o++] = core.charCodeAt(k);
    dash = p.trail;
  }
  return asciiDecoder.decode(buf.subarray(0, o));
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

function capitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return "";
  const f = String.fromCodePoint(first);
  return f.toUpperCase() + s.slice(f.length).toLowerCase();
}

function title(s: string): string {
  // Tera: \b(\w)(\w*)\b with Unicode word characters
  return s.replace(/(?<![\p{L}\p{N}_\p{M}])([\p{L}\p{N}_\p{M}])([\p{L}\p{N}_\p{M}]*)/gu, (
    _m,
    a: string,
    b: string,
  ) => a.toUpperCase() + b.toLowerCase());
}

/** Escapes HTML like Tera's `escape` (`&<>"'/`). */
export function escapeHtml(s: string): string {
  return escapeChars(s, HTML_ENTITIES);
}

function indent(s: string, args: Record<string, unknown>): string {
  const prefix = args.prefix === undefined ? "    " : argStr("indent", "prefix", args.prefix);
  const first = args.first === undefined ? false : args.first === true;
  const blank = args.blank === undefined ? false : args.blank === true;
  if (args.first !== undefined && typeof args.first !== "boolean") {
    throw new Error("Filter `indent` received an incorrect type for arg `first`");
  }
  if (args.blank !== undefined && typeof args.blank !== "boolean") {
    throw new Error("Filter `indent` received an incorrect type for arg `blank`");
  }
  let out = "";
  const lines = s.split(/(?<=\n)/);
  lines.forEach((line, i) => {
    if (i === 0 && !first) out += line;
    else if (!blank && trim(line) === "") out += line;
    else out += prefix + line;
  });
  return out;
}

/** 1 for the UTF-16 units that are Unicode White_Space (Rust's `char::is_whitespace`). */
const WHITE_SPACE = new Uint8Array(65536).map((_, c) => isRustWhitespace(c) ? 1 : 0);

/** The string filters. */
export const textFilters: FilterTable = {
  upper: (v) => strValue("upper", v).toUpperCase(),
  lower: (v) => strValue("lower", v).toLowerCase(),
  trim: (v) => trim(strValue("trim", v)),
  trim_start: (v) => trimStart(strValue("trim_start", v)),
  trim_end: (v) => trimEnd(strValue("trim_end", v)),
  trim_start_matches: (v, a) =>
    trimStartMatches(
      strValue("trim_start_matches", v),
      escapes(argStr("trim_start_matches", "pat", a.pat)),
    ),
  trim_end_matches: (v, a) =>
    trimEndMatches(
      strValue("trim_end_matches", v),
      escapes(argStr("trim_end_matches", "pat", a.pat)),
    ),
  truncate: (v, a) => {
    const s = strValue("truncate", v);
    const length = a.length === undefined ? 255 : argInt("truncate", "length", a.length, 0);
    const end = optStr("truncate", "end", a.end) ?? "…";
    const at = graphemeOffset(s, length);
    return at < 0 ? s : s.slice(0, at) + end;
  },
  wordcount: (v) => {
    // Rust's `split_whitespace().count()`: words between Unicode White_Space runs
    // (branch-free: a word starts where a non-space follows a space or the start)
    const s = strValue("wordcount", v);
    let n = 0;
    let prev = 1;
    for (let i = 0; i < s.length; i++) {
      const w = WHITE_SPACE[s.charCodeAt(i)];
      n += prev & (w ^ 1);
      prev = w;
    }
    return n;
  },
  replace: (v, a) => {
    const s = strValue("replace", v);
    const from = argStr("replace", "from", a.from);
    const to = argStr("replace", "to", a.to);
    if (from === "") {
      const cps = [...s];
      return to + cps.join(to) + (cps.length ? to : "");
    }
    // replaceAll is native end to end, but reads `$` patterns in a replacement string
    return to.includes("$") ? s.split(from).join(to) : s.replaceAll(from, to);
  },
  capitalize: (v) => capitalize(strValue("capitalize", v)),
  title: (v) => title(strValue("title", v)),
  linebreaksbr: (v) =>
    strValue("linebreaksbr", v).replaceAll("\r\n", "<br>").replaceAll("\n", "<br>"),
  striptags: (v) => strValue("striptags", v).replace(/<!--[^]*?-->|<[^>]*>/g, ""),
  spaceless: (v) => strValue("spaceless", v).replace(/>\s+</gu, "><"),
  urlencode: (v) => percentEncode(strValue("urlencode", v), URL_KEEP),
  urlencode_strict: (v) => percentEncode(strValue("urlencode_strict", v), STRICT_KEEP),
  escape: (v) => escapeHtml(strValue("escape", v)),
  escape_xml: (v) => escapeChars(strValue("escape_xml", v), XML_ENTITIES),
  slugify: (v) => slugify(strValue("slugify", v)),
  addslashes: (v) =>
    strValue("addslashes", v).replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll(
      "'",
      "\\'",
    ),
  split: (v, a) => {
    const s = strValue("split", v);
    const pat = escapes(argStr("split", "pat", a.pat));
    if (pat === "") return ["", ...[...s], ""];
    return s.split(pat);
  },
  indent: (v, a) => indent(strValue("indent", v), a),
};
