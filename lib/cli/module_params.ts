/**
 * Parsing `--module-params` values (reference MP26): a JSON object literal, `@file` (JSON, or TOML
 * when the file name ends in `.toml`), or `k=v[,k=v…]` pairs. Later occurrences override earlier
 * keys.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";

/** Thrown for a `--module-params` value that cannot be parsed. */
export class ModuleParamsError extends Error {
  /** @param message what is wrong */
  constructor(message: string) {
    super(message);
    this.name = "ModuleParamsError";
  }
}

/**
 * Parses one `--module-params` value. `readFile` resolves `@file` forms; `name` is where the
 * value came from, for messages (`--module-params`, or `GRAPHSVC_MODULE_PARAMS` when the
 * environment set it).
 *
 * @example
 * ```ts
 * import { parseModuleParams } from "./module_params.ts";
 * parseModuleParams("stage=PROD,tenant=a", () => undefined); // { stage: "PROD", tenant: "a" }
 * ```
 */
export function parseModuleParams(
  value: string,
  readFile: (path: string) => string | undefined,
  name = "--module-params",
): Record<string, JsonValue> {
  const text = value.trim();
  if (text.startsWith("@")) {
    const path = text.slice(1);
    const content = readFile(path);
    if (content === undefined) {
      throw new ModuleParamsError(`${name}: cannot read parameter file '${path}'`);
    }
    if (/\.toml$/i.test(path)) {
      try {
        return parseTomlDocument(content, path);
      } catch (e) {
        throw new ModuleParamsError(
          `${name}: parameter file '${path}' is not valid TOML: ${
            e instanceof Error ? e.message : e
          }`,
        );
      }
    }
    return parseObject(content, `${name}: parameter file '${path}'`);
  }
  if (text.startsWith("{")) return parseObject(text, name);
  const out: Record<string, JsonValue> = {};
  for (const pair of text.split(",")) {
    if (pair.trim() === "") continue;
    const eq = pair.indexOf("=");
    if (eq <= 0) {
      throw new ModuleParamsError(`expected key=value in ${name}, got '${pair}'`);
    }
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

function parseObject(text: string, what: string): Record<string, JsonValue> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ModuleParamsError(`${what} is not valid JSON: ${e instanceof Error ? e.message : e}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ModuleParamsError(`${what} must be a JSON object`);
  }
  return parsed as Record<string, JsonValue>;
}
