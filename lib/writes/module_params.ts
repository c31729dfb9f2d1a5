/**
 * Runtime module parameters (reference R20–R23): their public description, validation of updates
 * (all or nothing) and persistence in `<data-dir>/.graphsvc/module-params.json`, so that a
 * restart keeps what was set through the API (CLI values still win at start-up).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { WriteError } from "./errors.ts";

/** Workspace path of the persisted parameter values. */
export const PARAMS_FILE = ".graphsvc/module-params.json";

/** One parameter as `GET /api/module-params` shows it (R20). */
export interface ParamView {
  /** Current value (`null` when unset). */
  value: JsonValue;
  /** Declared default (`null` when none). */
  default: JsonValue;
  /** Allowed values (`null` when unrestricted). */
  allowed_values: JsonValue[] | null;
  /** Whether a value is required. */
  required: boolean;
  /** Declared description (`null` when none). */
  description: string | null;
  /** Id of the declaring module (`data` for the data directory; `null` when undeclared). */
  module: string | null;
}

/**
 * Describes every declared parameter (and every undeclared one that has a value).
 *
 * @example
 * ```ts
 * import { emptyManifest } from "../workspace/manifest.ts";
 * import { describeParams } from "./module_params.ts";
 * describeParams(emptyManifest(), { stage: "DEV" }).stage.value; // "DEV"
 * ```
 */
export function describeParams(
  manifest: ModuleManifest,
  values: Readonly<Record<string, JsonValue>>,
): Record<string, ParamView> {
  const out: Record<string, ParamView> = {};
  for (const [name, decl] of manifest.params) {
    out[name] = {
      value: values[name] ?? decl.default ?? null,
      default: decl.default ?? null,
      allowed_values: decl.allowedValues ?? null,
      required: decl.required,
      description: decl.description ?? null,
      module: decl.layer,
    };
  }
  for (const [name, value] of Object.entries(values)) {
    if (out[name]) continue;
    out[name] = {
      value,
      default: null,
      allowed_values: null,
      required: false,
      description: null,
      module: null,
    };
  }
  return out;
}

/**
 * Validates an update body (R22): a JSON object whose every name is declared, whose values are
 * allowed, and which sets no required parameter to `null` or `""`. Returns the update; throws a
 * `bad-request` {@link WriteError} naming the first bad entry, so nothing is applied.
 *
 * @example
 * ```ts
 * import { emptyManifest } from "../workspace/manifest.ts";
 * import { validateParamUpdate } from "./module_params.ts";
 * try { validateParamUpdate(emptyManifest(), { nope: 1 }); } catch (e) { console.log(String(e)); }
 * ```
 */
export function validateParamUpdate(
  manifest: ModuleManifest,
  body: unknown,
): Record<string, JsonValue> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new WriteError("bad-request", "the body must be a JSON object of parameter values");
  }
  const update = body as Record<string, JsonValue>;
  for (const [name, value] of Object.entries(update)) {
    const decl = manifest.params.get(name);
    if (!decl) throw new WriteError("bad-request", `unknown parameter '${name}'`, name);
    if (value === null || value === "") {
      if (decl.required) {
        throw new WriteError("bad-request", `parameter '${name}' is required`, name);
      }
      continue;
    }
    if (typeof value === "object") {
      throw new WriteError(
        "bad-request",
        `parameter '${name}' must be a string, number or boolean`,
        name,
      );
    }
    if (decl.allowedValues && !decl.allowedValues.some((v) => v === value)) {
      throw new WriteError(
        "bad-request",
        `parameter '${name}' = ${JSON.stringify(value)} is not one of ${
          JSON.stringify(decl.allowedValues)
        }`,
        name,
      );
    }
  }
  return update;
}

/**
 * Reads the persisted parameter values; `{}` when there are none. A damaged file is reported
 * through `warn` and ignored (it is rewritten by the next update).
 */
export async function loadPersistedParams(
  workspace: Workspace,
  warn: (message: string) => void = () => {},
): Promise<Record<string, JsonValue>> {
  const text = await workspace.readText(PARAMS_FILE);
  if (text === undefined) return {};
  try {
    const parsed = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    warn(`${PARAMS_FILE}: expected a JSON object; ignored`);
  } catch (e) {
    warn(`${PARAMS_FILE}: ${e instanceof Error ? e.message : String(e)}; ignored`);
  }
  return {};
}

/** Persists parameter values set through the API (atomically, durably). */
export async function persistParams(
  workspace: Workspace,
  values: Readonly<Record<string, JsonValue>>,
): Promise<void> {
  await workspace.writeTextAtomic(PARAMS_FILE, JSON.stringify(values, null, 2) + "\n");
}
