import { assertEquals, assertThrows } from "../_assert.ts";
import { validateInputs } from "../../lib/actions/inputs.ts";
import type { InputDeclaration } from "../../lib/actions/declarations.ts";
import { ActionInputError } from "../../lib/actions/errors.ts";

const DECL: InputDeclaration[] = [
  { name: "zone", type: "string", required: true, allowedValues: ["dmz", "core"] },
  { name: "force", type: "boolean", required: false, default: false },
  { name: "count", type: "integer", required: false },
  { name: "ratio", type: "number", required: false },
  { name: "tags", type: "array_of_string", required: false },
];

Deno.test("AC6 valid inputs get defaults applied, in declaration order", () => {
  assertEquals(validateInputs(DECL, { zone: "dmz", count: 3 }), {
    zone: "dmz",
    force: false,
    count: 3,
  });
  assertEquals(validateInputs([], undefined), {});
  assertEquals(validateInputs(DECL, { zone: "core", ratio: 0.5, tags: ["a"] }).tags, ["a"]);
});

Deno.test("AC6 unknown, missing, mistyped and disallowed inputs are all listed", () => {
  const e = assertThrows(
    () => validateInputs(DECL, { zone: "wan", force: "true", count: 1.5, extra: 1, tags: [1] }),
    ActionInputError,
  );
  assertEquals(e.fields.map((f) => f.field), ["extra", "zone", "force", "count", "tags"]);
  assertEquals(e.fields[0].reason, "unknown input");
});

Deno.test("AC6 a missing required input is refused; booleans accept JSON booleans only", () => {
  let e = assertThrows(() => validateInputs(DECL, {}), ActionInputError);
  assertEquals(e.fields, [{ field: "zone", reason: "required" }]);
  e = assertThrows(() => validateInputs(DECL, { zone: "dmz", force: 1 }), ActionInputError);
  assertEquals(e.fields[0].field, "force");
  e = assertThrows(() => validateInputs(DECL, [1]), ActionInputError);
  assertEquals(e.fields[0].field, "(body)");
});
