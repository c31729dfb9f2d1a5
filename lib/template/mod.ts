/**
 * A Tera-compatible template engine (the dialect targeted is Tera 1.20; see DIFFERENCES.md).
 *
 * Templates are parsed once into closures and cached. Autoescaping is off. Context values are
 * plain JS values read lazily (objects may have getters; only what a template touches is
 * read). A JS number that is an integer is an int, any other number is a float; wrap an
 * integral float (TOML `1.0`) in {@link TeraFloat} to keep it a float.
 *
 * @example
 * ```ts
 * import { renderTemplate } from "./mod.ts";
 * renderTemplate("{{ name | upper }}", { name: "web" }); // "WEB"
 * ```
 * @module
 */

import { TemplateEnvironment } from "./environment.ts";

export { CompiledTemplate, type EnvironmentOptions, TemplateEnvironment } from "./environment.ts";
export type { FilterFn, FunctionFn, TestFn } from "./environment.ts";
export { TemplateError } from "./errors.ts";
export { DEFAULT_LIMITS, type TemplateLimits } from "./budget.ts";
export { parseJsonPreservingFloats, TeraFloat, withSourceText } from "./value.ts";

let shared: TemplateEnvironment | undefined;

/**
 * Renders a template with the built-in filters, tests and functions.
 * Throws {@link TemplateError} on a syntax or render error.
 *
 * @example
 * ```ts
 * import { renderTemplate } from "./mod.ts";
 * const out = renderTemplate("{% for x in xs %}{{ x }}{% if not loop.last %},{% endif %}{% endfor %}", {
 *   xs: [1, 2, 3],
 * });
 * // out === "1,2,3"
 * ```
 */
export function renderTemplate(template: string, context: Record<string, unknown>): string {
  shared ??= new TemplateEnvironment();
  return shared.render(template, context);
}
