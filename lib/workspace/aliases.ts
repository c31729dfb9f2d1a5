/**
 * `resource_aliases` of a dependency (reference MP17): while that dependency's rule files and
 * asset declarations are loaded, every resource-type reference equal to an aliased type is read
 * as its new type. The rewrite works on the parsed TOML: values of the type-naming keys
 * (`origin_resource`, `resource_type`, `with`, `to`, `as`, `origin_resource_types`, `type`,
 * `types`, `target_types`) that equal an old type exactly; the file is written back as TOML.
 * Templates additionally see `RESOURCE_ALIASES` (lib/pipeline/rules/scope.ts).
 *
 * @module
 */
import { parse, stringify } from "smol-toml";

/** Keys whose string (or string-array) values name resource types. */
const TYPE_KEYS = new Set([
  "origin_resource",
  "resource_type",
  "with",
  "to",
  "as",
  "origin_resource_types",
  "type",
  "types",
  "target_types",
]);

/** Folders whose TOML files are rewritten. */
const FOLDERS = ["models/", "compliance/", "output/", "actions/"];

function rewrite(value: unknown, aliases: Readonly<Record<string, string>>, typed: boolean): {
  value: unknown;
  changed: boolean;
} {
  if (typed && typeof value === "string" && Object.hasOwn(aliases, value)) {
    return { value: aliases[value], changed: true };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = rewrite(v, aliases, typed);
      changed ||= r.changed;
      return r.value;
    });
    return { value: out, changed };
  }
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = rewrite(v, aliases, TYPE_KEYS.has(k));
      changed ||= r.changed;
      out[k] = r.value;
    }
    return { value: out, changed };
  }
  return { value, changed: false };
}

/**
 * The TOML `text` with aliased type references replaced; `text` itself when nothing changes or
 * it does not parse (the build reports the syntax error on the original).
 *
 * @example
 * ```ts
 * import { aliasTomlText } from "./aliases.ts";
 * aliasTomlText('origin_resource = "zone"\n', { zone: "dns_zone" }); // 'origin_resource = "dns_zone"\n'
 * ```
 */
export function aliasTomlText(text: string, aliases: Readonly<Record<string, string>>): string {
  if (Object.keys(aliases).length === 0) return text;
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch {
    return text;
  }
  const r = rewrite(doc, aliases, false);
  return r.changed ? stringify(r.value as Record<string, unknown>) + "\n" : text;
}

/**
 * Applies `aliases` to the rule files (models, compliance, outputs, actions) of a layer's
 * `files` and to the `resource_type` of its manifest's asset declarations.
 *
 * @example
 * ```ts
 * import { aliasLayerFiles } from "./aliases.ts";
 * const r = aliasLayerFiles(new Map([["models/a.toml", 'origin_resource = "zone"\n']]), undefined,
 *   { zone: "dns_zone" });
 * console.log(r.files.get("models/a.toml")); // 'origin_resource = "dns_zone"\n'
 * ```
 */
export function aliasLayerFiles(
  files: ReadonlyMap<string, string>,
  manifestText: string | undefined,
  aliases: Readonly<Record<string, string>>,
): { files: Map<string, string>; manifestText?: string } {
  const out = new Map<string, string>();
  for (const [path, text] of files) {
    const rule = path.endsWith(".toml") && FOLDERS.some((f) => path.startsWith(f));
    out.set(path, rule ? aliasTomlText(text, aliases) : text);
  }
  let manifest = manifestText;
  if (manifestText !== undefined) {
    try {
      const doc = parse(manifestText) as Record<string, unknown>;
      const assets = doc.assets as Record<string, Record<string, unknown>> | undefined;
      let changed = false;
      for (const [file, spec] of Object.entries(assets ?? {})) {
        if (typeof spec !== "object" || spec === null) continue;
        // Without `resource_type` the type is the file stem (A3).
        const t = spec.resource_type ?? file.replace(/\.csv$/, "");
        if (typeof t === "string" && Object.hasOwn(aliases, t)) {
          spec.resource_type = aliases[t];
          changed = true;
        }
      }
      if (changed) manifest = stringify(doc) + "\n";
    } catch { /* the build reports the syntax error */ }
  }
  return { files: out, manifestText: manifest };
}
