/**
 * Number printing like Rust Tera (issue 19 item 9; reference T-rules on value display): floats
 * print with Rust's `Display` (never an exponent) in `{{ }}`, `as_str`, `join`, and with
 * serde_json's ryu format in `json_encode` and `~`. Oracle cross-checks of the same values are in
 * cases/numbers_large.jsonl (run by differential_oracle_test.ts).
 */
import { assertEquals } from "./_assert.ts";
import { renderTemplate, TeraFloat } from "../../lib/template/mod.ts";
import { displayF64, ryuF64 } from "../../lib/template/value.ts";

const show = "{{ x }}|{{ x | json_encode }}|{{ x ~ '' }}|{{ [x] | join(sep='') }}";

Deno.test("floats >= 1e21 from JS callers print without an exponent (not 1e+21)", () => {
  // a plain JS 1e21 is integral but outside i64/u64, so it is a float as in serde_json
  assertEquals(
    renderTemplate(show, { x: 1e21 }),
    "1000000000000000000000|1e21|1e21|1000000000000000000000",
  );
  assertEquals(
    renderTemplate(show, { x: -1e22 }),
    "-10000000000000000000000|-1e22|-1e22|-10000000000000000000000",
  );
  assertEquals(
    renderTemplate(show, { x: new TeraFloat(1e21) }).split("|")[0],
    "1" + "0".repeat(21),
  );
  // the example of issue 19: the shortest round-trip digits, padded with zeros
  assertEquals(
    renderTemplate(show, { x: 123456789012345680000.0 }),
    "123456789012345680000|1.2345678901234568e20|1.2345678901234568e20|123456789012345680000",
  );
  assertEquals(renderTemplate("{{ x }}", { x: 1.5e300 }), "15" + "0".repeat(299));
});

Deno.test("arithmetic results >= 1e21 print like Rust", () => {
  assertEquals(renderTemplate("{{ x * 10.0 }}", { x: 1e20 }), "1000000000000000000000");
  assertEquals(renderTemplate("{{ (x * 10.0) | json_encode }}", { x: 1e20 }), "1e21");
  // an integral quotient becomes `res as i64` in Tera, which saturates
  assertEquals(renderTemplate("{{ x / 3 }}", { x: 1e22 }), "9223372036854775807");
  assertEquals(renderTemplate("{{ x / 3 }}", { x: -1e22 }), "-9223372036854775808");
  assertEquals(renderTemplate("{{ x | int }}", { x: 1e21 }), "9223372036854775807");
  assertEquals(renderTemplate('{{ "99999999999999999999" | int(default=7) }}', {}), "7");
});

Deno.test("small floats and negative exponents", () => {
  assertEquals(renderTemplate(show, { x: 1e-7 }), "0.0000001|1e-7|1e-7|0.0000001");
  assertEquals(renderTemplate(show, { x: 1.25e-5 }), "0.0000125|0.0000125|0.0000125|0.0000125");
  assertEquals(renderTemplate(show, { x: 5e-324 }).split("|")[1], "5e-324");
  assertEquals(renderTemplate(show, { x: new TeraFloat(-0) }).split("|").slice(0, 2), [
    "-0",
    "-0.0",
  ]);
});

Deno.test("fast paths of displayF64/ryuF64 agree with the digit-based formatting", () => {
  for (const x of [1e-6, 9.99e-7, 1e-5, 9.99e-6, 1e16, 9999999999999998, 1e21, 9.99e20, 0.1, 2.5]) {
    const [digits, exp] = Math.abs(x).toExponential().split("e");
    const d = digits.replace(".", "");
    const k = Number(exp) + 1;
    const plain = k <= 0
      ? "0." + "0".repeat(-k) + d
      : k >= d.length
      ? d + "0".repeat(k - d.length)
      : d.slice(0, k) + "." + d.slice(k);
    assertEquals(displayF64(x), plain);
    const ryu = k > 16 || k <= -5
      ? (d.length === 1 ? d : d[0] + "." + d.slice(1)) + "e" + (k - 1)
      : Number.isInteger(x)
      ? plain + ".0"
      : plain;
    assertEquals(ryuF64(x), ryu);
  }
});
