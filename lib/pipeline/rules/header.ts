/**
 * Header data of a rule file (reference M3–M7, A24–A25): inline values, template strings,
 * `{ "json!" = … [, jmespath = …] }`, `{ "template!" = … }` and its alias `function!`.
 *
 * @module
 */
import { search } from "@jmespath-community/jmespath";
import type { JsonValue } from "../../graph/graph.ts";
import type { HeaderEntry } from "../../formats/toml.ts";
import { RuleError } from "./errors.ts";
import { isTemplate, RESERVED_HEADER_NAMES } from "./scope.ts";
import { withSourceText } from "../../template/mod.ts";

/** How a header entry is evaluated. */
export type HeaderForm =
  | { kind: "static"; value: JsonValue }
  | { kind: "template"; source: string }
  | { kind: "json"; ref: string; query?: string }
  | { kind: "block"; source: string };

/** A compiled header entry. */
export interface CompiledHeader {
  /** Header key. */
  key: string;
  /** Evaluation form. */
  form: HeaderForm;
  /** True when the value does not depend on the iteration context. */
  static: boolean;
  /**
   * Keys next to `"json!"` that are not a query key: not applied (the original ignores them, so
   * a misspelled `jamespath` filters nothing there) and reported as `unknown_key` warnings.
   */
  ignored?: string[];
}

/**
 * Keys that hold the JMESPath query of a `json!` entry. Nothing else is guessed: the original's
 * export of rescile/aws_transit_hub (graph150.json) shows `jamespath` (a typo) ignored, the whole
 * file used (issue 27, models.md M3).
 */
const JSON_QUERY_KEYS = ["jmespath", "jp"];

/**
 * Classifies header entries; throws {@link RuleError} for reserved names (M7) and malformed
 * directive tables.
 *
 * @example
 * ```ts
 * import { compileHeader } from "./header.ts";
 * const h = compileHeader([{ key: "r", value: { "json!": "regions.json", jmespath: "a" } }]);
 * console.log(h[0].form.kind); // "json"
 * ```
 */
export function compileHeader(entries: readonly HeaderEntry[]): CompiledHeader[] {
  return entries.map(({ key, value }) => {
    if (RESERVED_HEADER_NAMES.has(key)) {
      throw new RuleError(
        `'${key}' is a reserved name and cannot be a header variable`,
        key,
        "rule_header",
      );
    }
    if (typeof value === "string") {
      return isTemplate(value)
        ? { key, form: { kind: "template", source: value }, static: false }
        : { key, form: { kind: "static", value }, static: true };
    }
    if (value && typeof value === "object" && !Array.isArray(value)) {
      if ("json!" in value) {
        const ref = value["json!"];
        if (typeof ref !== "string") {
          throw new RuleError(`"json!" must be a file name`, key, "rule_header");
        }
        let query: string | undefined;
        const ignored: string[] = [];
        for (const k of Object.keys(value)) {
          if (k === "json!") continue;
          if (!JSON_QUERY_KEYS.includes(k)) {
            ignored.push(k);
            continue;
          }
          const q = value[k];
          if (typeof q !== "string") {
            throw new RuleError(`${k} must be a string`, key, "rule_header");
          }
          query = q;
        }
        const compiled: CompiledHeader = {
          key,
          form: { kind: "json", ref, query },
          static: !isTemplate(ref),
        };
        if (ignored.length) compiled.ignored = ignored;
        return compiled;
      }
      for (const d of ["template!", "function!"]) {
        if (d in value) {
          const source = value[d];
          if (typeof source !== "string" || Object.keys(value).length !== 1) {
            throw new RuleError(
              `"${d}" must be the only key and hold a template string`,
              key,
              "rule_header",
            );
          }
          return { key, form: { kind: "block", source }, static: false };
        }
      }
    }
    return { key, form: { kind: "static", value }, static: true };
  });
}

/** What header evaluation needs from its environment. */
export interface HeaderEnv {
  /** Renders a template in `context` (throws RuleError on failure). */
  render(source: string, context: Record<string, unknown>, key: string): string;
  /** Reads a `json!` file (throws RuleError naming `key` when missing or invalid). */
  readJson(ref: string, key: string): JsonValue;
}

/** Caches `json!` + JMESPath results per (file, query) for one build (M4). */
export class JsonQueryCache {
  #cache = new Map<string, JsonValue>();

  /** The file's JSON with `query` applied (memoised). */
  get(
    ref: string,
    query: string | undefined,
    read: (ref: string, key: string) => JsonValue,
    key: string,
  ): JsonValue {
    const id = `${ref}\u0000${query ?? ""}`;
    if (this.#cache.has(id)) return this.#cache.get(id)!;
    const data = read(ref, key);
    let value = data;
    if (query !== undefined) {
      try {
        value = (search(data as never, query) ?? null) as JsonValue;
      } catch (e) {
        throw new RuleError(
          `jmespath query '${query}' failed: ${e instanceof Error ? e.message : String(e)}`,
          key,
          "jmespath_error",
        );
      }
    }
    this.#cache.set(id, value);
    return value;
  }
}

/** A header failure: reported once per chunk at the header key's line. */
export class HeaderError extends RuleError {
  /**
   * Wraps a rule error raised while evaluating a header entry.
   *
   * @param cause the underlying rule error
   * @param dynamic whether the entry depends on the iteration (origin) context
   */
  constructor(cause: RuleError, readonly dynamic: boolean) {
    super(cause.message, cause.key, cause.code, cause.template);
    this.name = "HeaderError";
  }
}

/**
 * Evaluates header entries in document order into `vars` (mutated and returned). `context` is
 * the template context; each evaluated key is added to it so later keys can use earlier ones.
 * With `onlyDynamic`, static entries are skipped (they were evaluated once beforehand).
 */
export function evaluateHeader(
  header: readonly CompiledHeader[],
  context: Record<string, unknown>,
  env: HeaderEnv,
  cache: JsonQueryCache,
  vars: Record<string, unknown> = {},
  onlyDynamic = false,
): Record<string, unknown> {
  for (const h of header) {
    if (onlyDynamic && h.static) continue;
    if (!onlyDynamic && !h.static) continue;
    let value: unknown;
    try {
      value = evaluateEntry(h, context, env, cache);
    } catch (e) {
      if (e instanceof RuleError && !(e instanceof HeaderError)) {
        throw new HeaderError(new RuleError(e.message, h.key, e.code, e.template), !h.static);
      }
      throw e;
    }
    vars[h.key] = value;
    context[h.key] = value;
  }
  return vars;
}

function evaluateEntry(
  h: CompiledHeader,
  context: Record<string, unknown>,
  env: HeaderEnv,
  cache: JsonQueryCache,
): unknown {
  const f = h.form;
  switch (f.kind) {
    case "static":
      return f.value;
    case "template":
      return env.render(f.source, context, h.key);
    case "json": {
      const ref = isTemplate(f.ref) ? env.render(f.ref, context, h.key).trim() : f.ref;
      return cache.get(ref, f.query, env.readJson, h.key);
    }
    case "block":
      return interpretBlockOutput(env.render(f.source, context, h.key));
  }
}

/**
 * Interprets `template!` output (M3, M5): JSON when it parses; a Tera-displayed list
 * `[a, b, c]` becomes a list of trimmed strings; anything else is the trimmed string.
 *
 * A JSON array or object keeps its text: templates query it as structure
 * (`list | nth(n=0)`, `jmespath`, loops) but `{{ list }}` prints the JSON the block wrote,
 * not Tera's `[[object]]` display. Real modules rely on both (public_dns writes
 * `provider_roles = "{{ provider_roles_json }}"` and parses it back in Jsonnet;
 * aws-region-module indexes `subnet_list | nth(…)`).
 *
 * @example
 * ```ts
 * import { interpretBlockOutput } from "./header.ts";
 * console.log(interpretBlockOutput(' ["a","b"] ')); // ["a", "b"] (prints as ["a","b"])
 * console.log(interpretBlockOutput("[a, b]")); // ["a", "b"]
 * console.log(interpretBlockOutput(" gateway\n")); // "gateway"
 * ```
 */
export function interpretBlockOutput(output: string): JsonValue {
  const t = output.trim();
  if (t === "") return "";
  try {
    const parsed = JSON.parse(t) as JsonValue;
    return parsed !== null && typeof parsed === "object" ? withSourceText(parsed, t) : parsed;
  } catch {
    // not JSON
  }
  if (t.startsWith("[") && t.endsWith("]")) {
    const inner = t.slice(1, -1).trim();
    if (inner === "") return [];
    return inner.split(",").map((s) => s.trim());
  }
  return t;
}
