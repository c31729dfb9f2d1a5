/**
 * Input validation (reference AC6), shared by actions and contracts: unknown names, missing
 * required inputs, wrong types and values outside `allowed_values` are all reported at once;
 * defaults are applied to the inputs that were not given.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { InputDeclaration } from "./declarations.ts";
import { ActionInputError, type InputFieldError } from "./errors.ts";

function typeError(d: InputDeclaration, v: JsonValue): string | undefined {
  switch (d.type) {
    case "string":
      return typeof v === "string" ? undefined : "expected a string";
    case "boolean":
      return typeof v === "boolean" ? undefined : "expected a boolean (JSON true or false)";
    case "integer":
      return typeof v === "number" && Number.isInteger(v) ? undefined : "expected an integer";
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? undefined : "expected a number";
    case "array_of_string":
      return Array.isArray(v) && v.every((x) => typeof x === "string")
        ? undefined
        : "expected an array of strings";
  }
}

function sameValue(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Validates `body` (a JSON object; `undefined`/`null` counts as `{}`) against `declared`; returns
 * the inputs with defaults applied, in declaration order. Throws {@link ActionInputError}.
 *
 * @example
 * ```ts
 * import { validateInputs } from "./inputs.ts";
 * const v = validateInputs([{ name: "force", type: "boolean", required: false, default: false }], {});
 * console.log(v); // { force: false }
 * ```
 */
export function validateInputs(
  declared: readonly InputDeclaration[],
  body: unknown,
): Record<string, JsonValue> {
  const given = body ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new ActionInputError([{ field: "(body)", reason: "expected a JSON object of inputs" }]);
  }
  const values = given as Record<string, JsonValue>;
  const errors: InputFieldError[] = [];
  const known = new Set(declared.map((d) => d.name));
  for (const k of Object.keys(values).sort()) {
    if (!known.has(k)) errors.push({ field: k, reason: "unknown input" });
  }
  const out: Record<string, JsonValue> = {};
  for (const d of declared) {
    const v = Object.hasOwn(values, d.name) ? values[d.name] : undefined;
    if (v === undefined || v === null) {
      if (d.required) errors.push({ field: d.name, reason: "required" });
      else if (d.default !== undefined) out[d.name] = d.default;
      continue;
    }
    const bad = typeError(d, v);
    if (bad) {
      errors.push({ field: d.name, reason: bad });
      continue;
    }
    if (d.allowedValues && !d.allowedValues.some((a) => sameValue(a, v))) {
      errors.push({
        field: d.name,
        reason: `not one of the allowed values ${JSON.stringify(d.allowedValues)}`,
      });
      continue;
    }
    out[d.name] = v;
  }
  if (errors.length > 0) throw new ActionInputError(errors);
  return out;
}
