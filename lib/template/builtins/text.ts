/**
 * String filters of Tera (`upper`, `replace`, `truncate`, `slugify`, `urlencode`...).
 * @module
 */

import { trim, trimEnd, trimStart } from "../value.ts";
import { argInt, argStr, type FilterTable, optStr, strValue } from "./args.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Splits a string into extended grapheme clusters. */
export function graphemes(s: string): string[] {
  const out: string[] = [];
  for (const g of segmenter.segment(s)) out.push(g.segment);
  return out;
}

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

function percentEncode(s: string, keep: (c: number) => boolean): string {
  const bytes = new TextEncoder().encode(s);
  let out = "";
  for (const b of bytes) {
    if (b < 128 && keep(b)) out += String.fromCharCode(b);
    else out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

// Tera's PYTHON_ENCODE_SET: controls, space and `"#<>?`{}:;=@[\]^|!$&'()*+,` are encoded.
const URL_ENCODED = new Set(" \"#<>`?{}:;=@[\\]^|!$&'()*+,".split("").map((c) => c.charCodeAt(0)));

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

/** `slugify`: ASCII letters/digits, everything else collapses to `-`. */
export function slugify(s: string): string {
  let out = "";
  let prevDash = true;
  const push = (ch: string) => {
    const c = ch.charCodeAt(0);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      out += ch;
      prevDash = false;
    } else if (c >= 65 && c <= 90) {
      out += ch.toLowerCase();
      prevDash = false;
    } else if (!prevDash) {
      out += "-";
      prevDash = true;
    }
  };
  for (const ch of s) {
    if (ch.charCodeAt(0) < 128) push(ch);
    else {
      // transliteration approximated by stripping diacritics (deunicode in Tera)
      const base = TRANSLIT[ch] ?? ch.normalize("NFKD").replace(/\p{M}/gu, "");
      const ascii = [...base].every((x) => x.charCodeAt(0) < 128) ? base : "-";
      for (const x of ascii) push(x);
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
  return s.replace(
    /[&<>"'/]/g,
    (c) =>
      c === "&"
        ? "&amp;"
        : c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === '"'
        ? "&quot;"
        : c === "'"
        ? "&#x27;"
        : "&#x2F;",
  );
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
    const g = graphemes(s);
    if (length >= g.length) return s;
    return g.slice(0, length).join("") + end;
  },
  wordcount: (v) => {
    const s = strValue("wordcount", v);
    let n = 0;
    let inWord = false;
    for (let i = 0; i < s.length; i++) {
      const ws = /\s/u.test(s[i]) || s.charCodeAt(i) === 0x85;
      if (!ws && !inWord) n++;
      inWord = !ws;
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
    return s.split(from).join(to);
  },
  capitalize: (v) => capitalize(strValue("capitalize", v)),
  title: (v) => title(strValue("title", v)),
  linebreaksbr: (v) =>
    strValue("linebreaksbr", v).replaceAll("\r\n", "<br>").replaceAll("\n", "<br>"),
  striptags: (v) => strValue("striptags", v).replace(/<!--[^]*?-->|<[^>]*>/g, ""),
  spaceless: (v) => strValue("spaceless", v).replace(/>\s+</gu, "><"),
  urlencode: (v) =>
    percentEncode(strValue("urlencode", v), (c) => c >= 0x20 && c !== 0x7f && !URL_ENCODED.has(c)),
  urlencode_strict: (v) => percentEncode(strValue("urlencode_strict", v), isAlnum),
  escape: (v) => escapeHtml(strValue("escape", v)),
  escape_xml: (v) =>
    strValue("escape_xml", v).replace(
      /[&<>"']/g,
      (c) =>
        c === "&"
          ? "&amp;"
          : c === "<"
          ? "&lt;"
          : c === ">"
          ? "&gt;"
          : c === '"'
          ? "&quot;"
          : "&apos;",
    ),
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
