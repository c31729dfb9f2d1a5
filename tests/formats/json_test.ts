/**
 * JSON input files (assets.md A24–A26; issue: bad input gets file, line and column): every syntax
 * error is a located ParseError whose message carries no excerpt of the file.
 */
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { parseJson } from "../../lib/formats/json.ts";
import { ParseError } from "../../lib/formats/errors.ts";

function errorOf(text: string): ParseError {
  try {
    parseJson(text, "input/x.json");
  } catch (e) {
    assert(e instanceof ParseError, String(e));
    return e;
  }
  throw new Error(`parsed: ${text}`);
}

Deno.test("A25 valid JSON parses, with or without a BOM", () => {
  assertEquals(parseJson('{"a":[1,2,{"b":null}]}', "x.json"), { a: [1, 2, { b: null }] });
  assertEquals(parseJson('\ufeff["x"]', "x.json"), ["x"]);
});

Deno.test("every syntax error names line and column, never the file content", () => {
  const cases: [string, number, number][] = [
    ['{"a": tru}', 1, 7],
    ['{\n  "a": 1,\n}', 3, 1],
    ["[1,2", 1, 5],
    ["", 1, 1],
    ['{"secret": "hunter2" x}', 1, 22],
    ['{"a":1}x', 1, 8],
    ['["a\nb"]', 1, 4],
    ['{"a" 1}', 1, 6],
    ["[01]", 1, 3],
  ];
  for (const [text, line, column] of cases) {
    const e = errorOf(text);
    assertEquals([e.line, e.column, e.code], [line, column, "json_syntax"], JSON.stringify(text));
    assert(!e.message.includes("hunter2"), e.message);
  }
});

Deno.test("deeply nested invalid JSON is located without overflowing the stack", () => {
  const e = errorOf("[".repeat(200_000) + "x");
  assertEquals([e.line, e.column], [1, 200_001]);
});

Deno.test("fuzz: parseJson returns a value or throws a located ParseError, nothing else", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json().map((j) => j.slice(0, -1) + "?")), (text) => {
      try {
        parseJson(text, "f.json");
      } catch (e) {
        assert(e instanceof ParseError, String(e));
        assert(e.line !== undefined && e.column !== undefined);
      }
    }),
    { seed: 7, numRuns: Number(Deno.env.get("FC_RUNS") ?? 500) },
  );
});
