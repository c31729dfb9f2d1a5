/**
 * Text manifestation std functions over forced values: JSON (indented / minified), YAML
 * documents and streams, INI, Python literals and XML from JsonML. TOML lives in toml.ts.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { escapeStringJson } from "./escape.ts";
import { format } from "./format.ts";
import { formatNumber, toStringValue } from "./to_string.ts";
import { isObject, sortedKeys, typeOf } from "./values.ts";

/** `std.manifestJsonEx(value, indent, newline, key_val_sep)` as the reference std.jsonnet. */
export function manifestJsonEx(
  value: JsonValue,
  indent: string,
  newline = "\n",
  keyValSep = ": ",
): string {
  const aux = (v: JsonValue, cindent: string): string => {
    if (v === true) return "true";
    if (v === false) return "false";
    if (v === null) return "null";
    if (typeof v === "number") return formatNumber(v);
    if (typeof v === "string") return escapeStringJson(v);
    const inner = cindent + indent;
    if (Array.isArray(v)) {
      const parts = v.map((x) => inner + aux(x, inner));
      return "[" + newline + parts.join("," + newline) + newline + cindent + "]";
    }
    const parts = sortedKeys(v).map((k) =>
      inner + escapeStringJson(k) + keyValSep + aux(v[k], inner)
    );
    return "{" + newline + parts.join("," + newline) + newline + cindent + "}";
  };
  return aux(value, "");
}

const RESERVED = new Set([
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "y",
  "n",
  ".nan",
  "-.inf",
  "+.inf",
  ".inf",
  "null",
  "-",
  "---",
  "",
]); // deno-fmt-ignore

function only(allowed: string, s: string): boolean {
  for (const c of s) if (!allowed.includes(c)) return false;
  return true;
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

const DIGITS = "0123456789";

/** Whether a YAML mapping key can be emitted without quotes (std.jsonnet's bareSafe). */
function bareSafe(key: string): boolean {
  const lc = key.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const typeMatch = (t: string) => key.slice(0, 2) === t || key.slice(0, 3) === "-" + t;
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-/";
  const intChars = DIGITS + "_-";
  if (!only(letters + DIGITS + "e._-", key)) return false;
  if (RESERVED.has(lc)) return false;
  if (only(DIGITS + "-", key) && count(key, "-") === 2) return false;
  if (only(intChars, lc) && count(key, "-") < 2) return false;
  if (only(intChars + "b", lc) && [...key].length > 2 && typeMatch("0b")) return false;
  if (
    only(DIGITS + "e._-", lc) && count(key, ".") === 1 && count(key, "-") < 3 &&
    count(lc, "e") < 2
  ) return false;
  if (
    only(DIGITS + "abcdefx_-", lc) && count(key, "-") < 2 && [...key].length > 2 &&
    typeMatch("0x")
  ) return false;
  return true;
}

/** `std.manifestYamlDoc(value, indent_array_in_object, quote_keys)`. */
export function manifestYamlDoc(
  value: JsonValue,
  indentArrayInObject = false,
  quoteKeys = true,
): string {
  const nonEmptyArray = (x: JsonValue) => Array.isArray(x) && x.length > 0;
  const nonEmptyObject = (x: JsonValue) => isObject(x) && Object.keys(x).length > 0;
  const aux = (v: JsonValue, cindent: string): string => {
    if (v === true) return "true";
    if (v === false) return "false";
    if (v === null) return "null";
    if (typeof v === "number") return formatNumber(v);
    if (typeof v === "string") {
      if (v.length === 0) return '""';
      if (v.endsWith("\n")) {
        const lines = v.split("\n");
        return ["|", ...lines.slice(0, -1)].join("\n" + cindent + "  ");
      }
      return escapeStringJson(v);
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const parts = v.map((x) => {
        if (nonEmptyArray(x)) {
          const ni = cindent + "  ";
          return "-\n" + ni + aux(x, ni);
        }
        if (nonEmptyObject(x)) return "- " + aux(x, cindent + "  ");
        return "- " + aux(x, cindent);
      });
      return parts.join("\n" + cindent);
    }
    const keys = sortedKeys(v);
    if (keys.length === 0) return "{}";
    const lines = keys.map((k) => {
      const x = v[k];
      const key = quoteKeys || !bareSafe(k) ? escapeStringJson(k) : k;
      if (nonEmptyArray(x)) {
        const ni = indentArrayInObject ? cindent + "  " : cindent;
        return key + ":\n" + ni + aux(x, ni);
      }
      if (nonEmptyObject(x)) {
        const ni = cindent + "  ";
        return key + ":\n" + ni + aux(x, ni);
      }
      return key + ": " + aux(x, cindent);
    });
    return lines.join("\n" + cindent);
  };
  return aux(value, "");
}

/** `std.manifestYamlStream(value, indent_array_in_object, c_document_end, quote_keys)`. */
export function manifestYamlStream(
  value: JsonValue,
  indentArrayInObject = false,
  cDocumentEnd = true,
  quoteKeys = true,
): string {
  if (!Array.isArray(value)) {
    throw new StdError("manifestYamlStream only takes arrays, got " + typeOf(value));
  }
  const docs = value.map((e) => manifestYamlDoc(e, indentArrayInObject, quoteKeys));
  return "---\n" + docs.join("\n---\n") + (cDocumentEnd ? "\n...\n" : "\n");
}

function field(o: JsonValue, k: string): JsonValue {
  if (!isObject(o)) {
    throw new StdError(`Only objects can be indexed by string, got ${typeOf(o)}`);
  }
  if (!Object.hasOwn(o, k)) throw new StdError(`field does not exist: ${k}`);
  return o[k];
}

/** `std.manifestIni(ini)`: `{main?: {...}, sections: {name: {...}}}`; array values repeat keys. */
export function manifestIni(ini: JsonValue): string {
  const body = (b: JsonValue): string[] => {
    if (!isObject(b)) {
      throw new StdError(
        `objectFieldsEx expected (object, boolean) but got (${typeOf(b)}, boolean)`,
      );
    }
    return sortedKeys(b).flatMap((k) => {
      const v = b[k];
      return Array.isArray(v)
        ? v.map((x) => format("%s = %s", [k, x]))
        : [format("%s = %s", [k, v])];
    });
  };
  const main = isObject(ini) && Object.hasOwn(ini, "main") ? body(ini.main) : [];
  const sections = field(ini, "sections") as JsonObject;
  const all = isObject(sections)
    ? sortedKeys(sections).flatMap((k) => [format("[%s]", [k]), ...body(sections[k])])
    : body(sections);
  return [...main, ...all, ""].join("\n");
}

/** `std.manifestPython(v)`: a Python literal (`True`, `None`, dicts with sorted keys). */
export function manifestPython(v: JsonValue): string {
  if (isObject(v)) {
    const fields = sortedKeys(v).map((k) => `${escapeStringJson(k)}: ${manifestPython(v[k])}`);
    return `{${fields.join(", ")}}`;
  }
  if (Array.isArray(v)) return `[${v.map(manifestPython).join(", ")}]`;
  if (typeof v === "string") return escapeStringJson(v);
  if (typeof v === "number") return formatNumber(v);
  if (v === true) return "True";
  if (v === false) return "False";
  return "None";
}

/** `std.manifestPythonVars(conf)`: one `name = <python literal>` line per field. */
export function manifestPythonVars(conf: JsonValue): string {
  if (!isObject(conf)) {
    throw new StdError(
      `objectFieldsEx expected (object, boolean) but got (${typeOf(conf)}, boolean)`,
    );
  }
  return [...sortedKeys(conf).map((k) => `${k} = ${manifestPython(conf[k])}`), ""].join("\n");
}

function deepJoin(v: JsonValue): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(deepJoin).join("");
  throw new StdError(`Expected string or array, got ${typeOf(v)}`);
}

/** `std.manifestXmlJsonml(value)`: XML text from a JsonML array `[tag, {attrs}?, children...]`. */
export function manifestXmlJsonml(value: JsonValue): string {
  if (!Array.isArray(value)) {
    throw new StdError(`Expected a JSONML value (an array), got ${typeOf(value)}`);
  }
  const aux = (v: JsonValue): JsonValue => {
    if (typeof v === "string") return v;
    if (!Array.isArray(v)) {
      throw new StdError(`Only strings and arrays can be indexed, got ${typeOf(v)}`);
    }
    const tag = v[0];
    const hasAttrs = v.length > 1 && isObject(v[1]);
    const attrs = (hasAttrs ? v[1] : {}) as JsonObject;
    const children = v.slice(hasAttrs ? 2 : 1);
    const attrsStr = sortedKeys(attrs).map((k) => ` ${k}="${toStringValue(attrs[k])}"`).join("");
    return ["<", tag, attrsStr, ">", children.map(aux), "</", tag, ">"];
  };
  return deepJoin(aux(value));
}
