/**
 * `[[link_resources]]` (reference M50–M54): match candidates of type `with` per origin (join,
 * `match_with`), create relations to them and pull properties onto the origin.
 *
 * @module
 */
import type { JsonValue, Resource } from "../../graph/graph.ts";
import { evaluateCondition } from "../rules/conditions.ts";
import { propertyValues } from "../rules/paths.ts";
import { isTemplate, renderDeep } from "../rules/scope.ts";
import { nameItems } from "../rules/list_values.ts";
import type { LinkRule } from "./compile.ts";
import { type BlockRun, ORIGINS_PER_STEP } from "./run.ts";
import type { Steps } from "../slicing.ts";

/** Join keys of a value (M51): array elements / list items (trimmed) and the whole string. */
export function joinKeys(value: JsonValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => joinKeys(v));
  if (typeof value === "object") return [];
  const s = String(value);
  const keys = new Set<string>([s.trim()]);
  // Items by the list rule shared with create_from and auto-linking (rules/list_values.ts).
  if (typeof value === "string" && /[,[]/.test(s)) { for (const t of nameItems(s)) keys.add(t); }
  keys.delete("");
  return [...keys];
}

/** Runs a link_resources block over its origins (pausing every {@link ORIGINS_PER_STEP}). */
export function* runLink(rule: LinkRule, run: BlockRun): Steps<void> {
  const candidates = run.graph.resourcesOfSorted(rule.with);
  let index: Map<string, Resource[]> | undefined;
  if (rule.join) {
    index = new Map();
    let indexed = 0;
    for (const c of candidates) {
      if ((++indexed & 255) === 0) yield;
      const seen = new Set<string>();
      for (
        const k of remoteKeys(
          c.properties[rule.join.remote] ?? (rule.join.remote === "name" ? c.name : undefined),
        )
      ) {
        if (seen.has(k)) continue;
        seen.add(k);
        const list = index.get(k);
        if (list) list.push(c);
        else index.set(k, [c]);
      }
    }
  }
  let tick = 0;
  for (const origin of run.origins()) {
    if (++tick === ORIGINS_PER_STEP) {
      tick = 0;
      yield;
    }
    if (origin === null) continue; // replayed from the last build (pair_memo.ts)
    if (!origin) {
      run.fail(new Error("[[link_resources]] needs an origin_resource in the file header"));
      return;
    }
    let context: Record<string, unknown> | undefined;
    const scope = () => (context ??= run.scope(origin));
    try {
      if (rule.matchOn && !evaluateCondition(rule.matchOn, origin, run.conditionScope(scope))) {
        continue;
      }
      let pool: Resource[];
      if (rule.join) {
        const found = new Map<number, Resource>();
        for (const k of joinKeys(origin.properties[rule.join.local])) {
          for (const c of index!.get(k) ?? []) found.set(c.id, c);
        }
        pool = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      } else pool = candidates;
      const matched: Resource[] = [];
      let tested = 0;
      for (const candidate of pool) {
        // Pairs (origin, candidate) can be many: pause within one origin too.
        if ((++tested & 127) === 0) yield;
        if (candidate === origin) continue;
        if (rule.matchWith && !matchesWith(rule, run, scope, candidate)) continue;
        matched.push(candidate);
      }
      apply(rule, run, origin, scope, matched);
    } catch (e) {
      run.fail(e, origin);
    }
  }
}

function remoteKeys(value: JsonValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => remoteKeys(v));
  if (typeof value === "object") return [];
  const s = String(value).trim();
  return s === "" ? [] : [s];
}

function matchesWith(
  rule: LinkRule,
  run: BlockRun,
  scope: () => Record<string, unknown>,
  candidate: Resource,
): boolean {
  // Rendered values that do not mention target_resource are the same for every candidate.
  const cache = ((scope() as { [CACHE]?: Map<string, string> })[CACHE] ??= new Map());
  let withTarget: Record<string, unknown> | undefined;
  return evaluateCondition(rule.matchWith!, candidate, {
    graph: run.graph,
    render: (source, key) => {
      if (!isTemplate(source)) return source;
      if (!source.includes("target_resource")) {
        let v = cache.get(source);
        if (v === undefined) {
          v = run.render(source, scope(), key);
          cache.set(source, v);
        }
        return v;
      }
      withTarget ??= { ...scope(), target_resource: run.view(candidate) };
      return run.render(source, withTarget, key);
    },
  });
}

const CACHE = Symbol("renderCache");

function apply(
  rule: LinkRule,
  run: BlockRun,
  origin: Resource,
  scope: () => Record<string, unknown>,
  matched: Resource[],
): void {
  const site = run.site(origin);
  if (rule.createRelation) {
    const rel = rule.createRelation;
    for (const target of matched) {
      const props = rel.properties
        ? renderDeep(
          rel.properties,
          (s, k) => run.render(s, { ...scope(), target_resource: run.view(target) }, k),
          "create_relation.properties",
        ) as Record<string, JsonValue>
        : undefined;
      run.state.writer.relation(origin, rel.type, target, props, site);
    }
  }
  if (rule.copyProperties.length === 0 || matched.length === 0) return;
  if (matched.length > 1) {
    run.warn(
      "model_link_multiple_matches",
      `copy_properties: ${origin.type} '${origin.name}' matches ${matched.length} '${rule.with}' resources; ` +
        `values are applied in name order, the last one wins`,
      "copy_properties",
    );
  }
  for (const target of matched) {
    for (const spec of rule.copyProperties) {
      try {
        let value: JsonValue | undefined;
        if (spec.template !== undefined) {
          value = run.render(
            spec.template,
            { ...scope(), target_resource: run.view(target) },
            `${spec.key}.template`,
          );
        } else {
          value = propertyValues(run.graph, target, spec.from).find((v) => v !== undefined);
        }
        if (value !== undefined) run.state.writer.set(origin, spec.as, value, site);
      } catch (e) {
        run.fail(e, origin);
      }
    }
  }
}
