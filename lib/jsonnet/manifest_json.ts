/**
 * JSON manifestation, byte-identical to the reference `jsonnet` binary (except that non-integer
 * numbers use the shortest round-trip form), plus conversion between runtime values and plain
 * JSON values.
 *
 * @module
 */
import type { Loc } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";
import type { JsonValue } from "./json_value.ts";
import { fieldNames, getField, objectFromThunks } from "./objects.ts";
import { escapeJson, formatNumber } from "./strings.ts";
import { Thunk, type Value, VArray, VObject } from "./values.ts";

function scalar(ev: Evaluator, v: Value, loc: Loc): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "string") return escapeJson(v);
  ev.error(loc, "couldn't manifest function in JSON output.");
}

/** The CLI's output format: 3-space indent, `[ ]`/`{ }` for empty containers. */
export function manifestMultiline(ev: Evaluator, v: Value, loc: Loc, indent = "   "): string {
  const parts: string[] = [];
  const rec = (v: Value, cur: string) => {
    if (v instanceof VArray) {
      if (v.elems.length === 0) return parts.push("[ ]");
      ev.charge(v.elems.length, loc);
      const inner = cur + indent;
      parts.push("[\n");
      v.elems.forEach((t, i) => {
        if (i > 0) parts.push(",\n");
        parts.push(inner);
        rec(t.force(), inner);
      });
      parts.push("\n", cur, "]");
    } else if (v instanceof VObject) {
      ev.checkAsserts(v, loc);
      const names = fieldNames(v, false);
      if (names.length === 0) return parts.push("{ }");
      ev.charge(names.length, loc);
      const inner = cur + indent;
      parts.push("{\n");
      names.forEach((k, i) => {
        if (i > 0) parts.push(",\n");
        parts.push(inner, escapeJson(k), ": ");
        rec(getField(ev, v, k, loc), inner);
      });
      parts.push("\n", cur, "}");
    } else parts.push(scalar(ev, v, loc));
  };
  rec(v, "");
  return parts.join("");
}

/** Single-line form used by `std.toString` and string concatenation: `{"a": [1, 2]}`. */
export function manifestCompact(ev: Evaluator, v: Value, loc: Loc): string {
  if (v instanceof VArray) {
    if (v.elems.length === 0) return "[ ]";
    ev.charge(v.elems.length, loc);
    return "[" + v.elems.map((t) => manifestCompact(ev, t.force(), loc)).join(", ") + "]";
  }
  if (v instanceof VObject) {
    ev.checkAsserts(v, loc);
    const names = fieldNames(v, false);
    if (names.length === 0) return "{ }";
    ev.charge(names.length, loc);
    return "{" +
      names.map((k) => escapeJson(k) + ": " + manifestCompact(ev, getField(ev, v, k, loc), loc))
        .join(", ") +
      "}";
  }
  return scalar(ev, v, loc);
}

/** `std.manifestJsonEx(v, indent, newline, key_val_sep)` with the reference std.jsonnet layout. */
export function manifestJsonEx(
  ev: Evaluator,
  v: Value,
  indent: string,
  newline: string,
  kvSep: string,
  loc: Loc,
): string {
  const rec = (v: Value, cur: string): string => {
    if (v instanceof VArray) {
      const inner = cur + indent;
      ev.alloc((inner.length + newline.length + 1) * v.elems.length, loc);
      return "[" + newline +
        v.elems.map((t) => inner + rec(t.force(), inner)).join("," + newline) + newline + cur +
        "]";
    }
    if (v instanceof VObject) {
      ev.checkAsserts(v, loc);
      const inner = cur + indent;
      const names = fieldNames(v, false);
      ev.alloc((inner.length + newline.length + kvSep.length + 1) * names.length, loc);
      return "{" + newline +
        names.map((k) => inner + escapeJson(k) + kvSep + rec(getField(ev, v, k, loc), inner)).join(
          "," + newline,
        ) + newline + cur + "}";
    }
    return scalar(ev, v, loc);
  };
  return rec(v, "");
}

/** Deeply forces a value into plain JSON (visible fields only). Functions are an error. */
export function toJson(ev: Evaluator, v: Value, loc: Loc): JsonValue {
  if (v instanceof VArray) {
    ev.charge(v.elems.length, loc);
    return v.elems.map((t) => toJson(ev, t.force(), loc));
  }
  if (v instanceof VObject) {
    ev.checkAsserts(v, loc);
    const o: Record<string, JsonValue> = {};
    const names = fieldNames(v, false);
    ev.charge(names.length, loc);
    for (const k of names) o[k] = toJson(ev, getField(ev, v, k, loc), loc);
    return o;
  }
  if (typeof v === "object" && v !== null) ev.error(loc, "couldn't manifest function as JSON");
  return v;
}

/** Converts a plain JSON value into a runtime value. */
export function fromJson(v: JsonValue): Value {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return new VArray(v.map((x) => Thunk.of(fromJson(x))));
  return objectFromThunks(Object.keys(v).map((k) => [k, Thunk.of(fromJson(v[k]))]));
}
