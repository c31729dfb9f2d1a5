/**
 * Declared inputs (reference AC2, AC6, AC41), the one implementation actions and contracts share:
 * parsing of an input table (its `default` and `allowed_values` are type-checked when the file
 * is read) and validation of a call's JSON object — unknown names, missing required inputs, wrong
 * types and values outside `allowed_values` (item by item for `array_of_string`) are all reported
 * at once, one `{field, message}` per problem; defaults are applied to the inputs not given.
 * Messages never repeat a given value (it may be a secret).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { ActionInputError } from "./errors.ts";

/** Types of an input (AC2). */
export type InputType = "string" | "boolean" | "integer" | "number" | "array_of_string";

/** The input types, in the order messages list them. */
export const INPUT_TYPES: readonly InputType[] = [
  "string",
  "boolean",
  "integer",
  "number",
  "array_of_string",
];

/** One declared input (AC2, AC6; contracts' `[[input]]`, AC41, is the same). */
export interface InputDeclaration {
  /** Input name (`input.<name>` in templates). */
  name: string;
  /** Documentation. */
  description?: string;
  /** Value type (default `string`). */
  type: InputType;
  /** Whether the input must be given (default false). */
  required: boolean;
  /** Value used when the input is not given. */
  default?: JsonValue;
  /** Allowed values (of each item, for `array_of_string`), when restricted. */
  allowedValues?: JsonValue[];
}

/** A declared input as the listings show it (AC10, AC44): optional keys only when declared. */
export interface InputSummary {
  /** Input name. */
  name: string;
  /** Value type (AC2). */
  type: string;
  /** Whether the caller must give it. */
  required: boolean;
  /** Value used when it is left out. */
  default?: JsonValue;
  /** The only values accepted (of each item, for `array_of_string`). */
  allowed_values?: JsonValue[];
  /** Text for UIs. */
  description?: string;
}

/**
 * The listing form of a declared input (`GET /api/actions`, `GET /api/contracts`).
 *
 * @example
 * ```ts
 * import { inputSummary } from "./inputs.ts";
 * console.log(inputSummary({ name: "zone", type: "string", required: true }));
 * // { name: "zone", type: "string", required: true }
 * ```
 */
export function inputSummary(input: InputSpec): InputSummary {
  return {
    name: input.name,
    type: input.type,
    required: input.required,
    ...(input.default !== undefined ? { default: input.default } : {}),
    ...(input.allowedValues ? { allowed_values: [...input.allowedValues] } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
}

/** A read-only view of a declared input: what validation reads (contracts' inputs fit). */
export type InputSpec = Readonly<Omit<InputDeclaration, "allowedValues">> & {
  /** Allowed values, when restricted. */
  readonly allowedValues?: readonly JsonValue[];
};

/** One refused input (AC6): the field and what is wrong with it, without its value. */
export interface InputProblem {
  /** The input's name (`(body)` when the body is not a JSON object). */
  field: string;
  /** What is wrong. */
  message: string;
}

/** Keys of an input table (AC2). */
export const INPUT_KEYS: readonly string[] = [
  "name",
  "description",
  "type",
  "required",
  "default",
  "allowed_values",
];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses one input table; `bad` receives each problem with the offending key and must throw.
 * `named` gives the name and required flag of the published modules' form
 * (`[input] properties = { <name> = { … } }`, `required = [ … ]`), where the table has no `name`.
 * `type = "array"` is read as `array_of_string`.
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
  named?: { name: string; required: boolean },
): InputDeclaration {
  const keys = named ? INPUT_KEYS.filter((k) => k !== "name") : INPUT_KEYS;
  for (const key of Object.keys(body)) {
    if (!keys.includes(key)) bad(`unknown key '${key}' (expected ${keys.join(", ")})`, key);
  }
  const name = named ? named.name : body.name;
  if (typeof name !== "string" || !IDENTIFIER.test(name)) {
    bad("'name' must be an identifier (letters, digits, '_')", "name");
  }
  let type = body.type ?? "string";
  if (type === "array") type = "array_of_string";
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
        bad(`allowed_values: ${JSON.stringify(v)} is not ${article(scalar)}`, "allowed_values");
      }
    }
  }
  const input: InputDeclaration = {
    name: name as string,
    type: type as InputType,
    required: (named?.required ?? false) || required === true,
    default: body.default,
    allowedValues,
    description: body.description as string | undefined,
  };
  if (body.default !== undefined) {
    const problem = checkValue(input, body.default);
    if (problem) bad(`'default': ${problem}`, "default");
  }
  return input;
}

/**
 * Validates a call's inputs (AC6) and applies defaults (a required input with a default is never
 * missing). `body` must be a JSON object; `undefined` counts as `{}`. Returns the values in
 * declaration order, or every problem: unknown names first (sorted), then the declared inputs in
 * order.
 *
 * @example
 * ```ts
 * import { checkInputs } from "./inputs.ts";
 * const r = checkInputs([{ name: "n", type: "integer", required: true }], { n: 1.5 });
 * console.log(r.ok); // false
 * ```
 */
export function checkInputs(
  declared: readonly InputSpec[],
  body: unknown,
): { ok: true; values: Record<string, JsonValue> } | { ok: false; errors: InputProblem[] } {
  const given = body === undefined ? {} : body;
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    return {
      ok: false,
      errors: [{ field: "(body)", message: "the body must be a JSON object of input values" }],
    };
  }
  const values = given as Record<string, JsonValue>;
  const errors: InputProblem[] = [];
  const known = new Set(declared.map((d) => d.name));
  for (const key of Object.keys(values).sort()) {
    if (!known.has(key)) errors.push({ field: key, message: `unknown input '${key}'` });
  }
  const out: Record<string, JsonValue> = {};
  for (const d of declared) {
    const v = Object.hasOwn(values, d.name) ? values[d.name] : undefined;
    if (v === undefined || v === null) {
      if (d.default !== undefined) out[d.name] = d.default;
      else if (d.required) errors.push({ field: d.name, message: `input '${d.name}' is required` });
      continue;
    }
    const problem = checkValue(d, v);
    if (problem) errors.push({ field: d.name, message: `input '${d.name}': ${problem}` });
    else out[d.name] = v;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values: out };
}

/**
 * {@link checkInputs} for actions: returns the values or throws {@link ActionInputError} listing
 * every problem.
 *
 * @example
 * ```ts
 * import { validateInputs } from "./inputs.ts";
 * const v = validateInputs([{ name: "force", type: "boolean", required: false, default: false }], {});
 * console.log(v); // { force: false }
 * ```
 */
export function validateInputs(
  declared: readonly InputSpec[],
  body: unknown,
): Record<string, JsonValue> {
  const checked = checkInputs(declared, body);
  if (!checked.ok) throw new ActionInputError(checked.errors);
  return checked.values;
}

/** Why `value` does not fit `input` (type, then `allowed_values`); `undefined` when it does. */
function checkValue(input: InputSpec, value: JsonValue): string | undefined {
  if (input.type === "array_of_string") {
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
      return "expected an array of strings";
    }
    if (input.allowedValues) {
      const bad = value.filter((v) => !input.allowedValues!.includes(v));
      if (bad.length > 0) return `${bad.length} item(s) not one of ${list(input.allowedValues)}`;
    }
    return undefined;
  }
  if (typeMismatch(value, input.type)) {
    return input.type === "boolean"
      ? "expected a boolean (JSON true or false)"
      : `expected ${article(input.type)}`;
  }
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
      return !Array.isArray(value) || value.some((v) => typeof v !== "string");
  }
}

function article(type: InputType): string {
  return type === "integer"
    ? "an integer"
    : type === "array_of_string"
    ? "an array of strings"
    : `a ${type}`;
}

function list(values: readonly JsonValue[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}
