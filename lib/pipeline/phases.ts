/**
 * The rule phases wired into the default pipeline.
 *
 * @module
 */
import type { RulePhases } from "./build.ts";

/** Rule phases used by the CLI, the server and {@link GraphEngine} users by default. */
export const defaultPhases: RulePhases = {};
