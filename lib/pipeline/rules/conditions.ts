/**
 * The condition language of `match_on` / `match_with` (reference M70–M77), shared by models,
 * compliance and outputs. Conditions are compiled once per rule (syntax errors are build errors
 * with the key at fault) and evaluated per resource.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../../graph/graph.ts";
import {
  compileUserRegex,
  RegexTranslationError,
  type UserRegex,
} from "../../template/extensions/user_regex.ts";
import { RuleError } from "./errors.ts";
import { propertyValues } from "./paths.ts";
import { isTemplate } from "./scope.ts";

/** A comparison of one condition object. */
export type ConditionOp =
  | {
    op: "value" | "not" | "contains" | "excludes" | "regexp" | "greater" | "lower";
    operand: JsonValue;
  }
  | { op: "exists" | "empty"; flag: boolean };

/** A compiled condition. */
export type Condition =
  | { kind: "all"; items: Condition[] }
  | { kind: "any"; items: Condition[] }
  | { kind: "test"; key: string; property?: string; ops: ConditionOp[]; expression?: string };

const OPERAND_OPS = ["value", "not", "contains", "excludes", "regexp", "greater", "lower"] as const;
const FLAG_OPS = ["exists", "empty"] as const;
const KNOWN_KEYS = new Set<string>([
  "property",
  "expression",
  "or",
  "and",
  ...OPERAND_OPS,
  ...FLAG_OPS,
]);

/**
 * Compiles a `match_on`/`match_with` value: an array of condition objects (AND), an array of
 * arrays (DNF: OR over AND-lists), or a single table (`{ or = [...] }` or one condition).
 * Throws {@link RuleError} naming `key` (e.g. `match_on[2].greater`).
 *
 * @example
 * ```ts
 * import { compileConditions } from "./conditions.ts";
 * const c = compileConditions([{ property: "env", value: "prod" }], "match_on");
 * console.log(c.kind); // "all"
 * ```
 */
export function compileConditions(raw: JsonValue, key: string): Condition {
  if (Array.isArray(raw)) {
    if (raw.length > 0 && raw.every(Array.isArray)) {
      return { kind: "any", items: raw.map((g, i) => compileConditions(g, `${key}[${i}]`)) };
    }
    return { kind: "all", items: raw.map((c, i) => compileItem(c, `${key}[${i}]`)) };
  }
  return compileItem(raw, key);
}

function compileItem(raw: JsonValue, key: string): Condition {
  if (Array.isArray(raw)) return compileConditions(raw, key);
  if (!raw || typeof raw !== "object") {
    throw new RuleError(
      `a condition must be a table such as { property = "x", value = "y" }`,
      key,
      "rule_condition",
    );
  }
  const parts: Condition[] = [];
  for (const k of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(k)) {
      throw new RuleError(
        `unknown condition key '${k}' (expected one of: ${[...KNOWN_KEYS].join(", ")})`,
        `${key}.${k}`,
        "rule_condition",
      );
    }
  }
  const ops: ConditionOp[] = [];
  for (const op of OPERAND_OPS) {
    if (!(op in raw)) continue;
    const operand = raw[op];
    if (
      (op === "greater" || op === "lower") && typeof operand !== "number" &&
      typeof operand !== "string"
    ) {
      throw new RuleError(`'${op}' needs a number`, `${key}.${op}`, "rule_condition");
    }
    if (op === "regexp") {
      if (typeof operand !== "string") {
        throw new RuleError(`'regexp' needs a string`, `${key}.regexp`, "rule_condition");
      }
      if (!isTemplate(operand)) compileRegExp(operand, `${key}.regexp`);
    }
    ops.push({ op, operand });
  }
  for (const op of FLAG_OPS) {
    if (!(op in raw)) continue;
    const v = raw[op];
    const flag = v === true || v === "true" || v === "True"
      ? true
      : v === false || v === "false" || v === "False"
      ? false
      : undefined;
    if (flag === undefined) {
      throw new RuleError(`'${op}' must be true or false`, `${key}.${op}`, "rule_condition");
    }
    ops.push({ op, flag });
  }
  const property = raw.property;
  if (property !== undefined && typeof property !== "string") {
    throw new RuleError(`'property' must be a string`, `${key}.property`, "rule_condition");
  }
  let expression: string | undefined;
  if ("expression" in raw) {
    if (typeof raw.expression !== "string") {
      throw new RuleError(`'expression' must be a string`, `${key}.expression`, "rule_condition");
    }
    expression = raw.expression;
    checkExpression(expression, `${key}.expression`);
  }
  if (ops.length > 0 && property === undefined) {
    throw new RuleError(
      `condition needs 'property' (only 'expression', 'or' and 'and' stand alone)`,
      key,
      "rule_condition",
    );
  }
  if (property !== undefined && ops.length === 0) {
    throw new RuleError(
      `condition on '${property}' has no operator (value, not, contains, …)`,
      key,
      "rule_condition",
    );
  }
  if (ops.length > 0 || expression !== undefined) {
    parts.push({ kind: "test", key, property, ops, expression });
  }
  for (const group of ["or", "and"] as const) {
    if (!(group in raw)) continue;
    const list = raw[group];
    if (!Array.isArray(list)) {
      throw new RuleError(`'${group}' must be an array`, `${key}.${group}`, "rule_condition");
    }
    const items = list.map((c, i) => compileItem(c, `${key}.${group}[${i}]`));
    parts.push({ kind: group === "or" ? "any" : "all", items });
  }
  if (parts.length === 0) throw new RuleError("empty condition", key, "rule_condition");
  return parts.length === 1 ? parts[0] : { kind: "all", items: parts };
}

/**
 * Refuses the membership operator `in` inside match expressions (M54, T6): Tera's `in` is not
 * supported there; `is containing(...)` is. `for x in` loops are allowed.
 */
export function checkExpression(expression: string, key: string): void {
  const stripped = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\bfor\s+\w+(?:\s*,\s*\w+)?\s+in\b/g, "for");
  if (/\bin\b/.test(stripped)) {
    throw new RuleError(
      "the 'in' operator is not supported in match expressions; use `is containing(...)`, " +
        "e.g. `origin_resource.tags is containing(target_resource.name)`",
      key,
      "rule_condition",
    );
  }
}

/** What evaluating a condition needs. */
export interface ConditionScope {
  /** The graph (for dotted property paths). */
  graph: Graph;
  /** Renders a template string of the rule in the current context (throws RuleError). */
  render(source: string, key: string): string;
}

/**
 * Tests `resource` against a compiled condition.
 *
 * @example
 * ```ts
 * import { Graph } from "../../graph/graph.ts";
 * import { compileConditions, evaluateCondition } from "./conditions.ts";
 * const g = new Graph();
 * const r = g.upsertResource("net", "n", { logging: "True" });
 * const c = compileConditions([{ property: "logging", value: true }], "match_on");
 * console.log(evaluateCondition(c, r, { graph: g, render: (s) => s })); // true
 * ```
 */
export function evaluateCondition(
  cond: Condition,
  resource: Resource,
  scope: ConditionScope,
): boolean {
  switch (cond.kind) {
    case "all":
      return cond.items.every((c) => evaluateCondition(c, resource, scope));
    case "any":
      return cond.items.some((c) => evaluateCondition(c, resource, scope));
    case "test":
      return evaluateTest(cond, resource, scope);
  }
}

function evaluateTest(
  cond: Extract<Condition, { kind: "test" }>,
  resource: Resource,
  scope: ConditionScope,
): boolean {
  if (cond.property !== undefined) {
    const values = propertyValues(scope.graph, resource, cond.property);
    for (const o of cond.ops) {
      const operand = "operand" in o && typeof o.operand === "string"
        ? scope.render(o.operand, `${cond.key}.${o.op}`)
        : "operand" in o
        ? o.operand
        : undefined;
      const ok = values.some((v) => applyOp(o, v, operand, `${cond.key}.${o.op}`));
      if (!ok) return false;
    }
  }
  if (cond.expression !== undefined) {
    const source = isTemplate(cond.expression) ? cond.expression : `{{ ${cond.expression} }}`;
    if (scope.render(source, `${cond.key}.expression`).trim() !== "true") return false;
  }
  return true;
}

function applyOp(
  o: ConditionOp,
  v: JsonValue | undefined,
  operand: JsonValue | undefined,
  key: string,
): boolean {
  switch (o.op) {
    case "value":
      return isPresent(v) && valueEquals(v!, operand!);
    case "not":
      return !isPresent(v) || !valueEquals(v!, operand!);
    case "contains":
      return contains(v, operand!);
    case "excludes":
      return !contains(v, operand!);
    case "exists":
      return o.flag ? !isEmpty(v) : isEmpty(v);
    case "empty":
      return o.flag ? isEmpty(v) : !isEmpty(v);
    case "greater":
    case "lower": {
      const a = toNumber(v);
      const b = toNumber(operand);
      if (a === undefined || b === undefined) return false;
      return o.op === "greater" ? a > b : a < b;
    }
    case "regexp": {
      const re = compileRegExp(String(operand), key);
      if (!isPresent(v)) return false;
      return Array.isArray(v) ? v.some((x) => re.test(display(x))) : re.test(display(v!));
    }
  }
}

function isPresent(v: JsonValue | undefined): boolean {
  return v !== undefined && v !== null;
}

/** Missing, null, `""` or `[]` (M71 `empty`). */
export function isEmpty(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
}

function contains(v: JsonValue | undefined, operand: JsonValue): boolean {
  if (!isPresent(v)) return false;
  if (Array.isArray(v)) return v.some((x) => valueEquals(x, operand));
  if (typeof v === "string") return v.includes(display(operand));
  if (typeof v === "object") return Object.hasOwn(v!, display(operand));
  return valueEquals(v!, operand);
}

/**
 * Equality of M73: booleans against `true/false/True/False`, numbers numerically when both sides
 * parse as numbers, otherwise strings; an array equals a scalar when any element does.
 *
 * @example
 * ```ts
 * import { valueEquals } from "./conditions.ts";
 * console.log(valueEquals("True", true), valueEquals("1.0", 1), valueEquals(["a", "b"], "b")); // true true true
 * ```
 */
export function valueEquals(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a) && !Array.isArray(b)) return a.some((x) => valueEquals(x, b));
  if (typeof a === "boolean" || typeof b === "boolean") {
    const x = boolText(a);
    const y = boolText(b);
    return x !== undefined && x === y;
  }
  const na = toNumber(a);
  const nb = toNumber(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  return display(a) === display(b);
}

function boolText(v: JsonValue): string | undefined {
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    return t === "true" || t === "false" ? t : undefined;
  }
  return undefined;
}

function toNumber(v: JsonValue | undefined): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && v.trim() !== "" && /^[\s+-]*(\d|\.\d)/.test(v)) {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function display(v: JsonValue): string {
  if (typeof v === "string") return v;
  if (v === null) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Compiles a `regexp` operand (Rust syntax, linear-time engine, cached by the compiler). */
function compileRegExp(pattern: string, key: string): UserRegex {
  try {
    return compileUserRegex(pattern);
  } catch (e) {
    if (e instanceof RegexTranslationError) {
      throw new RuleError(e.message, key, "rule_condition");
    }
    throw e;
  }
}
