/**
 * Shaping responses into target files (reference GN13–GN15, GN24): parsing a body, combining
 * pages, and writing JSON or CSV.
 *
 * @module
 */
import { parseCsv, stringifyCsv } from "../formats/csv.ts";

/** The parsed form of a response body: JSON, CSV rows as objects, or the text itself. */
export function parseBody(text: string, contentType: string | null, url: string): unknown {
  const ct = (contentType ?? "").toLowerCase();
  try {
    return JSON.parse(text);
  } catch { /* not JSON: maybe CSV */ }
  let path = "";
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch { /* keep "" */ }
  if (ct.includes("csv") || path.endsWith(".csv")) {
    try {
      const doc = parseCsv(text, url);
      return doc.rows.map((r) => Object.fromEntries(doc.header.map((h, i) => [h, r.cells[i]])));
    } catch { /* not CSV either: text */ }
  }
  return text;
}

/** Whether a `Content-Type` names JSON (`application/json`, `…+json`). */
export function isJsonType(contentType: string | null): boolean {
  return /[/+]json\b/i.test(contentType ?? "");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Combines page results (GN24): arrays are concatenated; when every page is an object they are
 * merged key by key (later pages win); a mix appends each object (and scalar) as an element.
 *
 * @example
 * ```ts
 * combinePages([[1], [2, 3]]); // [1, 2, 3]
 * combinePages([{ a: 1 }, { b: 2 }]); // { a: 1, b: 2 }
 * ```
 */
export function combinePages(pages: unknown[]): unknown {
  if (pages.length === 1) return pages[0];
  if (pages.length > 0 && pages.every(isObject)) {
    return Object.assign({}, ...pages);
  }
  const out: unknown[] = [];
  for (const p of pages) {
    if (Array.isArray(p)) out.push(...p);
    else out.push(p);
  }
  return out;
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map((x) => (isObject(x) ? JSON.stringify(x) : cell(x))).join(",");
  if (isObject(v)) return JSON.stringify(v);
  return String(v);
}

/**
 * An array of objects as CSV (GN15): header = keys in first-seen order with `name` first, one
 * row per object, arrays joined with `,`, nested objects JSON-encoded. `undefined` when `value`
 * is not an array of objects.
 *
 * @example
 * ```ts
 * toCsv([{ id: 1, name: "a", tags: ["x", "y"] }]); // 'name,id,tags\na,1,"x,y"\n'
 * ```
 */
export function toCsv(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every(isObject)) return undefined;
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const row of value as Record<string, unknown>[]) {
    for (const k of Object.keys(row)) if (!seen.has(k)) seen.add(k) && keys.push(k);
  }
  const name = keys.indexOf("name");
  if (name > 0) keys.unshift(...keys.splice(name, 1));
  return stringifyCsv(
    keys,
    (value as Record<string, unknown>[]).map((r) => keys.map((k) => cell(r[k]))),
  );
}

/**
 * The text written for a shaped value: CSV for a `.csv` target holding an array of objects,
 * strings as they are (except for a `.json` target), anything else as pretty-printed JSON with a final newline.
 *
 * @example
 * ```ts
 * serializeTarget("assets/x.csv", [{ name: "a" }]); // "name\na\n"
 * serializeTarget("input/x.json", { a: 1 }); // '{\n  "a": 1\n}\n'
 * ```
 */
export function serializeTarget(targetPath: string, value: unknown): string {
  if (targetPath.toLowerCase().endsWith(".csv")) {
    const csv = toCsv(value);
    if (csv !== undefined) return csv;
  }
  if (typeof value === "string" && !targetPath.toLowerCase().endsWith(".json")) return value;
  return JSON.stringify(value, null, 2) + "\n";
}
