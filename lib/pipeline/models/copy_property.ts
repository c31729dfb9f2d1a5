/**
 * `[[copy_property]]` (reference M40–M44): push properties (or relations) from each origin to
 * the resources of type `to` directly connected to it. Legacy form `from = "a.b"`: PULL the
 * properties from the resources reached by following relations `a` then `b` onto the origin —
 * what the published firewall example needs (networks' `zone` reaches applications through
 * servers). Reference M44 words it as a push to the reached resources; the corpus data only
 * works as a pull (see the corpus test).
 *
 * @module
 */
import type { JsonValue, Resource } from "../../graph/graph.ts";
import { compareStrings } from "../../graph/graph.ts";
import { evaluateCondition } from "../rules/conditions.ts";
import { followPath, propertyValues } from "../rules/paths.ts";
import type { CopyRule } from "./compile.ts";
import { type BlockRun, ORIGINS_PER_STEP } from "./run.ts";
import type { Steps } from "../slicing.ts";

/** Resources of `type` connected to `origin` by a relation in either direction, by name. */
export function connectedOfType(run: BlockRun, origin: Resource, type: string): Resource[] {
  const seen = new Map<number, Resource>();
  for (const r of run.graph.outgoing(origin)) {
    if (r.target.type === type) seen.set(r.target.id, r.target);
  }
  for (const r of run.graph.incoming(origin)) {
    if (r.source.type === type) seen.set(r.source.id, r.source);
  }
  return [...seen.values()].sort((a, b) => compareStrings(a.name, b.name));
}

/** Runs a copy_property block over its origins (pausing every {@link ORIGINS_PER_STEP}). */
export function* runCopy(rule: CopyRule, run: BlockRun): Steps<void> {
  let tick = 0;
  for (const origin of run.origins()) {
    if (++tick === ORIGINS_PER_STEP) {
      tick = 0;
      yield;
    }
    if (origin === null) continue; // replayed from the last build (pair_memo.ts)
    if (!origin) {
      run.fail(new Error("[[copy_property]] needs an origin_resource in the file header"));
      return;
    }
    let context: Record<string, unknown> | undefined;
    const scope = () => (context ??= run.scope(origin));
    try {
      if (rule.from !== undefined) {
        if (rule.matchOn && !evaluateCondition(rule.matchOn, origin, run.conditionScope(scope))) {
          continue;
        }
        pull(rule, run, origin);
        continue;
      }
      for (const dest of connectedOfType(run, origin, rule.to!)) {
        if (rule.matchOn && !evaluateCondition(rule.matchOn, dest, run.conditionScope(scope))) {
          continue;
        }
        copyTo(rule, run, origin, dest);
      }
    } catch (e) {
      run.fail(e, origin);
    }
  }
}

function copyTo(rule: CopyRule, run: BlockRun, origin: Resource, dest: Resource): void {
  const site = run.site(origin);
  for (const spec of rule.properties) {
    const isPath = spec.from.includes(".");
    if (!isPath) {
      // A resource type name copies the relation (M42) …
      for (const r of run.graph.outgoing(origin, spec.from)) {
        if (r.target !== dest) {
          run.state.writer.relation(dest, spec.from, r.target, { ...r.properties }, site);
        }
      }
      // … and a property of that name is copied as a property.
      const v = origin.properties[spec.from];
      if (v !== undefined) run.state.writer.set(dest, spec.as, v, site);
      continue;
    }
    const values = propertyValues(run.graph, origin, spec.from).filter((v) =>
      v !== undefined
    ) as JsonValue[];
    if (values.length === 0) continue;
    run.state.writer.set(dest, spec.as, values.length === 1 ? values[0] : values, site);
  }
}

function pull(rule: CopyRule, run: BlockRun, origin: Resource): void {
  const site = run.site(origin);
  const sources = followPath(run.graph, origin, rule.from!).filter((r) => r !== origin);
  for (const spec of rule.properties) {
    let value: JsonValue | undefined;
    for (const src of sources) {
      const v = propertyValues(run.graph, src, spec.from).find((x) => x !== undefined);
      if (v !== undefined) value = v;
    }
    if (value !== undefined) run.state.writer.set(origin, spec.as, value, site);
  }
}
