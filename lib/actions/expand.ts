/**
 * Expansion (reference AC4, AC5) and rendering (AC3) of actions. A template with
 * `origin_resource` becomes one concrete action per matching resource, named
 * `<template>-<resource name>`; a file without it is one global action. The template context
 * holds `input`, `origin_resource` (the resource view with relation traversal, T12), `params`
 * and each parameter at top level, `secrets.<NAME>` (rendered as the literal placeholder
 * `{{ secrets.NAME }}`, resolved only inside the runner, AC20) and `action`.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../graph/graph.ts";
import type { TemplateRenderer } from "../pipeline/context.ts";
import { evaluateCondition } from "../pipeline/rules/conditions.ts";
import { resourceView } from "../pipeline/rules/view.ts";
import { isTemplate } from "../pipeline/rules/scope.ts";
import type { ActionTemplate } from "./declarations.ts";
import { ActionConfigError } from "./errors.ts";

/** One concrete action (AC4). */
export interface ConcreteAction {
  /** Declaring layer (`data` or module id). */
  module: string;
  /** Concrete name (`restart-web-1`, or the template name for a global action). */
  name: string;
  /** The template it was expanded from. */
  template: ActionTemplate;
  /** The origin resource, for expanded templates. */
  origin?: { type: string; name: string };
}

/** What rendering needs from the build. */
export interface RenderScope {
  /** The published graph. */
  graph: Graph;
  /** Parameter values of the build. */
  params: Readonly<Record<string, JsonValue>>;
  /** The build's template renderer. */
  templates: TemplateRenderer;
}

/** The rendered, secret-free parts of one run (AC3, AC20). */
export interface RenderedAction {
  /** argv arrays, rendered. */
  exec: string[][];
  /** `[env]`, rendered, in declaration order. */
  env: [string, string][];
  /** `[[file]]` templates, rendered (copied `source` files are added by the bundle). */
  files: { path: string; text: string }[];
}

/** The placeholder left for a secret in rendered text (AC20). */
export function secretPlaceholder(name: string): string {
  return `{{ secrets.${name} }}`;
}

function baseContext(
  action: ConcreteAction | { template: ActionTemplate; name: string; module: string },
  origin: Resource | undefined,
  scope: RenderScope,
): Record<string, unknown> {
  const secrets: Record<string, string> = {};
  for (const [name] of action.template.vaultSecrets) secrets[name] = secretPlaceholder(name);
  return {
    ...scope.params,
    params: scope.params,
    origin_resource: origin ? resourceView(scope.graph, origin) : null,
    secrets,
    action: { name: action.name, template: action.template.name, module: action.module },
  };
}

/**
 * Expands every template against `graph`, sorted by module and name. Two expansions with the
 * same concrete name in one module throw {@link ActionConfigError} naming both files (AC5).
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * import { parseActionFile } from "./declarations.ts";
 * import { expandActions } from "./expand.ts";
 * const g = new Graph();
 * g.upsertResource("host", "web-1");
 * const t = parseActionFile('name = "do-thing"\norigin_resource = "host"\nexec = [["true"]]\n', "actions/a.toml", "data");
 * const [a] = expandActions([t], { graph: g, params: {}, templates: createTemplateRenderer() });
 * console.log(a.name); // "do-thing-web-1"
 * ```
 */
export function expandActions(
  templates: readonly ActionTemplate[],
  scope: RenderScope,
): ConcreteAction[] {
  const out: ConcreteAction[] = [];
  const seen = new Map<string, string>();
  const add = (a: ConcreteAction) => {
    const key = `${a.module}\u0000${a.name}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw new ActionConfigError(
        "action_duplicate",
        a.template.file,
        `action '${a.name}' of module '${a.module}' is also produced by ${other}`,
      );
    }
    seen.set(key, a.template.file);
    out.push(a);
  };
  for (const t of templates) {
    if (t.originResource === undefined) {
      add({ module: t.module, name: t.name, template: t });
      continue;
    }
    for (const r of scope.graph.resourcesOfSorted(t.originResource)) {
      const concrete = { module: t.module, name: `${t.name}-${r.name}`, template: t };
      if (t.matchOn) {
        // The context (a resource view) is built only when a condition really is a template.
        let context: Record<string, unknown> | undefined;
        const matches = evaluateCondition(t.matchOn, r, {
          graph: scope.graph,
          render: (source, key) =>
            isTemplate(source)
              ? scope.templates.render(
                source,
                context ??= baseContext(concrete, r, scope),
                `${t.file}: ${key}`,
              )
              : source,
        });
        if (!matches) continue;
      }
      add({ ...concrete, origin: { type: t.originResource, name: r.name } });
    }
  }
  return out.sort((a, b) =>
    a.module < b.module
      ? -1
      : a.module > b.module
      ? 1
      : a.name < b.name
      ? -1
      : a.name > b.name
      ? 1
      : 0
  );
}

/**
 * Renders `exec`, `[env]` and `[[file]]` templates of `action` with validated `inputs` (AC3).
 * Throws `TemplateError` (named `<file>: exec[i][j]`, …) when a template fails.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * import { parseActionFile } from "./declarations.ts";
 * import { renderAction } from "./expand.ts";
 * const t = parseActionFile('name = "x"\nexec = [["echo", "{{ input.zone }}"]]\n', "actions/x.toml", "data");
 * const g = new Graph();
 * const r = renderAction({ module: "data", name: "x", template: t }, { zone: "dmz" }, { graph: g, params: {}, templates: createTemplateRenderer() });
 * console.log(r.exec); // [["echo", "dmz"]]
 * ```
 */
export function renderAction(
  action: ConcreteAction,
  inputs: Readonly<Record<string, JsonValue>>,
  scope: RenderScope,
): RenderedAction {
  const origin = action.origin
    ? scope.graph.getResource(action.origin.type, action.origin.name)
    : undefined;
  const context = { ...baseContext(action, origin, scope), input: inputs };
  const t = action.template;
  const render = (source: string, key: string) =>
    /\{[{%#]/.test(source) ? scope.templates.render(source, context, `${t.file}: ${key}`) : source;
  return {
    exec: t.exec.map((argv, i) => argv.map((a, j) => render(a, `exec[${i}][${j}]`))),
    env: t.env.map(([k, v]) => [k, render(v, `env.${k}`)]),
    files: t.files.filter((f) => f.template !== undefined).map((f) => ({
      path: f.path,
      text: render(f.template!, `file.${f.path}`),
    })),
  };
}
