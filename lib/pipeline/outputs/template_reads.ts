/**
 * What a Tera output rule (`template = …`) reads, so that the output memo (`output_memo.ts`) can
 * keep its rendered result for an origin from one build to the next: the rule is a function of
 * its texts, the build's parameters and header values (the incremental builder starts a new memo
 * when any of those files change) and the fields of `origin_resource` its templates and
 * `match_on` name. The analysis is static and conservative ({@link ReadCollector}): a rule that
 * uses `origin_resource` as a whole, follows a relation (`origin_resource.vm[0]`), includes or
 * imports other templates, or calls a function whose value is not a function of its arguments
 * within one build (`now()`, `counter()`, `get_random()`, `vault()`) is not kept.
 *
 * @module
 */
import type { CompiledHeader } from "../rules/header.ts";
import { ReadCollector, someString, UNTRACKED_ACROSS_BUILDS } from "../rules/read_collector.ts";
import type { OutputRule } from "./compile.ts";

/** How a Tera output rule's results are kept: its signature and the origin fields it reads. */
export interface TemplateReads {
  /** The rule's texts, compared with those of the kept result. */
  signature: string;
  /** Fields of `origin_resource` read (property names; relation field keys disqualify). */
  fields: readonly string[];
}

/**
 * The reads of Tera output `rule` of a chunk with origin type `originType` and `header`, or
 * `undefined` when its results cannot be kept (see the module doc).
 *
 * @example
 * ```ts
 * import { templateOutputReads } from "./template_reads.ts";
 * const rule = {
 *   resourceType: "card", name: "card-{{ origin_resource.name }}",
 *   body: { kind: "template" as const, source: "{{ origin_resource.env | upper }}" },
 * };
 * console.log(templateOutputReads("host", rule, [])?.fields); // ["name", "env"]
 * console.log(templateOutputReads("host", { ...rule, name: "{{ now() }}" }, [])); // undefined
 * ```
 */
export function templateOutputReads(
  originType: string | undefined,
  rule: OutputRule,
  header: readonly CompiledHeader[],
): TemplateReads | undefined {
  if (originType === undefined || rule.body.kind !== "template") return undefined;
  const texts = [
    rule.resourceType,
    rule.name,
    rule.filename ?? null,
    rule.mimetype ?? null,
    rule.body.source,
    rule.matchOn ?? null,
    header,
  ];
  if (someString(texts, (s) => UNTRACKED_ACROSS_BUILDS.test(s))) return undefined;
  const signature = JSON.stringify(texts);
  const c = new ReadCollector();
  const roots = { origin_resource: originType };
  c.header(header, roots);
  c.condition(rule.matchOn, originType, roots);
  for (const s of [rule.name, rule.filename, rule.body.source]) {
    if (s !== undefined) c.template(s, roots);
  }
  if (c.all || c.impure) return undefined;
  for (const type of c.fields.keys()) if (type !== originType) return undefined;
  return { signature, fields: [...(c.fields.get(originType) ?? [])] };
}
