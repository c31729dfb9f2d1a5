/**
 * Auto-linking (reference M60–M64, A16–A20): a property whose name equals an existing resource
 * type and whose value names resources of that type becomes a relation labelled with the
 * property name. Runs after assets, after models and after compliance.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../graph/graph.ts";
import type { IssueCollector } from "./issues.ts";
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
const RESOURCES_PER_STEP = 64;

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
  const rules = options.retypeRules ?? [];
  // Origin type -> property key -> rule (a later rule for the same pair wins).
  const retype = new Map<string, Map<string, RetypeRule>>();
  for (const rule of rules) {
    let ofType = retype.get(rule.originType);
    if (!ofType) retype.set(rule.originType, ofType = new Map());
    ofType.set(rule.propertyKey, rule);
  }
  const types = new Set(graph.types());
  const targetTypes = new Set(types);
  for (const ofType of retype.values()) {
    for (const r of ofType.values()) targetTypes.add(r.targetType);
  }
  const state = linkState(graph, types, rules);
  const run: LinkRun = { graph, issues, options };
  // Auto-linking only adds relations: those it created are the growth of the count.
  const relationsBefore = graph.relationCount;
  // Only resources that exist now (relations created below add none), and of those only the ones
  // changed since the last run over this graph or with names that did not resolve then: an
  // unchanged resource whose names all resolved has nothing new to link.
  const resources = graph.resourcesChangedSince(state.clock, state.incomplete);
  yield;
  let tick = 0;
  for (const resource of resources) {
    if (++tick === RESOURCES_PER_STEP) {
      tick = 0;
      yield;
    }
    const typeRules = retype.get(resource.type);
    const properties = resource.properties;
    let complete = true;
    for (const key in properties) {
      if (key === "name" || key === "original_name" || key.charCodeAt(0) === UNDERSCORE) continue;
      const rule = typeRules?.get(key);
      if (!rule && !types.has(key)) continue;
      const targetType = rule ? rule.targetType : key;
      if (!targetTypes.has(targetType)) continue;
      const relationType = rule ? rule.newType : key;
      if (!linkValues(run, resource, key, targetType, relationType)) complete = false;
    }
    if (!complete) state.incomplete.add(resource.id);
    else if (state.incomplete.size > 0) state.incomplete.delete(resource.id);
  }
  state.clock = graph.clock;
  return graph.relationCount - relationsBefore;
}

const UNDERSCORE = 95;

/**
 * What earlier auto-link runs over the same graph established: the {@link Graph.clock} at the
 * end of the last run (-1: none) and the ids of resources with names that did not resolve then.
 * Valid only while the set of types and the retype rules are the same (a new type turns more
 * properties into links).
 */
interface LinkState {
  key: string;
  clock: number;
  incomplete: Set<number>;
}

const linkStates = new WeakMap<Graph, LinkState>();

function linkState(
  graph: Graph,
  types: ReadonlySet<string>,
  rules: readonly RetypeRule[],
): LinkState {
  const key = [...types].join("\u0001") + "\u0002" +
    rules.map((r) => `${r.originType}:${r.propertyKey}:${r.newType}:${r.targetType}`)
      .join("\u0001");
  let state = linkStates.get(graph);
  if (!state || state.key !== key) {
    state = { key, clock: -1, incomplete: new Set() };
    linkStates.set(graph, state);
  }
  return state;
}

/**
 * {@link splitNames} with a fast path for what asset rows hold: a name, or an array of names,
 * without commas or brackets (the list rule then only trims them).
 */
function namesOf(value: JsonValue | undefined): readonly string[] {
  if (typeof value === "string") {
    if (isPlainName(value)) {
      const name = value.trim();
      return name === "" ? NO_NAMES : [name];
    }
  } else if (Array.isArray(value)) {
    let plain = true;
    let trimmed = true;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v !== "string" || !isPlainName(v)) {
        plain = false;
        break;
      }
      if (v === "" || v.trim().length !== v.length) trimmed = false;
    }
    // Names already (what asset cells hold): the list itself, nothing to allocate.
    if (plain && trimmed) return value as string[];
    if (plain) {
      const out: string[] = [];
      for (let i = 0; i < value.length; i++) {
        const name = (value[i] as string).trim();
        if (name !== "") out.push(name);
      }
      return out;
    }
  }
  return splitNames(value);
}

const NO_NAMES: readonly string[] = Object.freeze([]);

/** True when every element is a name as the list rule leaves it: trimmed, non-empty, plain. */
function areNames(value: readonly JsonValue[]): boolean {
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v !== "string" || v === "" || !isPlainName(v) || v.trim().length !== v.length) {
      return false;
    }
  }
  return true;
}

function isPlainName(s: string): boolean {
  return s.indexOf(",") < 0 && s.indexOf("[") < 0;
}

/**
 * Lets the property value naming `name` hold `shared`, the target's own name string (equal to
 * `name`), instead of an equal copy (a cell parsed from another file): the same value, one
 * string in memory instead of two. Only plain values are touched — a string, or a string
 * element of an array. Compares with `name` (the string just looked up), not with `shared`,
 * whose characters are elsewhere in memory.
 */
function shareName(
  resource: Resource,
  key: string,
  value: JsonValue,
  name: string,
  shared: string,
): void {
  if (typeof value === "string") {
    if (value === name) (resource.properties as Record<string, JsonValue>)[key] = shared;
  } else if (Array.isArray(value) && !Object.isFrozen(value)) {
    const i = value.indexOf(name);
    if (i >= 0) value[i] = shared;
  }
}

/** One auto-link run: where it links and how it reports. */
interface LinkRun {
  graph: Graph;
  issues: IssueCollector;
  options: AutoLinkOptions;
}

/** Links the names of one property; false when one of them names no resource. */
function linkValues(
  run: LinkRun,
  resource: Resource,
  key: string,
  targetType: string,
  relationType: string,
): boolean {
  const value = resource.properties[key];
  if (typeof value === "string" && isPlainName(value)) {
    // One name at most (what asset cells hold): no list to allocate.
    const name = value.trim();
    return name === "" || linkName(run, resource, key, value, name, targetType, relationType);
  }
  if (Array.isArray(value) && areNames(value)) {
    // Names already (what asset cells hold): linked in place, each element then holding the
    // target's own name string (see shareName).
    const share = !Object.isFrozen(value);
    let complete = true;
    for (let k = 0; k < value.length; k++) {
      const name = value[k] as string;
      if (targetType === resource.type && name === resource.name) continue;
      const shared = run.graph.linkByName(resource, relationType, targetType, name);
      if (shared === undefined) {
        reportMissing(run, resource, key, name, targetType);
        complete = false;
      } else if (share) value[k] = shared;
    }
    return complete;
  }
  let complete = true;
  for (const name of namesOf(value)) {
    if (!linkName(run, resource, key, value, name, targetType, relationType)) complete = false;
  }
  return complete;
}

function linkName(
  run: LinkRun,
  resource: Resource,
  key: string,
  value: JsonValue | undefined,
  targetName: string,
  targetType: string,
  relationType: string,
): boolean {
  if (targetType === resource.type && targetName === resource.name) return true;
  const shared = run.graph.linkByName(resource, relationType, targetType, targetName);
  if (shared === undefined) {
    reportMissing(run, resource, key, targetName, targetType);
    return false;
  }
  if (value !== undefined) shareName(resource, key, value, targetName, shared);
  return true;
}

function reportMissing(
  run: LinkRun,
  resource: Resource,
  key: string,
  targetName: string,
  targetType: string,
): void {
  if (run.options.warnMissing === false) return;
  run.issues.warn(
    "relation_target_missing",
    `${resource.type} '${resource.name}': ${key} = '${targetName}' names no ${targetType}`,
    { phase: run.options.phase },
  );
}
