/**
 * Fast float printing and parsing (issue 15 item 4) agree exactly with the general native
 * conversions they short-cut: Rust's `Display`/ryu digits of floats (the shortest round-trip
 * text, as `String(x)`) and `str::parse::<f64>` of plain decimals (as `Number(s)`); see T-rules
 * on number output and the `float` filter.
 */
import fc from "fast-check";
import { assertEquals } from "./_assert.ts";
import { parseShortDecimal, shortDecimal } from "../../lib/template/float_text.ts";

const decimalText = fc.tuple(
  fc.constantFrom("", "-", "+"),
  fc.stringMatching(/^[0-9]{0,9}$/),
  fc.constantFrom("", "."),
  fc.stringMatching(/^[0-9]{0,9}$/),
).map(([s, i, d, f]) => s + i + d + f);

Deno.test("shortDecimal prints what String(x) prints, or declines", () => {
  const check = (x: number) => {
    const q = shortDecimal(x);
    if (q !== undefined) assertEquals(q, String(x), `x=${x}`);
  };
  fc.assert(fc.property(fc.double({ noNaN: true }), (x) => check(x)), { numRuns: 20_000 });
  fc.assert(
    fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 15 }), (m, p) => {
      check(m / 10 ** p);
      check(Number((m / 10 ** p).toFixed(p)));
    }),
    { numRuns: 20_000 },
  );
  for (
    const x of [0.1, 0.2, 0.1 + 0.2, 1.25, -1.25, 1e-6, 1.5e-6, 0.000001, 123456.789, 2 ** 49 + 0.5]
  ) {
    check(x);
  }
  assertEquals(shortDecimal(1.25), "1.25");
  assertEquals(shortDecimal(-0.001), "-0.001");
  assertEquals(shortDecimal(3), undefined);
});

Deno.test("parseShortDecimal reads what Number(s) reads, or declines", () => {
  fc.assert(
    fc.property(decimalText, (s) => {
      const q = parseShortDecimal(s);
      const grammar = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(s);
      if (q === null) return;
      assertEquals(grammar, true, `accepted ${JSON.stringify(s)}`);
      assertEquals(Object.is(q, Number(s)), true, `${JSON.stringify(s)}: ${q} vs ${Number(s)}`);
    }),
    { numRuns: 20_000 },
  );
  assertEquals(Object.is(parseShortDecimal("-0"), -0), true);
  assertEquals(parseShortDecimal("1."), 1);
  assertEquals(parseShortDecimal(".5"), 0.5);
  for (const bad of ["", ".", "+", "-", "1.2.3", "1e5", " 1", "0x10", "1234567890123456"]) {
    assertEquals(parseShortDecimal(bad), null, bad);
  }
});
