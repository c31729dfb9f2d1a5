/**
 * The rule phases wired into the default pipeline.
 *
 * @module
 */
import type { RulePhases } from "./build.ts";
import { collectRetypeRules, modelPhaseSteps } from "./models/mod.ts";
import { compliancePhaseSteps } from "./compliance/mod.ts";
import { outputPhaseSteps } from "./outputs/mod.ts";

/**
 * Rule phases used by the CLI, the server and {@link GraphEngine} users by default: models (with
 * retype rules collected before the first auto-linking), compliance, outputs. Each returns steps
 * (see `slicing.ts`), so a sliced build pauses inside them.
 */
export const defaultPhases: RulePhases = {
  collectRetypeRules,
  models: modelPhaseSteps,
  compliance: compliancePhaseSteps,
  outputs: outputPhaseSteps,
};
