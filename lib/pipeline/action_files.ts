/**
 * Action files checked by the build (reference AC2, O12): an `actions/*.toml` file that does not
 * parse is an error of the build, located at its file, line and column like a rule file's. The
 * graph does not depend on actions, so such an error is soft: the build is published as
 * `degraded` and the action service leaves the file out.
 *
 * @module
 */
import { ParseError } from "../formats/errors.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";
import { filesIn, type SourceSet } from "../workspace/sources.ts";

/** The build phase of action file errors; errors of this phase do not fail a build. */
export const ACTION_FILES_PHASE = "actions";

/**
 * The parse errors of every layer's action files, in load order.
 *
 * @example
 * ```ts
 * import { actionFileErrors } from "./action_files.ts";
 * const data = {
 *   id: "data",
 *   isDataDir: true,
 *   location: "memory:",
 *   files: new Map([["actions/a.toml", "name = "]]),
 * };
 * console.log(actionFileErrors({ modules: [], data })[0].file); // "actions/a.toml"
 * ```
 */
export function actionFileErrors(sources: SourceSet): ParseError[] {
  const out: ParseError[] = [];
  for (const file of filesIn(sources, "actions", [".toml"])) {
    try {
      parseTomlDocument(file.text, file.displayPath);
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      out.push(e);
    }
  }
  return out;
}
