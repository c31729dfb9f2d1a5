/**
 * Applying compiled targets to the graph: origin mutation (C10–C11), attached resources and
 * findings (C12–C15), relation enrichment (C20–C22) and responsibility mapping (C30–C32).
 *
 * @module
 */
import type { JsonValue, Resource } from "../../graph/graph.ts";
import { evaluateCondition } from "../rules/conditions.ts";
import { resourceView } from "../rules/view.ts";
import {
  type AttachTarget,
  type EnrichTarget,
  FINDING_TYPE,
  type MapTarget,
  type OriginTarget,
  type ResourceLink,
  type Table,
  type Target,
} from "./compile.ts";
import { aggregate } from "./merge.ts";
import { type ControlRun, MAX_ERRORS_PER_TARGET } from "./run.ts";
import type { Steps } from "../slicing.ts";

/** Origins (or relations) a target handles between two pause points of a sliced build. */
const ITEMS_PER_STEP = 4;

/**
 * Applies one target; failures are reported per origin and never stop the other origins. Steps
 * (see `slicing.ts`): pauses every few origins.
 */
export function* applyTarget(run: ControlRun, target: Target): Steps<void> {
  switch (target.kind) {
    case "origin":
      return yield* perOrigin(run, target, target.originTypes, (o) => applyOrigin(run, target, o));
    case "attach":
      return yield* perOrigin(run, target, target.originTypes, (o) => applyAttach(run, target, o));
    case "enrich":
      return yield* applyEnrich(run, target);
    case "map":
      return yield* perOrigin(run, target, target.originTypes, (o) => applyMap(run, target, o));
  }
}

function* perOrigin(
  run: ControlRun,
  target: Target,
  types: readonly string[],
  fn: (origin: Resource) => void,
): Steps<void> {
  let tick = 0;
  for (const origin of run.origins(types)) {
    if (++tick === ITEMS_PER_STEP) {
      tick = 0;
      yield;
    }
    try {
      if (run.matches(target, origin)) fn(origin);
    } catch (e) {
      run.fail(target, e, origin);
    }
  }
}

function applyOrigin(run: ControlRun, target: OriginTarget, origin: Resource): void {
  const values = Object.keys(target.properties).length === 0
    ? {}
    : run.renderTable(target.properties, run.scope(origin), `${target.key}.resource.properties`);
  run.mergeInto(origin, values, `${target.key}.resource.properties`);
  run.mergeInto(origin, { controls: run.entry(target) }, target.key);
  run.evidence(target, origin);
}

function applyAttach(run: ControlRun, target: AttachTarget, origin: Resource): void {
  const ctx = run.scope(origin);
  const finding = target.resourceType === FINDING_TYPE;
  const name =
    (target.name === undefined
      ? `violation-${run.control.id}-${origin.name}`
      : run.render(target.name, ctx, `${target.key}.resource.name`)).trim();
  if (name === "") {
    run.warn(
      "empty_name",
      `resource name of ${target.key} rendered empty for ${origin.type} '${origin.name}'; nothing attached`,
      `${target.key}.resource.name`,
    );
    return;
  }
  const rendered = run.renderTable(target.properties, ctx, `${target.key}.resource.properties`);
  const values: Table = {};
  if (finding) {
    // C15 defaults; explicit properties of the rule win.
    values.control_id = run.control.id;
    values.audit_id = run.auditId;
    if (target.description !== undefined) values.summary = target.description;
    values.resource_type = origin.type;
    values.resource_name = origin.name;
    for (const k of Object.keys(rendered)) delete values[k];
  }
  Object.assign(values, rendered);
  const relProps = run.renderTable(
    target.relationProperties,
    ctx,
    `${target.key}.relation.properties`,
  );
  const resource = run.graph.upsertResource(target.resourceType, name);
  run.mergeInto(resource, values, `${target.key}.resource.properties`);
  const relation = run.graph.upsertRelation(origin, target.relationType, resource);
  relProps.controls = run.entry(target);
  for (const [k, v] of Object.entries(relProps)) {
    run.graph.setRelationProperty(relation, k, aggregate(relation.properties[k], v));
  }
  for (const link of target.links) linkFurther(run, link, origin, resource, ctx);
  run.evidence(target, origin);
}

function linkFurther(
  run: ControlRun,
  link: ResourceLink,
  origin: Resource,
  created: Resource,
  ctx: Record<string, unknown>,
): void {
  let candidates: Resource[];
  if (link.name !== undefined) {
    const name = run.render(link.name, ctx, `${link.key}.name`).trim();
    const found = run.graph.getResource(link.with, name);
    candidates = found ? [found] : [];
    if (!found) {
      run.warn(
        "link_target_missing",
        `${link.key}: no ${link.with} named '${name}' (origin ${origin.type} '${origin.name}')`,
        `${link.key}.name`,
      );
    }
  } else {
    candidates = run.graph.resourcesOfSorted(link.with).filter((candidate) => {
      let c: Record<string, unknown> | undefined;
      return evaluateCondition(link.matchWith!, candidate, {
        graph: run.graph,
        render: (s, key) =>
          run.render(
            s,
            c ??= { ...ctx, target_resource: resourceView(run.graph, candidate) },
            `${link.key}.${key}`,
          ),
      });
    });
  }
  for (const other of candidates) {
    if (other === created) continue;
    if (link.direction === "outgoing") run.graph.upsertRelation(created, link.relationType, other);
    else run.graph.upsertRelation(other, link.relationType, created);
  }
}

function* applyEnrich(run: ControlRun, target: EnrichTarget): Steps<void> {
  const relations = [];
  let scanned = 0;
  for (const r of run.graph.relations()) {
    if ((++scanned & 1023) === 0) yield;
    if (
      r.source.type === target.originType && r.target.type === target.targetType &&
      (target.relationType === undefined || r.type === target.relationType)
    ) relations.push(r);
  }
  const entry = run.entry(target);
  let tick = 0;
  for (const rel of relations) {
    if (++tick === ITEMS_PER_STEP) {
      tick = 0;
      yield;
    }
    try {
      if (!run.matches(target, rel.source)) continue; // C22: match_on tests the source
      run.graph.setRelationProperty(rel, "controls", aggregate(rel.properties.controls, entry));
      run.evidence(target, {
        type: rel.type,
        name: `${rel.source.type}/${rel.source.name}->${rel.target.type}/${rel.target.name}`,
      });
    } catch (e) {
      run.fail(target, e, rel.source);
    }
  }
}

const warnedMissing = new WeakMap<MapTarget, number>();

function applyMap(run: ControlRun, target: MapTarget, origin: Resource): void {
  const roles = new Set(run.graph.resourcesOf(target.derivedType).map((r) => r.name));
  for (const [prop, raw] of Object.entries(origin.properties)) {
    if (prop === "name") continue;
    const role = Object.hasOwn(target.overrides, prop)
      ? target.overrides[prop]
      : roles.has(prop)
      ? prop
      : undefined;
    if (role === undefined) continue;
    for (const value of valuesOf(raw)) {
      const dest = run.graph.getResource(target.targetType, value);
      if (!dest) {
        const n = (warnedMissing.get(target) ?? 0) + 1;
        warnedMissing.set(target, n);
        if (n <= MAX_ERRORS_PER_TARGET) {
          run.warn(
            "responsibility_target_missing",
            `${origin.type} '${origin.name}' names ${target.targetType} '${value}' for role '${role}', which does not exist; skipped`,
            `${target.key}.map`,
          );
        }
        continue;
      }
      const rel = run.graph.upsertRelation(origin, target.primaryRelationType, dest);
      if (target.propertyOnRelation !== undefined) {
        run.graph.setRelationProperty(
          rel,
          target.propertyOnRelation,
          aggregate(rel.properties[target.propertyOnRelation], role),
        );
      }
      if (target.linkRelationToTarget) {
        const roleResource = run.graph.getResource(target.derivedType, role);
        if (roleResource) {
          run.graph.upsertRelation(roleResource, target.secondaryRelationType!, dest);
        }
      }
    }
  }
}

/** Values of a role property: array elements, or a comma list. */
function valuesOf(raw: JsonValue): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [raw];
  const out: string[] = [];
  for (const v of list) {
    if (v === null || typeof v === "object") continue;
    const s = String(v).trim();
    if (s !== "" && !out.includes(s)) out.push(s);
  }
  return out;
}
