/**
 * The folders of a layer (the data directory or a module) that builds read, and which of them
 * hold rules.
 *
 * @module
 */

/** Folders read into a layer (relative to the layer root). */
export const LAYER_FOLDERS = [
  "assets",
  "input",
  "models",
  "compliance",
  "output",
  "schemas",
  "contracts",
  "actions",
] as const;

/**
 * Folders whose files are rules (models, compliance, outputs) or what rules read beside them
 * (templates, Jsonnet libraries).
 *
 * @example
 * ```ts
 * import { RULE_FOLDERS } from "./folders.ts";
 * console.log(RULE_FOLDERS.includes("models")); // true
 * ```
 */
export const RULE_FOLDERS: readonly string[] = ["models", "compliance", "output"];
