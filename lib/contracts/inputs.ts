/**
 * Declared inputs (reference AC2, AC6, AC41): parsing of `[[input]]` tables and validation of a
 * call's JSON object — unknown names, missing required inputs, wrong types and values outside
 * `allowed_values` are each reported by field; defaults are applied.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { type ContractInput, INPUT_TYPES, type InputProblem, type InputType } from "./types.ts";

const INPUT_KEYS = new Set([
  "name",
  "description",
  "type",
  "required",
  "default",
  "allowed_values",
]);

/**
 * Parses one `[[input]]` table; `bad` receives each problem with the offending key.
 *
 * @example
 * ```ts
 * import { parseInputDeclaration } from "./inputs.ts";
 * const i = parseInputDeclaration({ name: "env", allowed_values: ["dev", "prod"] }, (m) => {
 *   throw new Error(m);
 * });
 * console.log(i.type, i.required); // "string" false
 * ```
 */
export function parseInputDeclaration(
  body: Readonly<Record<string, JsonValue>>,
  bad: (message: string, key?: string) => never,
): ContractInput {
  for (const key of Object.keys(body)) {
    if (!INPUT_KEYS.has(key)) {
      bad(`unknown key '${key}' (expected ${[...INPUT_KEYS].join(", ")})`, key);
    }
  }
  const name = body.name;
  if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    bad("'name' must be an identifier (letters, digits, '_')", "name");
  }
  const type = body.type ?? "string";
  if (typeof type !== "string" || !(INPUT_TYPES as readonly string[]).includes(type)) {
    bad(`'type' must be one of ${INPUT_TYPES.join(", ")}`, "type");
  }
  const required = body.required ?? false;
  if (typeof required !== "boolean") bad("'required' must be true or false", "required");
  if (body.description !== undefined && typeof body.description !== "string") {
    bad("'description' must be a string", "description");
  }
  let allowedValues: JsonValue[] | undefined;
  if (body.allowed_values !== undefined) {
    if (!Array.isArray(body.allowed_values) || body.allowed_values.length === 0) {
      bad("'allowed_values' must be a non-empty array", "allowed_values");
    }
    allowedValues = body.allowed_values as JsonValue[];
    const scalar = type === "array_of_string" ? "string" : type as InputType;
    for (const v of allowedValues) {
      if (typeMismatch(v, scalar)) {
        bad(`allowed_values: ${JSON.stringify(v)} is not a ${scalar}`, "allowed_values");
      }
    }
  }
  const input: ContractInput = {
    name: name as string,
    type: type as InputType,
    required: required as boolean,
    default: body.default,
    allowedValues,
    description: body.description as string | undefined,
  };
  if (body.default !== undefined) {
    const problem = checkValue(input, body.default);
    if (problem) bad(`default: ${problem}`, "default");
  }
  return input;
}

/**
 * Validates a call's inputs (AC6) and applies defaults. Returns the values or every problem;
 * problems never repeat the given value (it may be secret).
 *
 * @example
 * ```ts
 * import { validateInputs } from "./inputs.ts";
 * const r = validateInputs([{ name: "n", type: "integer", required: true }], { n: 1.5 });
 * console.log(r.ok); // false
 * ```
 */
export function validateInputs(
  declared: readonly ContractInput[],
  given: unknown,
): { ok: true; values: Record<string, JsonValue> } | { ok: false; errors: InputProblem[] } {
  const errors: InputProblem[] = [];
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    return {
      ok: false,
      errors: [{ field: "", message: "the body must be a JSON object of input values" }],
    };
  }
  const body = given as Record<string, JsonValue>;
  const byName = new Map(declared.map((d) => [d.name, d]));
  for (const key of Object.keys(body)) {
    if (!byName.has(key)) errors.push({ field: key, message: `unknown input '${key}'` });
  }
  const values: Record<string, JsonValue> = {};
  for (const d of declared) {
    const v = Object.hasOwn(body, d.name) ? body[d.name] : undefined;
    if (v === undefined || v === null) {
      if (d.default !== undefined) values[d.name] = d.default;
      else if (d.required) {
        errors.push({ field: d.name, message: `input '${d.name}' is required` });
      }
      continue;
    }
    const problem = checkValue(d, v);
    if (problem) errors.push({ field: d.name, message: `input '${d.name}': ${problem}` });
    else values[d.name] = v;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** Why `value` does not fit `input` (type, then `allowed_values`); `undefined` when it does. */
function checkValue(input: ContractInput, value: JsonValue): string | undefined {
  if (input.type === "array_of_string") {
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
      return "expected an array of strings";
    }
    if (input.allowedValues) {
      const bad = value.filter((v) => !input.allowedValues!.includes(v));
      if (bad.length > 0) return `${bad.length} item(s) not in ${list(input.allowedValues)}`;
    }
    return undefined;
  }
  if (typeMismatch(value, input.type)) return `expected ${article(input.type)}`;
  if (input.allowedValues && !input.allowedValues.includes(value)) {
    return `the value is not one of ${list(input.allowedValues)}`;
  }
  return undefined;
}

function typeMismatch(value: JsonValue, type: InputType): boolean {
  switch (type) {
    case "string":
      return typeof value !== "string";
    case "boolean":
      return typeof value !== "boolean";
    case "integer":
      return typeof value !== "number" || !Number.isInteger(value);
    case "number":
      return typeof value !== "number" || !Number.isFinite(value);
    default:
      return !Array.isArray(value);
  }
}

function article(type: InputType): string {
  return type === "integer" ? "an integer" : `a ${type}`;
}

function list(values: readonly JsonValue[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}
