/**
 * `std.manifestTomlEx(value, indent)` / `std.manifestToml(value)`, ported from the reference
 * std.jsonnet: scalar fields first, then sub-tables and arrays of tables, keys sorted.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { escapeStringJson } from "./escape.ts";
import { formatNumber, toStringValue } from "./to_string.ts";
import { isObject, sortedKeys, typeOf } from "./values.ts";

const BARE = /^[A-Za-z0-9_-]*$/;

function escapeKey(k: string): string {
  return BARE.test(k) ? k : escapeStringJson(k);
}

function isTableArray(v: JsonValue): v is JsonObject[] {
  return Array.isArray(v) && v.length > 0 && v.every(isObject);
}

function isSection(v: JsonValue): boolean {
  return isObject(v) || isTableArray(v);
}

function pathText(p: (string | number)[]): string {
  return toStringValue(p);
}

/** Renders a TOML document from an object; `indent` indents nested tables. */
export function manifestTomlEx(value: JsonValue, indent: string): string {
  const renderValue = (
    v: JsonValue,
    path: (string | number)[],
    inline: boolean,
    cindent: string,
  ): string => {
    if (v === true) return "true";
    if (v === false) return "false";
    if (v === null) throw new StdError('Tried to manifest "null" at ' + pathText(path));
    if (typeof v === "number") return formatNumber(v);
    if (typeof v === "string") return escapeStringJson(v);
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const newIndent = inline ? "" : cindent + indent;
      const sep = inline ? " " : "\n";
      const items = v.map((x, i) => newIndent + renderValue(x, [...path, i], true, ""));
      return "[" + sep + items.join("," + sep) + sep + (inline ? "" : cindent) + "]";
    }
    const items = sortedKeys(v).map((k) =>
      escapeKey(k) + " = " + renderValue(v[k], [...path, k], true, "")
    );
    return "{ " + items.join(", ") + " }";
  };
  const renderTableInternal = (
    v: JsonObject,
    path: string[],
    indexed: (string | number)[],
    cindent: string,
  ): string => {
    const keys = sortedKeys(v);
    const kvp = keys.filter((k) => !isSection(v[k])).map((k) =>
      cindent + escapeKey(k) + " = " + renderValue(v[k], [...indexed, k], false, cindent)
    );
    const sections = [kvp.join("\n")];
    for (const k of keys.filter((k) => isSection(v[k]))) {
      const x = v[k];
      sections.push(
        isObject(x)
          ? renderTable(x, [...path, k], [...indexed, k], cindent)
          : renderTableArray(x as JsonObject[], [...path, k], [...indexed, k], cindent),
      );
    }
    return sections.join("\n\n");
  };
  const renderTable = (
    v: JsonObject,
    path: string[],
    indexed: (string | number)[],
    cindent: string,
  ): string =>
    cindent + "[" + path.map(escapeKey).join(".") + "]" +
    (Object.keys(v).length === 0 ? "" : "\n") +
    renderTableInternal(v, path, indexed, cindent + indent);
  const renderTableArray = (
    v: JsonObject[],
    path: string[],
    indexed: (string | number)[],
    cindent: string,
  ): string =>
    v.map((t, i) =>
      cindent + "[[" + path.map(escapeKey).join(".") + "]]" +
      (Object.keys(t).length === 0 ? "" : "\n") +
      renderTableInternal(t, path, [...indexed, i], cindent + indent)
    ).join("\n\n");
  if (!isObject(value)) throw new StdError("TOML body must be an object. Got " + typeOf(value));
  return renderTableInternal(value, [], [], "");
}
