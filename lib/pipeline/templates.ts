/**
 * The template renderer of one build: the Tera dialect with the engine's additions (jmespath,
 * sha256, counters, CIDR helpers, …). Counters are global for one build and start at zero in the
 * next, so every build renders the same output for the same input.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { TemplateEnvironment } from "../template/mod.ts";
import { BuildCounters, createEngineExtensions } from "../template/extensions/mod.ts";
import type { TemplateRenderer } from "./context.ts";
import { BuildRandom } from "./models/random.ts";

/** Options of {@link createTemplateRenderer}. */
export interface TemplateRendererOptions {
  /** Clock read once per build for `now()` (tests pin it). */
  clock?: () => Date;
  /** Seed of `get_random()` for this build (tests pin it; default: fresh entropy). */
  seed?: number;
}

/**
 * Creates the renderer for one build.
 *
 * @example
 * ```ts
 * import { createTemplateRenderer } from "./templates.ts";
 * const r = createTemplateRenderer({});
 * r.render("{{ counter(key='a') }}{{ counter(key='a') }}", {}, "example"); // "01"
 * ```
 */
export function createTemplateRenderer(
  _params: Readonly<Record<string, JsonValue>> = {},
  options: TemplateRendererOptions = {},
): TemplateRenderer {
  // One instant per build: `now()` must not differ between model passes (or they never converge).
  const instant = (options.clock ?? (() => new Date()))().getTime();
  const counters = new BuildCounters();
  const extensions = createEngineExtensions({ counters, clock: () => new Date(instant) });
  // Random values are stable within a build and restart with counters each pass (models/random.ts).
  const random = new BuildRandom(options.seed);
  const env = new TemplateEnvironment({
    filters: extensions.filters,
    functions: { ...extensions.functions, get_random: (a) => random.getRandom(a) },
    tests: extensions.tests,
  });
  return {
    render: (source, context, name) => env.render(source, context, name),
    resetCounters: () => {
      counters.reset();
      random.reset();
    },
  };
}
