/**
 * JMESPath string functions in linear time with the library's exact results (issue: hardening,
 * item 1 — user input must not freeze the service): trim/trim_left/trim_right and counted replace.
 */
import fc from "fast-check";
import { assertEquals, assertThrows } from "../_assert.ts";
import { runJmespath } from "../../lib/template/extensions/collections.ts";
import { replaceCounted } from "../../lib/template/extensions/jmespath_linear.ts";

/** The library's original definitions, as the reference for the differential property. */
function referenceTrim(subject: string, kind: "left" | "right", chars?: string): string {
  const pattern = chars ? chars.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&") : "\\s\x85";
  const re = kind === "left"
    ? new RegExp(`^[${pattern}]*(.*?)`)
    : new RegExp(`(.*?)[${pattern}]*$`);
  return subject.replace(re, "$1");
}

Deno.test("trim functions agree with the library's regex definitions", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "\t", "x", "\u0085", "\u2028", "-") }),
      fc.option(fc.string({ unit: fc.constantFrom("x", "-", "a", " "), minLength: 1 })),
      (s, chars) => {
        const args = chars === null ? "" : `, '${chars}'`;
        const data = { s };
        assertEquals(
          runJmespath("jmespath", data, `trim_left(s${args})`),
          referenceTrim(s, "left", chars ?? undefined),
        );
        assertEquals(
          runJmespath("jmespath", data, `trim_right(s${args})`),
          referenceTrim(s, "right", chars ?? undefined),
        );
        assertEquals(
          runJmespath("jmespath", data, `trim(s${args})`),
          referenceTrim(referenceTrim(s, "right", chars ?? undefined), "left", chars ?? undefined),
        );
      },
    ),
    { seed: 11, numRuns: 400 },
  );
});

Deno.test("trim_right on a long hostile string completes (was quadratic: 1.7 s at 40k)", () => {
  const s = "a" + "x".repeat(400_000) + "b";
  assertEquals((runJmespath("jmespath", { s }, "trim_right(s, 'x')") as string).length, 400_002);
});

Deno.test("replace with a huge count stops when nothing changes; growth is bounded", () => {
  assertEquals(
    runJmespath("jmespath", { s: "aXbXc" }, "replace(s, 'X', '-', `1000000000`)"),
    "a-b-c",
  );
  assertEquals(replaceCounted("aaa", "a", "b", 2), "bba");
  assertThrows(() => replaceCounted("a", "a", "aa", 1e9));
});
