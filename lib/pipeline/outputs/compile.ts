/**
 * Compiling `[[output]]` blocks (reference OU3–OU4, spec §2.4) and finding output rule files.
 *
 * @module
 */
import type { RuleBlock, TextPosition } from "../../formats/toml.ts";
import { compileConditions, type Condition } from "../rules/conditions.ts";
import { RuleError } from "../rules/errors.ts";
import { filesIn, type SourceFile, type SourceSet } from "../../workspace/sources.ts";

/** The body of an output rule: a Tera template or a Jsonnet program. */
export interface OutputBody {
  /** Which language. */
  kind: "template" | "jsonnet";
  /** Program text. */
  source: string;
  /** Position of the key in the rule file. */
  position?: TextPosition;
}

/** A compiled `[[output]]` rule. */
export interface OutputRule {
  /** Type of the created output resource. */
  resourceType: string;
  /** Name template. */
  name: string;
  /** Conditions on the origin. */
  matchOn?: Condition;
  /** File name template. */
  filename?: string;
  /** MIME type. */
  mimetype?: string;
  /** The body. */
  body: OutputBody;
}

const KNOWN_KEYS = new Set([
  "resource_type",
  "name",
  "match_on",
  "filename",
  "mimetype",
  "template",
  "jsonnet",
  "description",
]);

/**
 * Compiles one `[[output]]` block; shape errors throw {@link RuleError} naming the key. Unknown
 * keys are returned as warnings.
 *
 * @example
 * ```ts ignore
 * const { rule, warnings } = compileOutputRule(block);
 * ```
 */
export function compileOutputRule(block: RuleBlock): { rule: OutputRule; warnings: string[] } {
  const b = block.body;
  const warnings = Object.keys(b)
    .filter((k) => !KNOWN_KEYS.has(k))
    .map((k) => `unknown key '${k}' in [[output]] (ignored)`);
  const str = (k: string, required: boolean): string | undefined => {
    const v = b[k];
    if (v === undefined) {
      if (required) throw new RuleError(`[[output]] needs '${k}'`, k, "output_rule");
      return undefined;
    }
    if (typeof v !== "string") throw new RuleError(`'${k}' must be a string`, k, "output_rule");
    return v;
  };
  const resourceType = str("resource_type", true)!.trim();
  if (resourceType === "") {
    throw new RuleError("'resource_type' must not be empty", "resource_type", "output_rule");
  }
  const name = str("name", true)!;
  const template = str("template", false);
  const jsonnet = str("jsonnet", false);
  // OU4 / spec §2.4 rule 1: exactly one body.
  if (template !== undefined && jsonnet !== undefined) {
    throw new RuleError(
      "[[output]] has both 'template' and 'jsonnet'; exactly one is allowed",
      "jsonnet",
      "output_body",
    );
  }
  if (template === undefined && jsonnet === undefined) {
    throw new RuleError(
      "[[output]] needs exactly one of 'template' or 'jsonnet'",
      undefined,
      "output_body",
    );
  }
  const kind = template !== undefined ? "template" : "jsonnet";
  return {
    rule: {
      resourceType,
      name,
      matchOn: b.match_on === undefined ? undefined : compileConditions(b.match_on, "match_on"),
      filename: str("filename", false),
      mimetype: str("mimetype", false)?.trim(),
      body: { kind, source: (template ?? jsonnet)!, position: block.keys.get(kind) },
    },
    warnings,
  };
}

/** Extensions of Jsonnet import files in `output/` (never rule files). */
export const IMPORT_EXTENSIONS: readonly string[] = [".libsonnet", ".jsonnet"];

const OUTPUT_TABLE = /^[ \t]*\[\[[ \t]*output[ \t]*\]\]/m;

/**
 * Output rule files of every layer in rule order. `*.toml` files always are; a file with another
 * extension is one when it holds an `[[output]]` table (published modules ship the same TOML
 * under `ociExample.tf`). Jsonnet imports and other files are returned as `ignored`.
 *
 * @example
 * ```ts ignore
 * const { rules, ignored } = outputRuleFiles(ctx.sources);
 * ```
 */
export function outputRuleFiles(
  sources: SourceSet,
): { rules: SourceFile[]; ignored: SourceFile[] } {
  const rules: SourceFile[] = [];
  const ignored: SourceFile[] = [];
  for (const f of filesIn(sources, "output")) {
    if (IMPORT_EXTENSIONS.some((e) => f.relPath.endsWith(e))) continue;
    if (f.relPath.endsWith(".toml") || OUTPUT_TABLE.test(f.text)) rules.push(f);
    else ignored.push(f);
  }
  return { rules, ignored };
}

/**
 * Maps a line inside a multi-line TOML string value to the line of the rule file: the value
 * starts on the key's line, or on the next one when the opening quotes end the line (TOML drops
 * that newline).
 *
 * @example
 * ```ts
 * import { fileLineOf } from "./compile.ts";
 * console.log(fileLineOf("a = 1\njsonnet = '''\nx\n'''", { line: 2, column: 1 }, 1)); // 3
 * ```
 */
export function fileLineOf(
  text: string,
  key: TextPosition | undefined,
  inner: number,
): number | undefined {
  if (!key || inner < 1) return undefined;
  const keyLine = text.split("\n", key.line)[key.line - 1] ?? "";
  const opensAlone = /=\s*('''|""")\s*\r?$/.test(keyLine);
  return key.line + inner - (opensAlone ? 0 : 1);
}
