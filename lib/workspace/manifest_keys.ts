/**
 * The keys of `module.toml` the engine reads (reference MP4, MP8, MP21, MP30–MP31, MP37,
 * MP40–MP42), so that nothing in a manifest is dropped silently (issue 19 item 4, MP8: unknown
 * tables and keys are warnings, not errors). A key the reference documents but the engine does
 * not implement yet is a `not_implemented` warning; any other unknown key is `unknown_key`.
 * Warnings carry the manifest's path and the key's line where it can be found.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { DEPENDENCY_KEYS } from "./module_source.ts";
import { GENERATOR_KEYS, GENERATOR_PAGINATION_KEYS } from "../generators/declarations.ts";

/** A warning about a manifest key. */
export interface ManifestWarning {
  /** `unknown_key` or `not_implemented`. */
  code: "unknown_key" | "not_implemented";
  /** Message naming the key. */
  message: string;
  /** Manifest path as shown to users (`module.toml`, `<module>/module.toml`). */
  file: string;
  /** 1-based line of the key, when found. */
  line?: number;
}

type Table = Record<string, JsonValue>;

function isTable(v: JsonValue | undefined): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Top-level keys read by the build, or by the components beside it: generators
 * (`generator`, `generators`, generators.md) and schema validation (`schemas`, `schema`,
 * `implements`, `requirements`, `requirement`; MP40–MP42, schemas-and-validation.md).
 */
const TOP_LEVEL = [
  "module",
  "params",
  "assets",
  "inputs",
  "input",
  "generator",
  "generators",
  "schemas",
  "schema",
  "implements",
  "requirements",
  "requirement",
  "dependencies",
];
const TOP_NOT_IMPLEMENTED: Record<string, string> = {};
/** `graphsvc_version`/`rescile_version` are checked by module resolution (dependencies.ts). */
const MODULE_KEYS = [
  "name",
  "version",
  "description",
  "url",
  "graphsvc_version",
  "rescile_version",
];
const MODULE_NOT_IMPLEMENTED: Record<string, string> = {};
const PARAM_KEYS = ["description", "default", "required", "allowed_values"];
/** `schema` is read by schema validation (SV11). */
const ASSET_KEYS = [
  "resource_type",
  "description",
  "name_template",
  "match_on",
  "columns",
  "schema",
  "bootstrap",
];
const ASSET_NOT_IMPLEMENTED: Record<string, string> = {};
const COLUMN_KEYS = ["type", "required", "allowed_values", "description"];
/** `format` and `fields` are read by input validation (MP38–MP39). */
const INPUT_KEYS = ["description", "format", "fields", "bootstrap"];
const INPUT_NOT_IMPLEMENTED: Record<string, string> = {};
/**
 * Keys of an input field (MP38, read by input_validation.ts); `description` documents it, as
 * for columns. The array form names each field with `name`.
 */
const FIELD_KEYS = ["type", "required", "allow_empty", "allowed_values", "description"];
/** `[requirements.<type>]` (MP41) and `[[requirement]]` (MP42, which names its `type`). */
const REQUIREMENT_KEYS = ["properties", "description"];
/** `[[implements]]` and `[[schema]]` (MP40, SV10; read by lib/schema/sources.ts). */
const IMPLEMENTS_KEYS = ["schema", "version", "resources"];
const SCHEMA_KEYS = ["schema", "resources"];
/** A generator's `vault_secrets.<name>` entry (GN10). */
const VAULT_SECRET_KEYS = ["collection", "secret"];

/**
 * Warnings for the keys of a parsed manifest `doc` (text `text`, shown as `file`) that the
 * engine does not read.
 *
 * @example
 * ```ts
 * import { manifestKeyWarnings } from "./manifest_keys.ts";
 * const text = '[module]\nname = "m"\nversion = "1.0.0"\nauthor = "x"\n';
 * const w = manifestKeyWarnings({ module: { name: "m", version: "1.0.0", author: "x" } },
 *   text, "module.toml");
 * console.log(w[0].code, w[0].line); // "unknown_key" 4
 * ```
 */
export function manifestKeyWarnings(doc: Table, text: string, file: string): ManifestWarning[] {
  const out: ManifestWarning[] = [];
  const lines = text.split(/\r?\n/);
  const warn = (
    code: ManifestWarning["code"],
    path: string[],
    message: string,
  ) => out.push({ code, message, file, line: lineOf(lines, path) });
  for (const [k, v] of Object.entries(doc)) {
    const reason = TOP_NOT_IMPLEMENTED[k];
    if (reason !== undefined) {
      // An empty table (`[dependencies]` with nothing under it) asks for nothing.
      if (isTable(v) && Object.keys(v).length === 0) continue;
      if (Array.isArray(v) && v.length === 0) continue;
      warn("not_implemented", [k], `'${k}' is not implemented yet and is ignored: ${reason}`);
    } else if (!TOP_LEVEL.includes(k)) {
      warn(
        "unknown_key",
        [k],
        `unknown key '${k}' in module.toml (ignored; expected one of: ${
          [...TOP_LEVEL, ...Object.keys(TOP_NOT_IMPLEMENTED)].join(", ")
        })`,
      );
    }
  }
  const aggregated = new Map<string, { message: string; more: number }>();
  const notes: [number, { message: string; more: number }][] = [];
  const check = (
    table: JsonValue | undefined,
    path: string[],
    keys: readonly string[],
    notImplemented: Record<string, string> = {},
    element?: { index: number; from: number },
  ) => {
    if (!isTable(table)) return;
    const dotted = path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p))).join(".");
    // An entry of an array of tables: `[[requirement]] (entry 2)`.
    const label = element ? `[[${dotted}]] (entry ${element.index + 1})` : `[${dotted}]`;
    const line = (k: string) =>
      element ? lineAfter(lines, element.from, k) : lineOf(lines, [...path, k]);
    for (const k of Object.keys(table)) {
      const reason = notImplemented[k];
      if (reason !== undefined) {
        // Once per key and table family (`[assets.*]`), naming the first declaration.
        const family = `${path[0]}\u0000${k}`;
        const seen = aggregated.get(family);
        if (seen) seen.more++;
        else {
          const at = { code: "not_implemented" as const, message: "", file, more: 0 };
          aggregated.set(family, at);
          out.push({ ...at, line: line(k) });
          at.message = `'${k}' in ${label}%MORE% is not implemented yet and is ignored: ${reason}`;
          notes.push([out.length - 1, at]);
        }
      } else if (!keys.includes(k)) {
        out.push({
          code: "unknown_key",
          file,
          line: line(k),
          message: `unknown key '${k}' in ${label} (ignored; expected one of: ${
            [...keys, ...Object.keys(notImplemented)].join(", ")
          })`,
        });
      }
    }
  };
  check(doc.module, ["module"], MODULE_KEYS, MODULE_NOT_IMPLEMENTED);
  for (const [name, spec] of entries(doc.params)) {
    check(spec, ["params", name], PARAM_KEYS);
  }
  for (const [name, spec] of entries(doc.assets)) {
    check(spec, ["assets", name], ASSET_KEYS, ASSET_NOT_IMPLEMENTED);
    if (!isTable(spec)) continue;
    for (const [col, c] of entries(spec.columns)) {
      check(c, ["assets", name, "columns", col], COLUMN_KEYS);
    }
  }
  for (const top of ["inputs", "input"]) {
    for (const [name, spec] of entries(doc[top])) {
      check(spec, [top, name], INPUT_KEYS, INPUT_NOT_IMPLEMENTED);
    }
  }
  for (const [name, spec] of entries(doc.dependencies)) {
    check(spec, ["dependencies", name], DEPENDENCY_KEYS);
  }
  for (const top of ["inputs", "input"]) {
    for (const [name, spec] of entries(doc[top])) {
      if (!isTable(spec)) continue;
      const fields = spec.fields;
      if (Array.isArray(fields)) {
        // `[[inputs."x.json".fields]]` entries, each naming its field.
        const at = arrayHeaders(lines, [top, name, "fields"]);
        fields.forEach((f, index) =>
          check(f, [top, name, "fields"], ["name", ...FIELD_KEYS], {}, {
            index,
            from: at[index] ?? 0,
          })
        );
      } else {
        for (const [field, f] of entries(fields)) {
          check(f, [top, name, "fields", field], FIELD_KEYS);
        }
      }
    }
  }
  for (const [type, spec] of entries(doc.requirements)) {
    check(spec, ["requirements", type], REQUIREMENT_KEYS);
  }
  const arrays: [string, readonly string[]][] = [
    ["requirement", ["type", ...REQUIREMENT_KEYS]],
    ["implements", IMPLEMENTS_KEYS],
    ["schema", SCHEMA_KEYS],
  ];
  for (const [top, keys] of arrays) {
    if (!Array.isArray(doc[top])) continue;
    const at = arrayHeaders(lines, [top]);
    (doc[top] as JsonValue[]).forEach((entry, index) =>
      check(entry, [top], keys, {}, { index, from: at[index] ?? 0 })
    );
  }
  for (const top of ["generator", "generators"]) {
    for (const [name, spec] of entries(doc[top])) {
      check(spec, [top, name], GENERATOR_KEYS);
      if (!isTable(spec)) continue;
      check(spec.pagination, [top, name, "pagination"], GENERATOR_PAGINATION_KEYS);
      for (const [secret, v] of entries(spec.vault_secrets)) {
        check(v, [top, name, "vault_secrets", secret], VAULT_SECRET_KEYS);
      }
    }
  }
  for (const [i, at] of notes) {
    const family = at.more > 0 ? ` (and ${at.more} more declaration${at.more > 1 ? "s" : ""})` : "";
    out[i] = {
      code: "not_implemented",
      file,
      line: out[i].line,
      message: at.message.replace("%MORE%", family),
    };
  }
  return out;
}

function entries(v: JsonValue | undefined): [string, JsonValue][] {
  return isTable(v) ? Object.entries(v) : [];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A key name as TOML may spell it: bare, or quoted. */
function keyPattern(k: string): string {
  return `(?:${escapeRe(k)}|"${escapeRe(k)}"|'${escapeRe(k)}')`;
}

/** 0-based line indexes of the `[[path]]` headers, in order (entries of an array of tables). */
function arrayHeaders(lines: readonly string[], path: readonly string[]): number[] {
  const re = new RegExp(`^\\s*\\[\\[\\s*${path.map(keyPattern).join("\\s*\\.\\s*")}\\s*\\]\\]`);
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (re.test(l)) out.push(i);
  });
  return out;
}

/**
 * Line of key `k` in the table whose header is on line index `from`: an assignment before the
 * next header, else an inline `k =` after it. Undefined when not found.
 */
function lineAfter(lines: readonly string[], from: number, k: string): number | undefined {
  const assign = new RegExp(`^\\s*${keyPattern(k)}\\s*[=.]`);
  for (let i = from + 1; i < lines.length && !/^\s*\[/.test(lines[i]); i++) {
    if (assign.test(lines[i])) return i + 1;
  }
  const inline = new RegExp(`(^|[{,\\s])${keyPattern(k)}\\s*=`);
  for (let i = from; i < lines.length; i++) if (inline.test(lines[i])) return i + 1;
  return undefined;
}

/**
 * Best-effort line of the key `path` (e.g. `["assets", "a.csv", "colour"]`): a `[a.b.c]` table
 * header naming the whole path, else the key `c = …` (or `c.d = …`) after the header of its
 * parent table, else an inline occurrence `c =` anywhere after it. Undefined when not found.
 */
function lineOf(lines: readonly string[], path: readonly string[]): number | undefined {
  const sep = "\\s*\\.\\s*";
  const header = (p: readonly string[]) =>
    new RegExp(`^\\s*\\[{1,2}\\s*${p.map(keyPattern).join(sep)}\\s*\\]{1,2}\\s*(#.*)?$`);
  // The table itself, or the first of its sub-tables (`[generator.aws]` for `generator`).
  const own = new RegExp(
    `^\\s*\\[{1,2}\\s*${path.map(keyPattern).join(sep)}\\s*(\\.|\\]{1,2}\\s*(#.*)?$)`,
  );
  const i = lines.findIndex((l) => own.test(l));
  if (i >= 0) return i + 1;
  const last = keyPattern(path[path.length - 1]);
  const parent = path.slice(0, -1);
  // After the header of the parent table, else of the nearest ancestor that has one (a key of an
  // inline table such as `os = { tpye = "string" }` under `[assets."a.csv".columns]`).
  let from = 0;
  let nested = false;
  for (let n = parent.length; n > 0; n--) {
    const p = header(parent.slice(0, n));
    const j = lines.findIndex((l) => p.test(l));
    if (j < 0) continue;
    from = j + 1;
    nested = n < parent.length;
    break;
  }
  const assign = new RegExp(`^\\s*${last}\\s*[=.]`);
  for (let k = from; k < lines.length && !nested; k++) {
    if (k > from && /^\s*\[/.test(lines[k]) && parent.length > 0) break;
    if (assign.test(lines[k])) return k + 1;
  }
  const inline = new RegExp(`(^|[{,\\s])${last}\\s*=`);
  for (let k = from; k < lines.length; k++) if (inline.test(lines[k])) return k + 1;
  return undefined;
}
