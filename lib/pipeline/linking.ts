/**
 * Auto-linking (reference M60–M64, A16–A20): a property whose name equals an existing resource
 * type and whose value names resources of that type becomes a relation labelled with the
 * property name. Runs after assets, after models and after compliance.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../graph/graph.ts";
import type { IssueCollector } from "./issues.ts";
import { setById } from "../graph/dense.ts";
import { runSteps, type Steps } from "./slicing.ts";
import { nameItems } from "./rules/list_values.ts";

/** A `[[retype_relation]]` rule (reference M55–M57). */
export interface RetypeRule {
  /** The file's `origin_resource` type: only its convention relations are affected. */
  originType: string;
  /** Property (column) whose convention relation is retyped. */
  propertyKey: string;
  /** Relation type to use instead of the property name. */
  newType: string;
  /** Resource type the values are looked up in. */
  targetType: string;
  /** Where the rule was declared, for messages. */
  file?: string;
}

/**
 * Splits a cell or property value into names: the list rule shared with `create_from`
 * (M21, M60, A17, M5; see rules/list_values.ts): arrays element-wise, JSON-array text as its
 * elements, strings on commas, trimmed, empty items dropped.
 */
export function splitNames(value: JsonValue | undefined): string[] {
  return nameItems(value);
}

/** Options of {@link autoLink}. */
export interface AutoLinkOptions {
  /** Retype rules collected from model files. */
  retypeRules?: readonly RetypeRule[];
  /** Report targets that do not exist as warnings (default true). */
  warnMissing?: boolean;
  /** Phase name used in issues. */
  phase?: string;
}

/**
 * Creates convention relations for every resource of the graph. Returns the number of relations
 * created. Never removes relations (M63).
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { IssueCollector } from "./issues.ts";
 * import { autoLink } from "./linking.ts";
 * const g = new Graph();
 * g.upsertResource("database", "db-1");
 * const svc = g.upsertResource("service", "api", { database: "db-1" });
 * autoLink(g, new IssueCollector());
 * console.log(g.outgoing(svc)[0].type); // "database"
 * ```
 */
export function autoLink(
  graph: Graph,
  issues: IssueCollector,
  options: AutoLinkOptions = {},
): number {
  return runSteps(autoLinkSteps(graph, issues, options));
}

/** Resources auto-linked between two pause points of {@link autoLinkSteps}. */
const RESOURCES_PER_STEP = 16;

/**
 * {@link autoLink} as steps (see `slicing.ts`): pauses every {@link RESOURCES_PER_STEP}
 * resources.
 *
 * @example
 * ```ts
 * import { Graph } from "../graph/graph.ts";
 * import { IssueCollector } from "./issues.ts";
 * import { autoLinkSteps } from "./linking.ts";
 * import { runSteps } from "./slicing.ts";
 * const g = new Graph();
 * g.upsertResource("database", "db-1");
 * g.upsertResource("service", "api", { database: "db-1" });
 * console.log(runSteps(autoLinkSteps(g, new IssueCollector()))); // 1
 * ```
 */
export function* autoLinkSteps(
  graph: Graph,
  issues: IssueCollector,
  options: AutoLinkOptions = {},
): Steps<number> {
  const retype = new Map<string, RetypeRule>();
  for (const rule of options.retypeRules ?? []) {
    retype.set(`${rule.originType}\u0000${rule.propertyKey}`, rule);
  }
  const types = new Set(graph.types());
  const targetTypes = new Set([...types, ...[...retype.values()].map((r) => r.targetType)]);
  const state = linkState(graph, types, retype);
  let created = 0;
  // Only resources that exist now: relations created below add none.
  const resources: Resource[] = [];
  for (const r of graph.resources()) {
    if ((resources.push(r) & 4095) === 0) yield;
  }
  let tick = 0;
  for (const resource of resources) {
    if (++tick === RESOURCES_PER_STEP) {
      tick = 0;
      yield;
    }
    // Unchanged since a run that resolved every name: nothing new can be linked.
    if (state.done[resource.id] === graph.version(resource)) continue;
    let complete = true;
    for (const key in resource.properties) {
      if (key === "name" || key === "original_name" || key.startsWith("_")) continue;
      const rule = retype.get(`${resource.type}\u0000${key}`);
      const targetType = rule ? rule.targetType : key;
      if (!rule && !types.has(key)) continue;
      if (!targetTypes.has(targetType)) continue;
      const relationType = rule ? rule.newType : key;
      const r = linkValues(graph, issues, resource, key, targetType, relationType, options);
      created += r.created;
      if (r.missing) complete = false;
    }
    setById(state.done, resource.id, complete ? graph.version(resource) : -1);
  }
  return created;
}

/**
 * What earlier auto-link runs over the same graph established: per resource id, the
 * {@link Graph.version} at which all its names resolved (-1 or missing: not known). Valid only
 * while the set of types and the retype rules are the same (a new type turns more properties
 * into links).
 */
interface LinkState {
  key: string;
  done: (number | undefined)[];
}

const linkStates = new WeakMap<Graph, LinkState>();

function linkState(
  graph: Graph,
  types: ReadonlySet<string>,
  retype: ReadonlyMap<string, RetypeRule>,
): LinkState {
  const key = [...types].join("\u0001") + "\u0002" +
    [...retype.values()].map((r) => `${r.originType}:${r.propertyKey}:${r.newType}:${r.targetType}`)
      .join("\u0001");
  let state = linkStates.get(graph);
  if (!state || state.key !== key) {
    state = { key, done: [] };
    linkStates.set(graph, state);
  }
  return state;
}

function linkValues(
  graph: Graph,
  issues: IssueCollector,
  resource: Resource,
  key: string,
  targetType: string,
  relationType: string,
  options: AutoLinkOptions,
): { created: number; missing: boolean } {
  let created = 0;
  let missing = false;
  for (const targetName of splitNames(resource.properties[key])) {
    if (targetType === resource.type && targetName === resource.name) continue;
    const target = graph.getResource(targetType, targetName);
    if (!target) {
      missing = true;
      if (options.warnMissing !== false) {
        issues.warn(
          "relation_target_missing",
          `${resource.type} '${resource.name}': ${key} = '${targetName}' names no ${targetType}`,
          { phase: options.phase },
        );
      }
      continue;
    }
    if (graph.getRelation(resource, relationType, target)) continue;
    graph.upsertRelation(resource, relationType, target);
    created++;
  }
  return { created, missing };
}
