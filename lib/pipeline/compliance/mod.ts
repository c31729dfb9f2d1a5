/**
 * The compliance phase (reference C1–C50, spec §1.2 and §1.11): `compliance/*.toml` files of every
 * layer, in rule order, govern the graph built by the models. Each `[[control]]` applies its
 * `[[control.target]]`s in document order; a target
 *
 * - with `[control.target.map]` maps responsibilities (C30–C32),
 * - with `relation_origin_type` + `relation_target_type` appends a control entry to the
 *   `controls` property of every matching relation (C20–C22),
 * - with `resource.type` attaches a resource (or a `policy_violation` finding named
 *   `violation-<control id>-<resource>`) to every matching origin (C12–C15),
 * - otherwise writes `resource.properties` (possibly none) and a control entry onto every matching
 *   origin (C10–C11).
 *
 * Writes use the aggregating merge of C40. Choices where the reference leaves room ([P]):
 * control entries carry config values only for keys listed in `properties_from_config` (on every
 * target kind); the relation of an attached resource also receives the control entry in
 * `controls`; a control resource's `evidence_summary` (C42) falls back to the control's
 * description, then its name, when the target has no description. Errors name file, control,
 * target key and origin; one failing target or origin never hides the others.
 *
 * @example
 * ```ts
 * import { runCompliancePhase } from "./mod.ts";
 * // buildGraph(sources, { createTemplates, phases: { compliance: runCompliancePhase } });
 * console.log(typeof runCompliancePhase); // "function"
 * ```
 *
 * @module
 */
import type { PhaseContext } from "../context.ts";
import { loadRuleFiles, RuleEnvironment } from "../rules/environment.ts";
import { reportRuleError, RuleError } from "../rules/errors.ts";
import { compileControl } from "./compile.ts";
import { ControlRun, warnAt } from "./run.ts";
import { applyTarget } from "./targets.ts";
import { runSteps, type Steps } from "../slicing.ts";

export { aggregate, controlEntry, type ControlEntrySource, deepEqual } from "./merge.ts";
export type { JsonValue } from "../../graph/graph.ts";
export { DEFAULT_ATTACH_RELATION, DEFAULT_FINDING_RELATION, FINDING_TYPE } from "./compile.ts";

/**
 * Runs every compliance file of the build against `ctx.graph`. Problems become build issues
 * (phase `compliance`); the function never throws for bad input.
 *
 * @example
 * ```ts ignore
 * const result = buildGraph(sources, {
 *   createTemplates,
 *   phases: { compliance: runCompliancePhase },
 * });
 * console.log(result.graph.resourcesOf("policy_violation").length);
 * ```
 */
export function runCompliancePhase(ctx: PhaseContext): void {
  runSteps(compliancePhaseSteps(ctx));
}

/**
 * {@link runCompliancePhase} as steps (see `slicing.ts`): pauses between targets and every few
 * origins of a target.
 *
 * @example
 * ```ts
 * import { compliancePhaseSteps } from "./mod.ts";
 * // buildGraph(sources, { createTemplates, phases: { compliance: compliancePhaseSteps } });
 * console.log(typeof compliancePhaseSteps); // "function"
 * ```
 */
export function* compliancePhaseSteps(ctx: PhaseContext): Steps<void> {
  const env = new RuleEnvironment(ctx, "compliance");
  const files = loadRuleFiles(ctx, "compliance", { blockKinds: ["control"] }, "compliance");
  for (const { source, parsed } of files) {
    const file = source.displayPath;
    const first = parsed.chunks[0];
    const auditEntry = parsed.chunks.flatMap((c) => c.header).find((h) => h.key === "audit_id");
    if (typeof auditEntry?.value !== "string" || auditEntry.value.trim() === "") {
      reportRuleError(
        ctx.issues,
        "compliance",
        { file, chunk: first },
        new RuleError(
          "compliance file needs a string 'audit_id' at top level; file not applied",
          "audit_id",
          "audit_id_missing",
        ),
      );
      continue;
    }
    const auditId = auditEntry.value;
    const ids = new Set<string>();
    const clock = ctx.graph.clock;
    for (const chunk of parsed.chunks) {
      let prepared;
      try {
        prepared = env.prepareChunk(source, chunk);
      } catch (e) {
        reportRuleError(ctx.issues, "compliance", { file, chunk }, e);
        continue;
      }
      for (const block of chunk.blocks) {
        const site = { file, chunk, block };
        const { control, errors, warnings } = compileControl(block);
        for (const e of errors) reportRuleError(ctx.issues, "compliance", site, e);
        for (const w of warnings) warnAt(ctx.issues, site, "unknown_key", w.message, w.key);
        if (!control) continue;
        if (ids.has(control.id)) {
          reportRuleError(
            ctx.issues,
            "compliance",
            site,
            new RuleError(
              `duplicate control id '${control.id}' in this file`,
              "id",
              "control_duplicate",
            ),
          );
          continue;
        }
        ids.add(control.id);
        const run = new ControlRun(env, prepared, block, auditId, control);
        for (const target of control.targets) {
          yield;
          try {
            yield* applyTarget(run, target);
          } catch (e) {
            run.fail(target, e);
          }
        }
      }
    }
    // Provenance: every resource this file created or wrote onto (properties or relations).
    if (ctx.provenance) {
      for (const r of ctx.graph.resourcesChangedSince(clock)) {
        ctx.provenance.note(r.id, file, "compliance");
      }
    }
  }
}
