/**
 * Errors raised while evaluating rules, and how they become build issues with a location
 * (file, chunk, rule index, key, origin resource, template position; reference O12, T3).
 *
 * @module
 */
import type { IssueCollector } from "../issues.ts";
import type { RuleBlock, RuleChunk, TextPosition } from "../../formats/toml.ts";

/** Where a template failed, as far as the template engine reports it. */
export interface TemplateFailure {
  /** Template name given to the renderer (e.g. `models/x.toml: create_resource[0].name`). */
  name: string;
  /** 1-based line inside the template, when reported. */
  line?: number;
  /** 1-based column inside the template, when reported. */
  column?: number;
}

/**
 * A failure of one rule evaluation. `key` names the rule key at fault (`name`,
 * `properties.owner`, `match_on[1].value`, header `regions`); the runner maps it to a line.
 *
 * @example
 * ```ts
 * import { RuleError } from "./errors.ts";
 * const e = new RuleError("create_from.list must name a list", "create_from");
 * console.log(e.key); // "create_from"
 * ```
 */
export class RuleError extends Error {
  /** Stable issue code. */
  readonly code: string;
  /** Rule key at fault, dotted. */
  readonly key?: string;
  /** Template position, for template failures. */
  readonly template?: TemplateFailure;

  /**
   * Creates a rule error.
   *
   * @param message what went wrong
   * @param key rule key at fault
   * @param code stable issue code (default `rule_error`)
   * @param template template position for render failures
   */
  constructor(message: string, key?: string, code = "rule_error", template?: TemplateFailure) {
    super(message);
    this.name = "RuleError";
    this.key = key;
    this.code = code;
    this.template = template;
  }
}

/** Identifies a rule block inside a file, for messages. */
export interface RuleSite {
  /** File shown to users. */
  file: string;
  /** The chunk holding the block. */
  chunk: RuleChunk;
  /** The block, or undefined for header errors. */
  block?: RuleBlock;
}

/**
 * The rule label used in issues: `chunk 2, create_resource[0].name`.
 *
 * @example
 * ```ts
 * import { ruleLabel } from "./errors.ts";
 * console.log(ruleLabel(1, "link_resources", 3, "join")); // "chunk 1, link_resources[3].join"
 * ```
 */
export function ruleLabel(chunk: number, kind?: string, index?: number, key?: string): string {
  let label = `chunk ${chunk}`;
  if (kind !== undefined) {
    label += `, ${kind}[${index ?? 0}]`;
    if (key) label += `.${key}`;
  } else if (key) label += `, header ${key}`;
  return label;
}

/** Finds the best known position of `key` in a block (longest known prefix of the key). */
export function positionOf(site: RuleSite, key?: string): TextPosition | undefined {
  if (!site.block) {
    if (key) {
      const head = key.split(/[.[]/)[0];
      const h = site.chunk.header.find((e) => e.key === head);
      if (h?.position) return h.position;
    }
    return site.chunk.originPosition ?? { line: site.chunk.startLine, column: 1 };
  }
  if (key) {
    let k = key.replace(/\[\d+\]/g, "");
    while (k) {
      const p = site.block.keys.get(k);
      if (p) return p;
      const dot = k.lastIndexOf(".");
      if (dot < 0) break;
      k = k.slice(0, dot);
    }
  }
  return site.block.position;
}

/**
 * Reports `error` as a build error at `site`. Non-{@link RuleError} exceptions are reported too
 * (code `rule_internal`), never swallowed.
 */
export function reportRuleError(
  issues: IssueCollector,
  phase: string,
  site: RuleSite,
  error: unknown,
  origin?: { type: string; name: string },
): void {
  const re = error instanceof RuleError ? error : undefined;
  const key = re?.key;
  const pos = positionOf(site, key);
  let message = error instanceof Error ? error.message : String(error);
  if (origin) message += ` (origin ${origin.type} '${origin.name}')`;
  if (re?.template?.line !== undefined) {
    message += ` [template ${re.template.name}:${re.template.line}` +
      (re.template.column !== undefined ? `:${re.template.column}` : "") + "]";
  }
  issues.error(re?.code ?? "rule_internal", message, {
    file: site.file,
    line: pos?.line,
    column: pos?.column,
    rule: ruleLabel(site.chunk.number, site.block?.kind, site.block?.index, key),
    phase,
    origin: origin ? `${origin.type} '${origin.name}'` : undefined,
  });
}

/** Reads location fields a template engine error may carry (duck-typed). */
export function templateFailureOf(error: unknown, name: string): TemplateFailure {
  const e = error as {
    line?: unknown;
    column?: unknown;
    location?: { line?: unknown; column?: unknown };
  };
  const line = typeof e?.line === "number"
    ? e.line
    : typeof e?.location?.line === "number"
    ? e.location.line
    : undefined;
  const column = typeof e?.column === "number"
    ? e.column
    : typeof e?.location?.column === "number"
    ? e.location.column
    : undefined;
  return { name, line, column };
}
