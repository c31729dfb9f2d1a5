import { check, fails } from "./_call.ts";

// Expected strings were produced by the reference jsonnet binary (v0.18.0).

Deno.test("format: %s %d %f %x %o %e %g %c", () => {
  check(
    "format",
    ["%s %d %5.2f|%-6x|%#o|%e|%g|%G|%c", [
      [1, 2],
      -3.7,
      3.14159,
      255,
      8,
      12345.678,
      0.00001234,
      1e20,
      65,
    ]],
    "[1, 2] -3  3.14|ff    |010|1.234568e+04|1.234e-05|1E+20|A",
  );
});

Deno.test("format: flags", () => {
  check(
    "format",
    ["%.0e|%#.0e|%#x|%#X|%#o|%+d|% d|%05d|%-5d|%x", [
      12345,
      12345,
      255,
      255,
      8,
      5,
      5,
      -42,
      -42,
      -255,
    ]],
    "1e+04|1.e+04|0xff|0XFF|010|+5| 5|-0042|-42  |-ff",
  );
  check(
    "format",
    ["%10.3e|%-12.2E|%012.3f", [-1234.5678, 0.000123, -3.5]],
    "-1.235e+03|1.23E-04    |-0000003.500",
  );
});

Deno.test("format: %g of zero is 0 (0.18 overflowed on log(0); 0.21 does not)", () => {
  check("format", ["%g|%#g|%5.3G", [0, 0, 0]], "0|0.00000|    0");
});

Deno.test("format: rounding and %g quirks of std.jsonnet", () => {
  check("format", ["%.2f %.0f %.0f %.0f", [2.675, 0.5, 1.5, 2.5]], "2.68 1 2 3");
  check(
    "format",
    ["%g %g %g %g %G", [100000, 1000000, 1e-4, 1e-5, 1.5e-10]],
    "100000 1000000 0.0001 1e-05 1.5E-10",
  );
  check("format", ["%#g %#.3g", [1.5, 2]], "1.50000 2.00");
  check("format", ["%.3g", 0.0001234], "0");
  check("format", ["%d", 1e30], "1000000000000000424684240284426");
  check("format", ["%x", 1e20], "56bc75e2d63100000");
  check("format", ["%e %f", [0, 0]], "0.000000e+00 0.000000");
});

Deno.test("format: * width/precision, %% and mapping keys", () => {
  check("format", ["%*d|%-*d|%.*f", [5, 3, 4, 7, 2, 3.14159]], "    3|7   |3.14");
  check("format", ["%5%|", []], "    %|");
  check("format", ["%(a)s %(b)05.1f", { a: [1], b: -2.25 }], "[1] -02.3");
  check("format", ["%%|%(x)s", { x: 1 }], "%|1");
  check("format", ["<%s>", "single"], "<single>");
});

Deno.test("format: code points, not UTF-16 units", () => {
  check("format", ["[%5s][%-4s]", ["😀é", "ñ"]], "[   😀é][ñ   ]");
  check("format", ["%c", 128512], "😀");
});

Deno.test("format: errors", () => {
  fails("format", ["%", []], "Truncated format code.");
  fails("format", ["%(ab", { ab: 1 }], "Truncated format code.");
  fails("format", ["%z", 1], "Unrecognised conversion type: z");
  fails("format", ["%d", "x"], "Format required number at 0, got string");
  fails("format", ["%d %d", [1]], "Not enough values to format: 1, expected more than 1");
  fails("format", ["%d", [1, 2]], "Too many values to format: 2, expected 1");
  fails("format", ["%(a)s", {}], "No such field: a");
  fails("format", ["%s", {}], "Mapping keys required.");
  fails("format", ["%(a)*d", { a: 1 }], "Cannot use * field width with object.");
  fails("format", ["%c", 1114112], "invalid unicode codepoint, got 1114112");
  fails("format", ["%c", -1], "codepoints must be >= 0, got -1");
  fails("format", ["%c", "ab"], "%c expected 1-sized string got: 2");
});
