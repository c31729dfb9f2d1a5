import { assert, assertEquals, assertThrows } from "../_assert.ts";
import {
  checkInputs,
  type InputDeclaration,
  parseInputDeclaration,
  validateInputs,
} from "../../lib/actions/inputs.ts";
import { validateInputs as validateContractInputs } from "../../lib/contracts/inputs.ts";
import { ActionInputError } from "../../lib/actions/errors.ts";

const DECL: InputDeclaration[] = [
  { name: "zone", type: "string", required: true, allowedValues: ["dmz", "core"] },
  { name: "force", type: "boolean", required: false, default: false },
  { name: "count", type: "integer", required: false },
  { name: "ratio", type: "number", required: false },
  { name: "tags", type: "array_of_string", required: false, allowedValues: ["a", "b"] },
];

const refuse = (m: string): never => {
  throw new Error(m);
};

Deno.test("AC6 valid inputs get defaults applied, in declaration order", () => {
  assertEquals(validateInputs(DECL, { zone: "dmz", count: 3 }), {
    zone: "dmz",
    force: false,
    count: 3,
  });
  assertEquals(validateInputs([], undefined), {});
  assertEquals(validateInputs(DECL, { zone: "core", ratio: 0.5, tags: ["a", "b"] }).tags, [
    "a",
    "b",
  ]);
});

Deno.test("AC6 unknown, missing, mistyped and disallowed inputs are all listed, values never repeated", () => {
  const e = assertThrows(
    () => validateInputs(DECL, { zone: "wan", force: "true", count: 1.5, extra: 1, tags: ["zz"] }),
    ActionInputError,
  );
  assertEquals(e.fields.map((f) => f.field), ["extra", "zone", "force", "count", "tags"]);
  assertEquals(e.fields[0].message, "unknown input 'extra'");
  assert(!e.message.includes("wan") && !e.message.includes("zz"), e.message);
});

Deno.test("AC6 array_of_string allowed_values apply item by item", () => {
  assertEquals(validateInputs(DECL, { zone: "dmz", tags: ["b"] }).tags, ["b"]);
  assertEquals(validateInputs(DECL, { zone: "dmz", tags: [] }).tags, []);
  const e = assertThrows(
    () => validateInputs(DECL, { zone: "dmz", tags: ["a", "c", "d"] }),
    ActionInputError,
  );
  assertEquals(e.fields, [{
    field: "tags",
    message: `input 'tags': 2 item(s) not one of "a", "b"`,
  }]);
});

Deno.test("AC6 a missing required input is refused; booleans accept JSON booleans only; integers are integral", () => {
  let e = assertThrows(() => validateInputs(DECL, {}), ActionInputError);
  assertEquals(e.fields, [{ field: "zone", message: "input 'zone' is required" }]);
  e = assertThrows(() => validateInputs(DECL, { zone: "dmz", force: 1 }), ActionInputError);
  assertEquals(e.fields[0].field, "force");
  e = assertThrows(() => validateInputs(DECL, { zone: "dmz", count: 2.5 }), ActionInputError);
  assertEquals(e.fields[0].field, "count");
  assertEquals(validateInputs(DECL, { zone: "dmz", count: 2.0 }).count, 2);
  e = assertThrows(() => validateInputs(DECL, [1]), ActionInputError);
  assertEquals(e.fields[0].field, "(body)");
});

Deno.test("AC6 AC41 actions and contracts share one validator: same answer for the same call", () => {
  for (const body of [{}, { zone: "wan" }, { zone: "dmz", tags: ["x"] }, { zone: "dmz" }, null]) {
    const contract = validateContractInputs(DECL, body);
    assertEquals(contract, checkInputs(DECL, body));
    if (contract.ok) assertEquals(validateInputs(DECL, body), contract.values);
    else {
      const e = assertThrows(() => validateInputs(DECL, body), ActionInputError);
      assertEquals(e.fields, contract.errors);
    }
  }
});

Deno.test("AC2 an input's default and allowed_values are type-checked when the file is read", () => {
  const bad = (body: Record<string, unknown>, text: string) =>
    assertThrows(
      () => parseInputDeclaration(body as Parameters<typeof parseInputDeclaration>[0], refuse),
      Error,
      text,
    );
  bad({ name: "n", type: "integer", default: "3" }, "'default': expected an integer");
  bad({ name: "b", type: "boolean", default: "false" }, "'default'");
  bad({ name: "z", allowed_values: ["a"], default: "b" }, "'default': the value is not one of");
  bad({ name: "t", type: "array_of_string", default: "a" }, "'default'");
  bad({ name: "t", type: "array_of_string", allowed_values: ["a"], default: ["b"] }, "'default'");
  bad({ name: "n", type: "integer", allowed_values: [1, "2"] }, "allowed_values");
  bad({ name: "n", allowed_values: [] }, "non-empty");
  bad({ name: "n", colour: "red" }, "unknown key 'colour'");
  bad({ name: "1x" }, "identifier");
  bad({ name: "n", type: "date" }, "'type' must be one of");
  const ok = parseInputDeclaration(
    { name: "t", type: "array", allowed_values: ["a", "b"], default: ["a"] },
    refuse,
  );
  assertEquals([ok.type, ok.default], ["array_of_string", ["a"]]);
  const named = parseInputDeclaration({ type: "boolean" }, refuse, { name: "d", required: true });
  assertEquals([named.name, named.required], ["d", true]);
});
