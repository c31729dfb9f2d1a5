/**
 * Rule evaluation shared by the model, compliance and output phases: header data (M3–M7),
 * template scope (T11), the lazy resource view (T12–T15), conditions (M70–M77), relation paths
 * (M75) and rule errors with locations.
 *
 * @example
 * ```ts
 * import { compileConditions, evaluateCondition } from "./mod.ts";
 * import { Graph } from "../../graph/graph.ts";
 * const g = new Graph();
 * const r = g.upsertResource("host", "h1", { env: "prod" });
 * const c = compileConditions([{ property: "env", not: "dev" }], "match_on");
 * console.log(evaluateCondition(c, r, { graph: g, render: (s) => s })); // true
 * ```
 *
 * @module
 */
export {
  checkExpression,
  compileConditions,
  type Condition,
  type ConditionOp,
  type ConditionScope,
  evaluateCondition,
  isEmpty,
  valueEquals,
} from "./conditions.ts";
export {
  positionOf,
  reportRuleError,
  RuleError,
  ruleLabel,
  type RuleSite,
  type TemplateFailure,
  templateFailureOf,
} from "./errors.ts";
export {
  type CompiledHeader,
  compileHeader,
  evaluateHeader,
  type HeaderEnv,
  HeaderError,
  type HeaderForm,
  interpretBlockOutput,
  JsonQueryCache,
} from "./header.ts";
export { followPath, followSegment, propertyValues } from "./paths.ts";
export {
  buildContext,
  isTemplate,
  renderDeep,
  renderRuleString,
  RESERVED_HEADER_NAMES,
  type ScopeBase,
} from "./scope.ts";
export {
  plainResource,
  relatedVia,
  relationKeys,
  type ResourceView,
  resourceView,
  VIEW_JSON_DEPTH,
} from "./view.ts";
export {
  type LoadedRuleFile,
  loadRuleFiles,
  type PreparedChunk,
  RuleEnvironment,
} from "./environment.ts";
