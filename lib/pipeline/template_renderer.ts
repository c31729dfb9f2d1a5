/**
 * The template renderer a build hands to its phases. A module of its own so that rule modules
 * (`rules/scope.ts`) can name it without importing the phase context, which imports them back
 * through the memos it carries.
 *
 * @module
 */

/** Renders Tera templates with the engine's filters and functions registered. */
export interface TemplateRenderer {
  /**
   * Renders `source` with `context`. `name` identifies the template in error messages, e.g.
   * `models/net.toml: create_resource[0].name`. Throws `TemplateError` on failure.
   */
  render(source: string, context: Record<string, unknown>, name: string): string;
  /**
   * Restarts `counter()` sequences. The model phase calls it before every pass so repeated
   * passes render the same values and can converge.
   */
  resetCounters?(): void;
}
