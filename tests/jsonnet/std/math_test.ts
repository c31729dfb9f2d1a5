import { assertEquals } from "./_assert.ts";
import { call, check, fails } from "./_call.ts";

Deno.test("abs / sign / max / min / clamp", () => {
  check("abs", [-3], 3);
  check("abs", [-0], 0);
  check("sign", [-2], -1);
  check("sign", [0], 0);
  check("max", [1, 2], 2);
  check("min", [-1.5, 3], -1.5);
  check("clamp", [5, 1, 3], 3);
  check("clamp", [-5, 1, 3], 1);
  check("clamp", [2, 1, 3], 2);
  fails("abs", ["x"], "std.abs expected number, got string");
  fails("max", ["a", 1], "std.max first param expected number, got string");
  fails("min", [1, "b"], "std.min second param expected number, got string");
});

Deno.test("native math builtins check types and finiteness", () => {
  check("pow", [2, 10], 1024);
  check("floor", [-2.2], -3);
  check("ceil", [-2.9], -2);
  check("sqrt", [2.25], 1.5);
  check("exp", [0], 1);
  check("log", [1], 0);
  fails("pow", [-8, 1 / 3], "not a number");
  fails("pow", [2, 1024], "overflow");
  fails("sqrt", [-1], "not a number");
  fails("exp", [1000], "overflow");
  fails("log", [0], "overflow");
  fails("floor", ["a"], "Builtin function floor expected (number) but got (string)");
});

Deno.test("mantissa / exponent follow C frexp", () => {
  check("mantissa", [8], 0.5);
  check("exponent", [8], 4);
  check("mantissa", [0], 0);
  check("exponent", [0], 0);
  check("exponent", [1e-310], -1029);
  check("mantissa", [-0.375], -0.75);
  check("exponent", [-0.375], -1);
  for (const x of [1e-310, 5e-324, 3.7, -1e300, 0.1]) {
    const m = call("mantissa", x) as number, e = call("exponent", x) as number;
    assertEquals(m * 2 ** e, x);
    assertEquals(Math.abs(m) >= 0.5 && Math.abs(m) < 1, true);
  }
});

Deno.test("modulo uses fmod semantics", () => {
  check("modulo", [7, 3], 1);
  check("modulo", [-7, 3], -1);
  check("modulo", [7, -3], 1);
  check("modulo", [-7.5, 2], -1.5);
  fails("modulo", [5, 0], "division by zero.");
});

Deno.test("0.20 numeric helpers", () => {
  check("round", [2.5], 3);
  check("round", [-2.5], -2);
  check("isEven", [4], true);
  check("isOdd", [-3], true);
  check("isInteger", [3], true);
  check("isDecimal", [3.5], true);
  check("log2", [8], 3);
  check("log10", [1000], 2.9999999999999996);
  check("hypot", [3, 4], 5);
  check("deg2rad", [180], Math.PI);
  check("rad2deg", [Math.PI], 180);
  check("atan2", [1, 1], Math.PI / 4);
});

Deno.test("char / codepoint", () => {
  check("char", [65], "A");
  check("char", [128512], "😀");
  check("char", [65.9], "A");
  check("codepoint", ["😀"], 128512);
  fails("char", [-1], "codepoints must be >= 0, got -1");
  fails("char", [1114112], "invalid unicode codepoint, got 1114112");
  fails("codepoint", ["ab"], "codepoint takes a string of length 1, got length 2");
});

Deno.test("clamp compares strings by code point", () => {
  check("clamp", ["\uffff", "a", "😀"], "\uffff");
  check("clamp", ["z", "a", "m"], "m");
});
