/**
 * Checks a JSON request body against the schema the API document gives for it (schemas.ts,
 * TypeBox), so the documented shape is the enforced one. Only the shape: what depends on the
 * data (declared columns, allowed values, required parameters) is checked by the write path.
 *
 * @module
 */
import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import { problem } from "../problem.ts";

/**
 * `undefined` when `value` matches `schema`; otherwise a `400` problem document naming the first
 * offending field. `expected` says what the body must be (whole body) and `fieldExpected` what a
 * field must be.
 *
 * @example
 * ```ts
 * import Type from "typebox";
 * const schema = Type.Record(Type.String(), Type.String());
 * console.log(bodyProblem(schema, { a: "x" }, "an object", "a string")); // undefined
 * console.log(bodyProblem(schema, { a: 1 }, "an object", "a string")?.status); // 400
 * ```
 */
export function bodyProblem(
  schema: TSchema,
  value: unknown,
  expected: string,
  fieldExpected: string,
): Response | undefined {
  if (Value.Check(schema, value)) return undefined;
  const [first] = Value.Errors(schema, value);
  const segment = first?.instancePath.split("/")[1];
  if (segment === undefined || segment === "") {
    return problem(400, "bad-request", `the body must be ${expected}`);
  }
  const field = segment.replace(/~1/g, "/").replace(/~0/g, "~");
  return problem(400, "bad-request", `field '${field}' must be ${fieldExpected}`, { field });
}
