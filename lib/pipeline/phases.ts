/**
 * The rule phases wired into the default pipeline.
 *
 * @module
 */
import type { RulePhases } from "./build.ts";
import { collectRetypeRules, runModelPhase } from "./models/mod.ts";
import { runCompliancePhase } from "./compliance/mod.ts";
import { runOutputPhase } from "./outputs/mod.ts";

/**
 * Rule phases used by the CLI, the server and {@link GraphEngine} users by default: models (with
 * retype rules collected before the first auto-linking), compliance, outputs.
 */
export const defaultPhases: RulePhases = {
  collectRetypeRules,
  models: runModelPhase,
  compliance: runCompliancePhase,
  outputs: runOutputPhase,
};
