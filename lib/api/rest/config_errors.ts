/**
 * Located configuration errors of action and contract files (reference AC5, AC40) as the REST
 * API reports them: listings leave the broken files out and carry their number in
 * `X-Config-Errors`; `GET /api/actions/errors` and `GET /api/contracts/errors` list them.
 *
 * @module
 */

/**
 * A located configuration error as `GET /api/contracts/errors` and `GET /api/actions/errors`
 * list it: `{file, line?, column?, code, message}`.
 *
 * @example
 * ```ts
 * import { configErrorJson } from "./config_errors.ts";
 * const e = { file: "contracts/a.toml", line: 3, column: 1, code: "toml_syntax", message: "contracts/a.toml:3:1: bad" };
 * console.log(configErrorJson(e).line); // 3
 * ```
 */
export function configErrorJson(
  e: { file: string; line?: number; column?: number; code: string; message: string },
): Record<string, unknown> {
  return {
    file: e.file,
    ...(e.line !== undefined ? { line: e.line } : {}),
    ...(e.column !== undefined ? { column: e.column } : {}),
    code: e.code,
    message: e.message,
  };
}

/** The header of a listing that left broken files out (their number; see `/errors`). */
export const CONFIG_ERRORS_HEADER = "X-Config-Errors";
