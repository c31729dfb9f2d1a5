/**
 * Query cost (reference graphql.md G16, hardening): an estimate of the work a query causes,
 * computed from the validated document before execution. Every field costs 1 per value; a list
 * field multiplies the cost of its selection by its expected item count. Fields announce that count
 * through `extensions.cost` (a function of their arguments, e.g. `min(limit, resources of the
 * type)`); other list fields count {@link DEFAULT_LIST_SIZE} items.
 *
 * @module
 */

import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { GraphState } from "./snapshot.ts";

/** Largest accepted query cost (estimated values produced). */
export const MAX_QUERY_COST = 1_000_000;
/** Expected item count of a list field that does not announce one (relation edge lists). */
export const DEFAULT_LIST_SIZE = 10;

/** Cost of one `findPaths` call (its own expansion limit bounds the work of each call). */
export const FIND_PATHS_COST = 5_000;

/**
 * Expected item count of a field from its argument values (`undefined` = not given) in the
 * snapshot the request reads (schemas are shared by snapshots of one shape).
 */
export type CostEstimator = (args: Record<string, unknown>, snapshot: GraphState) => number;

/**
 * Field `extensions` announcing the expected item count of a list-like field.
 *
 * @example
 * ```ts
 * const extensions = costExtension((args) => Math.min(Number(args.limit ?? 500), 500));
 * ```
 */
export function costExtension(estimate: CostEstimator): { cost: CostEstimator } {
  return { cost: estimate };
}

/** `min(limit, total)` with `limit` absent → `total`: the expected size of a paged list. */
export function pagedSize(args: Record<string, unknown>, total: number): number {
  const limit = typeof args.limit === "number" && args.limit >= 0 ? args.limit : Infinity;
  const offset = typeof args.offset === "number" && args.offset > 0 ? args.offset : 0;
  return Math.max(0, Math.min(limit, total - offset));
}

/**
 * The errors of the operations of `document` whose estimated cost exceeds `maxCost`, estimated
 * from `snapshot` (the graph the request reads). `variables` (the request's raw variable values)
 * let arguments given as variables lower the estimate; missing variables use their declared
 * default, else the field's worst case. `document` must have passed validation (fields and
 * fragments exist): the walk needs no type information beyond the schema, so it runs directly
 * over the operations instead of as a validation rule, whose visitor machinery cost more than
 * the walk itself on every request with variables.
 *
 * @example
 * ```ts
 * import { buildSchema, parse } from "graphql";
 * import { Graph } from "../../graph/graph.ts";
 * import { graphState } from "./snapshot.ts";
 * const schema = buildSchema("type Query { a: [Int] }");
 * const errors = costErrors(schema, parse("{ a }"), graphState(new Graph()), 5);
 * console.log(errors.length); // 1: a list of 10 items costs 10
 * ```
 */
export function costErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  snapshot: GraphState,
  maxCost: number = MAX_QUERY_COST,
  variables?: Record<string, unknown> | null,
): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const errors: GraphQLError[] = [];
  for (const operation of document.definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = operation.operation === "query"
      ? schema.getQueryType()
      : operation.operation === "mutation"
      ? schema.getMutationType()
      : schema.getSubscriptionType();
    if (!root) continue;
    const vars = variableValues(operation, variables ?? {});
    const walker = new CostWalker(schema, fragments, vars, snapshot);
    const cost = walker.selectionCost(operation.selectionSet, root, new Set());
    if (cost > maxCost) {
      const name = operation.name ? ` '${operation.name.value}'` : "";
      errors.push(
        new GraphQLError(
          `Operation${name} has an estimated cost of ${formatCost(cost)}, which exceeds the ` +
            `maximum of ${maxCost}; page list fields with 'limit'/'offset' or select less.`,
          { nodes: operation, extensions: { code: "QUERY_TOO_COSTLY", cost, maxCost } },
        ),
      );
    }
  }
  return errors;
}

function formatCost(cost: number): string {
  return Number.isFinite(cost) ? String(Math.round(cost)) : "unbounded";
}

/** Declared defaults overlaid with the given values. */
function variableValues(
  operation: OperationDefinitionNode,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (name in given) out[name] = given[name];
    else if (def.defaultValue) out[name] = scalarValue(def.defaultValue, {});
  }
  return out;
}

class CostWalker {
  #fragments = new Map<string, number>();
  constructor(
    readonly schema: GraphQLSchema,
    readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    readonly variables: Record<string, unknown>,
    readonly snapshot: GraphState,
  ) {}

  selectionCost(set: SelectionSetNode, type: GraphQLNamedType, onPath: Set<string>): number {
    let total = 0;
    for (const selection of set.selections) {
      switch (selection.kind) {
        case Kind.FIELD:
          total += this.fieldCost(selection, type, onPath);
          break;
        case Kind.INLINE_FRAGMENT: {
          const cond = selection.typeCondition
            ? this.schema.getType(selection.typeCondition.name.value)
            : type;
          if (cond) total += this.selectionCost(selection.selectionSet, cond, onPath);
          break;
        }
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          const known = this.#fragments.get(name);
          if (known !== undefined) {
            total += known;
            break;
          }
          const fragment = this.fragments.get(name);
          if (!fragment || onPath.has(name)) break; // cycles: NoFragmentCyclesRule
          const cond = this.schema.getType(fragment.typeCondition.name.value);
          if (!cond) break;
          onPath.add(name);
          const cost = this.selectionCost(fragment.selectionSet, cond, onPath);
          onPath.delete(name);
          this.#fragments.set(name, cost);
          total += cost;
          break;
        }
      }
    }
    return total;
  }

  fieldCost(node: FieldNode, parent: GraphQLNamedType, onPath: Set<string>): number {
    if (node.name.value.startsWith("__")) return 1; // introspection: bounded by the schema
    if (!isObjectType(parent) && !isInterfaceType(parent)) return 1;
    const field = parent.getFields()[node.name.value];
    if (!field) return 1; // FieldsOnCorrectTypeRule reports it
    const items = this.itemCount(field, node);
    const inner = node.selectionSet
      ? this.selectionCost(node.selectionSet, getNamedType(field.type), onPath)
      : 0;
    return items * (1 + inner);
  }

  itemCount(field: GraphQLField<unknown, unknown>, node: FieldNode): number {
    const estimate = (field.extensions as { cost?: CostEstimator }).cost;
    if (typeof estimate === "function") {
      return estimate(this.argumentValues(field.args, node), this.snapshot);
    }
    return isListType(getNullableType(field.type)) ? DEFAULT_LIST_SIZE : 1;
  }

  argumentValues(
    defs: readonly GraphQLArgument[],
    node: FieldNode,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const arg of node.arguments ?? []) {
      if (!defs.some((d) => d.name === arg.name.value)) continue;
      const value = scalarValue(arg.value, this.variables);
      if (value !== undefined) out[arg.name.value] = value;
    }
    return out;
  }
}

/** Scalar argument values the estimators use (numbers, strings); anything else → undefined. */
function scalarValue(node: ValueNode, variables: Record<string, unknown>): unknown {
  switch (node.kind) {
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
      return node.value;
    case Kind.VARIABLE:
      return variables[node.name.value];
    default:
      return undefined;
  }
}
