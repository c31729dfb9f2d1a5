/**
 * Template scope of rule evaluation (reference T2, T11, M6, MP27): which variables a template
 * sees and how rule strings are rendered.
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";
import type { TemplateRenderer } from "../template_renderer.ts";
import { RuleError, templateFailureOf } from "./errors.ts";

/** True when `text` contains Tera syntax (`{{`, `{%` or `{#`); other strings are verbatim (T2). */
export function isTemplate(text: string): boolean {
  return text.includes("{{") || text.includes("{%") || text.includes("{#");
}

/**
 * Renders through `renderer`, turning engine failures into a {@link RuleError} carrying `key`
 * and the template position. Strings without template syntax are returned unchanged.
 *
 * @example
 * ```ts
 * import { renderRuleString } from "./scope.ts";
 * const r = { render: (s: string) => s.toUpperCase() };
 * console.log(renderRuleString(r, "plain", {}, "m.toml: name", "name")); // "plain"
 * ```
 */
export function renderRuleString(
  renderer: TemplateRenderer,
  source: string,
  context: Record<string, unknown>,
  name: string,
  key: string,
): string {
  if (!isTemplate(source)) return source;
  try {
    return renderer.render(source, context, name);
  } catch (e) {
    if (e instanceof RuleError) throw e;
    const reason = (e as { reason?: unknown })?.reason;
    const message = typeof reason === "string"
      ? reason
      : e instanceof Error
      ? e.message
      : String(e);
    throw new RuleError(
      `template error in ${key}: ${message}`,
      key,
      "template_error",
      templateFailureOf(e, name),
    );
  }
}

/**
 * Renders every string of a TOML value (arrays and tables recursively, M13); other values are
 * returned as they are.
 */
export function renderDeep(
  value: JsonValue,
  render: (source: string, key: string) => string,
  key: string,
): JsonValue {
  if (typeof value === "string") return render(value, key);
  if (Array.isArray(value)) return value.map((v, i) => renderDeep(v, render, `${key}[${i}]`));
  if (value && typeof value === "object") {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renderDeep(v, render, `${key}.${k}`);
    return out;
  }
  return value;
}

/** Variables a rule file's templates see, before per-origin additions. */
export interface ScopeBase {
  /** Module parameters (`params.<name>` and top-level `<name>`). */
  params: Readonly<Record<string, JsonValue>>;
  /** `module` variable: identity of the layer that holds the file, when it has a manifest. */
  module?: Readonly<Record<string, JsonValue>>;
  /** `RESOURCE_ALIASES` (old type → aliased type), empty when no dependency declares any. */
  resourceAliases?: Readonly<Record<string, string>>;
}

/** Names a header key may not use (reference M7). */
export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  "origin_resource",
  "params",
  "env",
  "value",
  "property",
  "target_resource",
  "input",
  "RESOURCE_ALIASES",
  "origin_resource_counter",
]);

/**
 * Builds a template context: parameters as top-level variables, `params`, `module`,
 * `RESOURCE_ALIASES`, then `vars` (header variables shadow parameters, never `params`), then
 * `extra` (origin_resource, value, property, counters…), which wins over everything.
 *
 * @example
 * ```ts
 * import { buildContext } from "./scope.ts";
 * const c = buildContext({ params: { stage: "DEV" } }, { stage: "prod" }, {});
 * console.log(c.stage, (c.params as { stage: string }).stage); // "prod" "DEV"
 * ```
 */
export function buildContext(
  base: ScopeBase,
  vars: Readonly<Record<string, unknown>>,
  extra: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const ctx: Record<string, unknown> = { ...base.params };
  ctx.params = base.params;
  if (base.module) ctx.module = base.module;
  ctx.RESOURCE_ALIASES = base.resourceAliases ?? {};
  for (const k in vars) ctx[k] = vars[k];
  for (const k in extra) ctx[k] = extra[k];
  return ctx;
}
