/**
 * Expansion of every layer's action files against one build (reference AC5): each file is parsed
 * and expanded on its own, so a file that does not parse, whose `match_on` cannot be evaluated
 * (a template error), or that produces a concrete name an earlier file of its module already
 * produced is left out and reported, located, while the other files still expand.
 *
 * @module
 */
import type { ActionTemplate } from "./declarations.ts";
import { parseActionFile } from "./declarations.ts";
import { ActionConfigError } from "./errors.ts";
import { type ConcreteAction, expandActions, type RenderScope } from "./expand.ts";
import { locateKey } from "./locate.ts";

/** One layer's action files (an `ActionLayer` fits). */
export interface ActionFiles {
  /** Module id of the layer. */
  id: string;
  /** `actions/*.toml` files: display path and text. */
  files: readonly { displayPath: string; text: string }[];
}

/** An expansion failure of template `t` (AC5), located at its `match_on` when possible. */
function expansionError(
  e: unknown,
  t: ActionTemplate,
  text: string | undefined,
): ActionConfigError {
  if (e instanceof ActionConfigError) return e;
  const reason = `match_on cannot be evaluated: ${e instanceof Error ? e.message : String(e)}`;
  const at = text !== undefined && t.matchOn ? locateKey(text, ["match_on"]) : undefined;
  return new ActionConfigError("action_expand", t.file, reason, at?.line, at?.column);
}

/**
 * Parses and expands every layer's files: the concrete actions (by layer, then by name), one
 * located error per file left out and the located `unknown_key` warnings of the files read.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * import { expandLayers } from "./expand_layers.ts";
 * const files = [
 *   { displayPath: "actions/a.toml", text: 'name = "a"\nexec = [["true"]]\n' },
 *   { displayPath: "actions/b.toml", text: 'name = "b"\n' },
 * ];
 * const r = expandLayers([{ id: "data", files }], { graph: new Graph(), params: {}, templates: createTemplateRenderer() });
 * console.log(r.actions.map((a) => a.name), r.errors[0].file); // ["a"] "actions/b.toml"
 * ```
 */
export function expandLayers(
  layers: readonly ActionFiles[],
  build: RenderScope,
): { actions: ConcreteAction[]; errors: ActionConfigError[]; warnings: ActionConfigError[] } {
  const errors: ActionConfigError[] = [];
  const warnings: ActionConfigError[] = [];
  const actions: ConcreteAction[] = [];
  for (const layer of layers) {
    const texts = new Map(layer.files.map((f) => [f.displayPath, f.text]));
    const templates: ActionTemplate[] = [];
    for (const f of layer.files) {
      try {
        const t = parseActionFile(f.text, f.displayPath, layer.id);
        templates.push(t);
        warnings.push(...t.warnings);
      } catch (e) {
        if (!(e instanceof ActionConfigError)) throw e;
        errors.push(e);
      }
    }
    // Each file expands on its own: a template error in one `match_on` (or a name another
    // file already produced) leaves that file out, not the others (AC5).
    const owner = new Map<string, string>();
    const expanded: ConcreteAction[] = [];
    for (const t of templates) {
      let mine: ConcreteAction[];
      try {
        mine = expandActions([t], build);
      } catch (e) {
        errors.push(expansionError(e, t, texts.get(t.file)));
        continue;
      }
      const dup = mine.find((a) => owner.has(a.name));
      if (dup) {
        errors.push(
          new ActionConfigError(
            "action_duplicate",
            t.file,
            `action '${dup.name}' of module '${layer.id}' is also produced by ${
              owner.get(dup.name)
            }; this file is left out`,
          ),
        );
        continue;
      }
      for (const a of mine) owner.set(a.name, t.file);
      expanded.push(...mine);
    }
    actions.push(...expanded.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return { actions, errors, warnings };
}
