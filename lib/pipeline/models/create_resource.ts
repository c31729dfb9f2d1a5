/**
 * `[[create_resource]]` (reference M10–M32, M90–M91): create or enrich resources per origin,
 * optionally one per item of a property or header list, with a relation from the origin.
 *
 * @module
 */
import type { JsonValue, Resource } from "../../graph/graph.ts";
import { evaluateCondition } from "../rules/conditions.ts";
import { RuleError } from "../rules/errors.ts";
import { followPath, propertyValues } from "../rules/paths.ts";
import { renderDeep } from "../rules/scope.ts";
import { listItems, renderedList } from "../rules/list_values.ts";
import type { CreateRule } from "./compile.ts";
import { type BlockRun, ORIGINS_PER_STEP } from "./run.ts";
import type { Steps } from "../slicing.ts";

interface Item {
  value: JsonValue;
  index: number;
  /** Resource the item was read from (property_origin), when not the origin. */
  source?: Resource;
}

/**
 * Items of a `create_from` value (M21): the list rule shared with auto-linking (M60, A17; see
 * rules/list_values.ts): array elements; JSON-array text as its elements; a Tera-displayed
 * list `[a, b]` loses its brackets (M5); a string split on commas (trimmed, empty items
 * dropped); any other scalar as one item; missing or null as none.
 *
 * @example
 * ```ts
 * import { itemsOf } from "./create_resource.ts";
 * console.log(itemsOf("email, sms,")); // ["email", "sms"]
 * console.log(itemsOf('["a","b"]')); // ["a", "b"]
 * ```
 */
export function itemsOf(value: JsonValue | undefined): JsonValue[] {
  return listItems(value);
}

/** Runs a create_resource block over its origins (pausing every {@link ORIGINS_PER_STEP}). */
export function* runCreate(rule: CreateRule, run: BlockRun): Steps<void> {
  let counter = 0;
  let tick = 0;
  for (const origin of run.origins()) {
    if (++tick === ORIGINS_PER_STEP) {
      tick = 0;
      yield;
    }
    if (origin === null) continue; // replayed from the last build (pair_memo.ts)
    let context: Record<string, unknown> | undefined;
    const scope = () => (context ??= run.scope(origin));
    try {
      if (rule.matchOn) {
        if (!origin) {
          throw new RuleError(
            "match_on needs an origin_resource in the file header",
            "match_on",
            "rule_condition",
          );
        }
        if (!evaluateCondition(rule.matchOn, origin, run.conditionScope(scope))) continue;
      }
      const n = counter++;
      if (!rule.createFrom) {
        const ctx = scope();
        ctx.origin_resource_counter = n;
        createOne(rule, run, origin, ctx, undefined);
        continue;
      }
      const items = collectItems(
        rule,
        run,
        origin,
        rule.createFrom.list !== undefined ? scope() : {},
      );
      for (const item of items) {
        try {
          // Header data is rendered in the item's context (it may read `property.value`).
          const itemCtx = run.scope(origin, {
            origin_resource_counter: n,
            value: item.value,
            property: { value: item.value, index: item.index },
          });
          createOne(rule, run, origin, itemCtx, item);
        } catch (e) {
          run.fail(e, origin);
        }
      }
    } catch (e) {
      run.fail(e, origin);
    }
  }
}

function collectItems(
  rule: CreateRule,
  run: BlockRun,
  origin: Resource | undefined,
  ctx: Record<string, unknown>,
): Item[] {
  const cf = rule.createFrom!;
  const out: Item[] = [];
  if (cf.list !== undefined) {
    const list = ctx[cf.list];
    if (!Array.isArray(list)) {
      throw new RuleError(
        list === undefined
          ? `create_from.list: no header variable '${cf.list}'`
          : `create_from.list: header variable '${cf.list}' is not a list`,
        "create_from.list",
        "rule_bad_value",
      );
    }
    list.forEach((value, index) => out.push({ value: value as JsonValue, index }));
    return out;
  }
  if (!origin) {
    throw new RuleError(
      "create_from.property needs an origin_resource in the file header",
      "create_from",
      "rule_bad_value",
    );
  }
  const sources = cf.propertyOrigin !== undefined
    ? followPath(run.graph, origin, cf.propertyOrigin.split("."))
    : [origin];
  for (const src of sources) {
    for (const value of propertyValues(run.graph, src, cf.property!)) {
      for (const v of itemsOf(value)) out.push({ value: v, index: out.length, source: src });
    }
  }
  return out;
}

function createOne(
  rule: CreateRule,
  run: BlockRun,
  origin: Resource | undefined,
  ctx: Record<string, unknown>,
  item: Item | undefined,
): void {
  const cf = rule.createFrom;
  const type = cf?.as ??
    (rule.resourceType !== undefined
      ? run.render(rule.resourceType, ctx, "resource_type").trim()
      : cf?.property);
  if (!type) {
    throw new RuleError(
      "resource_type renders to an empty string",
      "resource_type",
      "rule_bad_value",
    );
  }
  let name: string;
  if (rule.name !== undefined) name = run.render(rule.name, ctx, "name").trim();
  else if (item && (typeof item.value !== "object" || item.value === null)) {
    name = String(item.value ?? "").trim();
  } else {throw new RuleError(
      "create_from items are objects: set 'name'",
      "name",
      "rule_missing_key",
    );}
  if (name === "") {
    run.warn(
      "model_empty_name",
      `name renders to an empty string${
        origin ? ` for some origins (e.g. ${origin.type} '${origin.name}')` : ""
      }; resource not created`,
      "name",
    );
    return;
  }
  const site = run.site(origin);
  const resource = run.state.writer.resource(type, name, site);
  for (const [key, raw] of Object.entries(rule.properties)) {
    if (key === "name") continue;
    try {
      let value = renderDeep(raw, (s, k) => run.render(s, ctx, k), `properties.${key}`);
      // M13: an expression that printed a flat sequence (`[a, b]`, `[object]`) gives that list;
      // literal text such as "[WIP]" (no `{{`) is kept as written.
      if (typeof value === "string" && typeof raw === "string" && raw.includes("{{")) {
        value = renderedList(value) ?? value;
      }
      run.state.writer.set(resource, key, value, site);
    } catch (e) {
      run.fail(e, origin);
    }
  }
  const relationStart = cf?.relationOrigin === "property_origin" ? item?.source ?? origin : origin;
  if (relationStart) {
    // M12: without `relation_type` the origin is still linked, by a relation of empty type (the
    // original's own export of rescile/aws_transit_hub has six `identity -[""]-> login` edges
    // from a rule with no relation_type). A relation_type that renders empty links nothing.
    const relType = rule.relationType === undefined
      ? ""
      : run.render(rule.relationType, ctx, "relation_type").trim();
    const props = rule.relationProperties
      ? renderDeep(
        rule.relationProperties,
        (s, k) => run.render(s, ctx, k),
        "relation_properties",
      ) as Record<
        string,
        JsonValue
      >
      : undefined;
    if (relType || rule.relationType === undefined) {
      run.state.writer.relation(relationStart, relType, resource, props, site);
    }
  }
  if (rule.copyFrom && origin) copyFrom(rule, run, origin, resource);
}

function copyFrom(rule: CreateRule, run: BlockRun, origin: Resource, created: Resource): void {
  const { property, properties } = rule.copyFrom!;
  const ref = origin.properties[property];
  let source: Resource | undefined;
  if (typeof ref === "string" || typeof ref === "number") {
    source = run.graph.getResource(property, String(ref).trim());
  }
  if (!source) source = run.graph.outgoing(origin, property)[0]?.target;
  if (!source) {
    run.warn(
      "model_copy_from_missing",
      `copy_from: ${origin.type} '${origin.name}' references no '${property}' resource; nothing copied`,
      "copy_from",
    );
    return;
  }
  const site = run.site(origin);
  for (const spec of properties) {
    const v = propertyValues(run.graph, source, spec.from).find((x) => x !== undefined);
    if (v !== undefined) run.state.writer.set(created, spec.as, v, site);
  }
}
