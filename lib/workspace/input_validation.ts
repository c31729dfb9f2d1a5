/**
 * Validation of declared JSON inputs (reference MP37–MP39): `[inputs."<file>.json"]` with
 * `format` (`object_of_objects`, `array_of_objects`, `object`) and `fields` (a map of
 * `field = { type, required, allow_empty, allowed_values }` or `field = "<type>"`, or an array of
 * tables with `name`). Runs before any phase on input files that exist; every violation is an
 * `input_invalid` error naming the file, the entry key and the field.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { ModuleManifest } from "./manifest.ts";
import type { SourceSet } from "./sources.ts";

/** One `input_invalid` problem. */
export interface InputIssue {
  /** Always `input_invalid`. */
  code: "input_invalid";
  /** What is wrong, naming entry and field. */
  message: string;
  /** The input file, e.g. `input/zones.json`. */
  file: string;
}

interface FieldSpec {
  name: string;
  type: string;
  required: boolean;
  allowEmpty: boolean;
  allowedValues?: JsonValue[];
}

/** Violations reported per file at most; the rest are counted. */
const MAX_PER_FILE = 20;

const FORMATS = ["object_of_objects", "array_of_objects", "object"];
const TYPES = [
  "string",
  "integer",
  "number",
  "boolean",
  "array_of_string",
  "array_of_integer",
  "object",
];

type Table = Record<string, JsonValue>;
const isTable = (v: JsonValue | undefined): v is Table =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function fieldSpecs(raw: JsonValue | undefined): FieldSpec[] {
  const one = (name: string, spec: JsonValue): FieldSpec => {
    if (typeof spec === "string") return { name, type: spec, required: false, allowEmpty: true };
    const t = isTable(spec) ? spec : {};
    return {
      name,
      type: typeof t.type === "string" ? t.type : "string",
      required: t.required === true,
      allowEmpty: t.allow_empty !== false,
      allowedValues: Array.isArray(t.allowed_values) ? t.allowed_values : undefined,
    };
  };
  if (Array.isArray(raw)) {
    return raw.filter((f) => isTable(f) && typeof f.name === "string")
      .map((f) => one((f as Table).name as string, f));
  }
  return isTable(raw) ? Object.entries(raw).map(([n, s]) => one(n, s)) : [];
}

function typeError(type: string, v: JsonValue): string | undefined {
  const ok = type === "string"
    ? typeof v === "string"
    : type === "integer"
    ? Number.isInteger(v)
    : type === "number"
    ? typeof v === "number"
    : type === "boolean"
    ? typeof v === "boolean"
    : type === "array_of_string"
    ? Array.isArray(v) && v.every((x) => typeof x === "string")
    : type === "array_of_integer"
    ? Array.isArray(v) && v.every((x) => Number.isInteger(x))
    : type === "object"
    ? isTable(v)
    : true;
  return ok ? undefined : `expected ${type}, got ${JSON.stringify(v)}`;
}

/**
 * Checks every declared input that exists in the data directory's `input/` folder.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { loadSourceSet } from "./sources.ts";
 * import { mergeManifests } from "./manifest.ts";
 * import { validateInputs } from "./input_validation.ts";
 * const set = await loadSourceSet(new MemoryWorkspace({
 *   "module.toml": '[inputs."z.json"]\nformat = "object_of_objects"\n[inputs."z.json".fields]\nttl = "integer"\n',
 *   "input/z.json": '{"a": {"ttl": "x"}}',
 * }));
 * validateInputs(set, mergeManifests([set.data]))[0].message;
 * // "entry 'a', field 'ttl': expected integer, got \"x\""
 * ```
 */
export function validateInputs(sources: SourceSet, manifest: ModuleManifest): InputIssue[] {
  const out: InputIssue[] = [];
  for (const [name, spec] of manifest.inputs) {
    const file = `input/${name}`;
    const text = sources.data.files.get(file);
    if (text === undefined) continue; // MP39: a missing file is not checked here (A25).
    const issues: string[] = [];
    const format = typeof spec.format === "string" ? spec.format : undefined;
    if (format !== undefined && !FORMATS.includes(format)) {
      issues.push(`unknown format '${format}' (expected ${FORMATS.join(", ")})`);
    }
    const fields = fieldSpecs(spec.fields);
    for (const f of fields) {
      if (!TYPES.includes(f.type)) issues.push(`field '${f.name}': unknown type '${f.type}'`);
    }
    let doc: JsonValue | undefined;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      issues.push(`not valid JSON: ${e instanceof Error ? e.message : e}`);
    }
    if (doc !== undefined && issues.length === 0) {
      let entries: [string, JsonValue][] | undefined;
      if (format === "array_of_objects") {
        if (!Array.isArray(doc)) issues.push("expected a top-level array (array_of_objects)");
        else entries = doc.map((v, i) => [String(i), v]);
      } else if (format === "object") {
        if (!isTable(doc)) issues.push("expected a top-level object (object)");
        else entries = [["(root)", doc]];
      } else if (format === "object_of_objects" || fields.length > 0) {
        if (!isTable(doc)) issues.push("expected a top-level object (object_of_objects)");
        else entries = Object.entries(doc);
      }
      for (const [key, entry] of entries ?? []) {
        if (!isTable(entry)) {
          issues.push(`entry '${key}': expected an object, got ${JSON.stringify(entry)}`);
          continue;
        }
        for (const f of fields) {
          const at = `entry '${key}', field '${f.name}'`;
          const v = entry[f.name];
          if (v === undefined || v === null) {
            if (f.required) issues.push(`${at}: required but missing`);
            continue;
          }
          const err = typeError(f.type, v);
          if (err) {
            issues.push(`${at}: ${err}`);
            continue;
          }
          if (v === "" || (Array.isArray(v) && v.length === 0)) {
            // Empty values are governed by allow_empty alone.
            if (!f.allowEmpty) issues.push(`${at}: must not be empty`);
            continue;
          }
          if (f.allowedValues && !f.allowedValues.some((a) => a === v)) {
            issues.push(
              `${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(f.allowedValues)}`,
            );
          }
        }
      }
    }
    for (const message of issues.slice(0, MAX_PER_FILE)) {
      out.push({ code: "input_invalid", message, file });
    }
    if (issues.length > MAX_PER_FILE) {
      out.push({
        code: "input_invalid",
        message: `${issues.length - MAX_PER_FILE} further violation(s) not shown`,
        file,
      });
    }
  }
  return out;
}
