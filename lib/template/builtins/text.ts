/**
 * String filters of Tera (`upper`, `replace`, `truncate`, `slugify`, `urlencode`...).
 * @module
 */

import { isRustWhitespace, trim, trimEnd, trimStart } from "../value.ts";
import { argInt, argStr, type FilterTable, optStr, strValue } from "./args.ts";
import { graphemeOffset } from "./graphemes.ts";
import { percentEncode, slugify, STRICT_KEEP, upperCase, URL_KEEP } from "./text_bytes.ts";

export { graphemes } from "./graphemes.ts";
export { slugify, slugifyByChar } from "./text_bytes.ts";

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
  upper: (v) => upperCase(strValue("upper", v)),
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
