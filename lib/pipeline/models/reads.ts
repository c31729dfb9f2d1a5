/**
 * What a model rule block reads from the graph, found statically and conservatively, so the
 * fixpoint loop can skip a block in a later pass when nothing it reads has changed since it last
 * ran and nobody overwrote what it wrote (`GraphWriter.changedSince`, `writtenSince`): re-running
 * it would then write exactly what is already there, so skipping changes no result.
 *
 * A read is a (resource type, field) pair. Fields are property names or relation field keys
 * (they share one namespace in templates, reference T14) plus two pseudo fields:
 * {@link MEMBERS} (which resources of the type exist) and {@link RELATIONS} (the relations
 * touching resources of the type, with their properties). Anything the analysis cannot pin down
 * — a template that uses `origin_resource` as a whole, follows a relation
 * (`origin_resource.vm[0].name`), dotted property paths, legacy `from` pulls — reads
 * everything. Blocks that call `counter()` or `get_random()` are never skipped: their output
 * depends on evaluation order or chance, not on the graph.
 *
 * @module
 */
import type { CompiledHeader } from "../rules/header.ts";
import type { LinkRule, ModelRule } from "./compile.ts";
import { ReadCollector } from "../rules/read_collector.ts";

/** Pseudo field: the set of resources of a type. */
export const MEMBERS = "@members";
/** Pseudo field: the relations touching resources of a type (structure and properties). */
export const RELATIONS = "@relations";
/** Field wildcard: every field of a type. */
export const ANY_FIELD = "*";

/** The reads of a block: `"all"`, or fields per type (may contain {@link ANY_FIELD}). */
export type ReadSet = "all" | Map<string, Set<string>>;

/**
 * The reads of one block of a chunk whose origin type is `originType`; `header` holds the
 * chunk's header entries (dynamic ones are evaluated for every iteration of every block).
 *
 * @example
 * ```ts
 * import { blockReads } from "./reads.ts";
 * const r = blockReads("host", {
 *   kind: "create_resource", resourceType: "vm", name: "{{ origin_resource.name }}-vm",
 *   properties: { env: "{{ origin_resource.env | upper }}" },
 * }, []);
 * console.log(r.reads !== "all" && [...r.reads.get("host")!]); // ["@members", "name", "env"]
 * console.log(r.impure); // false (true when a template calls counter() or get_random())
 * ```
 */
export function blockReads(
  originType: string | undefined,
  rule: ModelRule,
  header: readonly CompiledHeader[],
): { reads: ReadSet; impure: boolean } {
  const c = new ReadCollector();
  const roots: Record<string, string | undefined> = { origin_resource: originType };
  if (originType !== undefined) c.add(originType, MEMBERS);
  c.header(header, roots);
  switch (rule.kind) {
    case "create_resource": {
      c.condition(rule.matchOn, originType, roots);
      for (const s of [rule.resourceType, rule.name, rule.relationType]) {
        if (s !== undefined) c.template(s, roots);
      }
      c.deep(rule.properties, roots);
      if (rule.relationProperties) c.deep(rule.relationProperties, roots);
      const cf = rule.createFrom;
      if (cf?.propertyOrigin !== undefined) c.all = true;
      else if (cf?.property !== undefined) c.path(originType, cf.property);
      if (rule.copyFrom) {
        // The referenced resource is found by property or by relation, then read.
        c.add(originType, rule.copyFrom.property);
        c.add(originType, RELATIONS);
        c.add(rule.copyFrom.property, MEMBERS);
        c.add(rule.copyFrom.property, ANY_FIELD);
      }
      break;
    }
    case "link_resources":
      linkReads(c, rule, originType);
      break;
    case "copy_property": {
      if (rule.from !== undefined) {
        c.all = true; // legacy pull paths follow relations
        break;
      }
      c.add(originType, RELATIONS);
      c.add(rule.to!, RELATIONS);
      c.condition(rule.matchOn, rule.to, roots);
      for (const spec of rule.properties) c.path(originType, spec.from);
      break;
    }
    case "retype_relation":
      break;
  }
  return { reads: c.all ? "all" : c.fields, impure: c.impure };
}

/**
 * Notes what a `link_resources` block reads into `c`, the origin's reads under `origin` (its
 * type, or a pseudo type for reads of the origin itself, `pair_memo.ts`).
 */
export function linkReads(c: ReadCollector, rule: LinkRule, origin: string | undefined): void {
  const roots = { origin_resource: origin };
  const withRoots = { ...roots, target_resource: rule.with };
  c.add(rule.with, MEMBERS);
  c.condition(rule.matchOn, origin, roots);
  c.condition(rule.matchWith, rule.with, withRoots);
  if (rule.join) {
    c.add(origin, rule.join.local);
    c.add(rule.with, rule.join.remote);
  }
  for (const spec of rule.copyProperties) {
    if (spec.template !== undefined) c.template(spec.template, withRoots);
    if (spec.from !== "") c.path(rule.with, spec.from);
  }
  if (rule.createRelation?.properties) c.deep(rule.createRelation.properties, withRoots);
}
