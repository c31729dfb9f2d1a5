/**
 * The one rule for reading a property value as a list, shared by `create_from` (reference M21,
 * M22) and auto-linking (M60, A17):
 *
 * 1. missing or `null` → no items;
 * 2. an array → its elements;
 * 3. a string is trimmed, then
 *    - text that parses as a JSON array (`'["a","b"]'`, what `json_encode` or a `template!`
 *      block writes and `{{ list }}` prints back, M3) → that array's elements;
 *    - a Tera-displayed list `[a, b]` (not JSON, M5) → its comma items;
 *    - otherwise its comma items (M21, A17);
 *
 *    comma items are trimmed and empty items dropped, so `"email, sms,"` is `email`, `sms`;
 * 4. any other scalar → one item.
 *
 * Names (auto-linking, {@link nameItems}) apply the string rule to each string element of an
 * array too and keep only strings and numbers; `create_from` keeps array elements as they are
 * (objects become items whose name the rule sets).
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";

/**
 * Items of a value read as a list (rule in the module comment; M21, M5, A17).
 *
 * @example
 * ```ts
 * import { listItems } from "./list_values.ts";
 * console.log(listItems("email, sms,")); // ["email", "sms"]
 * console.log(listItems('["a","b"]')); // ["a", "b"]
 * console.log(listItems("[a, b]")); // ["a", "b"]
 * ```
 */
export function listItems(value: JsonValue | undefined): JsonValue[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return [value];
  const t = value.trim();
  let inner = t;
  if (t.startsWith("[") && t.endsWith("]")) {
    const parsed = jsonArray(t);
    if (parsed) return parsed;
    inner = t.slice(1, -1);
  }
  const out: string[] = [];
  for (const part of inner.split(",")) {
    const s = part.trim();
    if (s !== "") out.push(s);
  }
  return out;
}

/**
 * Names a value refers to (auto-linking M60, A17): {@link listItems}, with string elements of an
 * array read by the same string rule, numbers as text, and anything else dropped.
 *
 * @example
 * ```ts
 * import { nameItems } from "./list_values.ts";
 * console.log(nameItems('["a","b"]')); // ["a", "b"]
 * console.log(nameItems(["x", 2, "y, z"])); // ["x", "2", "y", "z"]
 * ```
 */
export function nameItems(value: JsonValue | undefined): string[] {
  const out: string[] = [];
  const elements = Array.isArray(value) ? value : [value ?? null];
  for (const v of elements) {
    if (typeof v === "number") out.push(String(v));
    if (typeof v !== "string") continue;
    for (const item of listItems(v)) {
      if (typeof item !== "string" && typeof item !== "number") continue;
      const s = String(item).trim();
      if (s !== "") out.push(s);
    }
  }
  return out;
}

function jsonArray(text: string): JsonValue[] | undefined {
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A rendered property value read back as the list Tera printed (reference M13, settled on the
 * original's own export of rescile/aws_transit_hub, graph150.json): when a template renders a
 * sequence or an object, Tera prints `[a, b]` (items unquoted) or `[object]`, and the original
 * stores that text as the list of its trimmed comma items (`ip_prefix = "{{- prefix -}}"` with an
 * object `prefix` is `["object"]` there). Only such flat printings become lists: text that parses
 * as JSON (`[1, 2]`, `["a"]`, what `json_encode` writes), `[]`, text with quotes or nested
 * brackets, and every other string stay strings. Returns `undefined` when `text` is not one.
 *
 * @example
 * ```ts
 * import { renderedList } from "./list_values.ts";
 * console.log(renderedList("[object]")); // ["object"]
 * console.log(renderedList("[ eu-west-1, us-east-1 ]")); // ["eu-west-1", "us-east-1"]
 * console.log(renderedList('["a"]')); // undefined (JSON text stays a string)
 * ```
 */
export function renderedList(text: string): string[] | undefined {
  if (text.length < 3 || text.charCodeAt(0) !== 91 || text.charCodeAt(text.length - 1) !== 93) {
    return undefined;
  }
  const inner = text.slice(1, -1);
  if (inner.trim() === "" || /[[\]"'{}]/.test(inner) || jsonArray(text)) return undefined;
  const items = inner.split(",").map((s) => s.trim());
  return items.some((s) => s === "") ? undefined : items;
}
