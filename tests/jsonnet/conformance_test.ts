/**
 * The cases of the official Jsonnet test suite (google/jsonnet `test_suite/`, 0.21) that failed
 * here, each reduced to a program of our own with the suite's expected first line of output
 * (its `.golden`) or its value. The whole suite runs with `scripts/jsonnet-suite.ts`.
 * No permissions needed.
 */
import { assertEquals, assertThrows } from "./_assert.ts";
import { evaluateJsonnet, JsonnetError, JsonnetVM } from "../../lib/jsonnet/mod.ts";

function run(src: string): string {
  return evaluateJsonnet(src, { filename: "t.jsonnet" });
}

function firstLine(src: string): string {
  const e = assertThrows(() => run(src), JsonnetError) as JsonnetError;
  return e.message.split("\n")[0];
}

const RANGE = "numeric value outside safe integer range for bitwise operation.";

Deno.test("suite error.integer_conversion: a bitwise operand beyond 2^53 is a static error", () => {
  assertEquals(
    firstLine("local big = 9007199254740994;\nbig << 1"),
    `STATIC ERROR: t.jsonnet:2:1-9: ${RANGE}`,
  );
  assertEquals(firstLine("9007199254740994 & 1"), `STATIC ERROR: t.jsonnet:1:1-21: ${RANGE}`);
  assertEquals(firstLine("~(-9007199254740994)").startsWith("STATIC ERROR: "), true);
  // 2^53 itself is still accepted, as in the reference.
  assertEquals(run("9007199254740992 >> 52"), "2\n");
});

Deno.test("suite error.integer_left_shift_runtime: a left shift beyond int64 is an error", () => {
  const e = assertThrows(() => run("local v = 4503599627370496;\nv << 11"), JsonnetError);
  assertEquals(e.message.split("\n"), [`RUNTIME ERROR: ${RANGE}`, "\tt.jsonnet:2:1-8\t"]);
  assertEquals(firstLine("1 << 63"), `RUNTIME ERROR: ${RANGE}`);
  assertEquals(firstLine("3 << 62"), `RUNTIME ERROR: ${RANGE}`);
  // Results that fit stay exact; the count is taken modulo 64.
  assertEquals(
    run("[1 << 62, -1 << 63, 4503599627370496 << 10, 1 << 64]"),
    "[\n   4611686018427387904,\n   -9223372036854775808,\n   4611686018427387904,\n   1\n]\n",
  );
});

Deno.test("suite error.overflow: a number literal beyond the double range is an error", () => {
  const e = assertThrows(() => run("\n1e309"), JsonnetError);
  assertEquals(e.message.split("\n"), ["RUNTIME ERROR: Overflow", "\tt.jsonnet:2:1-6\t"]);
  // Only when evaluated: Jsonnet is lazy.
  assertEquals(run("local unused = 1e999; 1"), "1\n");
});

Deno.test("suite error.std_parseYaml1: a second `key:` on a mapping line is a YAML error", () => {
  const e = assertThrows(() => run("std.parseYaml('k: v:')"), JsonnetError) as JsonnetError;
  assertEquals(e.detail.split("\n"), [
    "YAML error: 1:6: ERROR: two colons on same line",
    "1:6: k: v:  (size=5)",
    "          ^  (cols 6-6)",
    "",
  ]);
  assertEquals(
    firstLine("std.parseYaml('a:\\n  b: c: d')").includes("two colons on same line"),
    true,
  );
  // A colon inside a quoted value or a URL is not a second key.
  assertEquals(
    run("std.parseYaml('a: \"b: c\"\\nu: http://h:80/x\\nt: 12:30')"),
    '{\n   "a": "b: c",\n   "t": "12:30",\n   "u": "http://h:80/x"\n}\n',
  );
});

Deno.test("suite error.trace_two_param: std.trace needs a string message", () => {
  assertEquals(
    firstLine("local v = std.trace(3, {});\n{ a: v }"),
    "RUNTIME ERROR: Builtin function trace expected string as first parameter but got number",
  );
  const traced: string[] = [];
  const out = new JsonnetVM({ trace: (m: string) => traced.push(m) }).evaluate(
    "std.trace('hi', 1)",
    "t.jsonnet",
  );
  assertEquals([out, traced], [1, ["TRACE: t.jsonnet:1 hi"]]);
});

Deno.test("suite format.jsonnet: %g of zero formats instead of overflowing", () => {
  assertEquals(
    run("[std.format('%g', [0]), '%#.3g' % 0, '%10.5G' % [0]]"),
    '[\n   "0",\n   "0.00",\n   "         0"\n]\n',
  );
});

Deno.test("suite invariant_manifest.jsonnet: std.setInter takes a string as its characters", () => {
  assertEquals(run("std.setInter('b', ['a', 'b', 'c'])"), '[\n   "b"\n]\n');
  assertEquals(run("std.setInter('abc', 'bcd')"), '[\n   "b",\n   "c"\n]\n');
  const src =
    "local B = { local o = ['x', 'y'], assert std.length(std.setInter(self.opt, o)) > 0 : 'bad', opt: error 'unset' };\nB { opt: 'y' }";
  assertEquals(run(src), '{\n   "opt": "y"\n}\n');
  assertEquals(
    firstLine(
      "(B { opt: 'z' })".replace(
        "(B",
        "local B = { assert std.length(std.setInter(self.opt, ['x'])) > 0 : 'bad', opt: 1 }; (B",
      ),
    ),
    "RUNTIME ERROR: bad",
  );
});

Deno.test("suite stdlib.jsonnet: std.isNull", () => {
  assertEquals(
    run("[std.isNull(null), std.isNull(0), std.isNull(false), std.isNull({}), std.isNull('')]"),
    "[\n   true,\n   false,\n   false,\n   false,\n   false\n]\n",
  );
});
