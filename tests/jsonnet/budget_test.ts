/**
 * Budgets inside natives (issue 16 items 3, 4, 10): every std function honours the step budget
 * and the memory budget (sizes charged before allocating), so runaway programs fail fast with a
 * located JsonnetError (code `budget_exceeded` / `max_stack`), never a raw JS RangeError.
 */
import { assertEquals, assertThrows } from "./_assert.ts";
import { JsonnetError, JsonnetVM, type JsonnetVMOptions } from "../../lib/jsonnet/mod.ts";

function fail(src: string, opts: JsonnetVMOptions = {}): JsonnetError {
  return assertThrows(
    () => new JsonnetVM(opts).evaluate(src, "b.jsonnet"),
    JsonnetError,
  ) as JsonnetError;
}

const SERVER = { budget: { maxSteps: 50_000_000 } };

Deno.test("budget: std.range(0, 1e9) fails before allocating, located at the call", () => {
  for (const opts of [{}, SERVER]) {
    const e = fail(
      "local big = std.range(0, 1000000000);\nstd.foldl(function(a, b) a + b, big, 0)",
      opts,
    );
    assertEquals(e.code, "budget_exceeded");
    assertEquals([e.file, e.line], ["b.jsonnet", 1]);
  }
});

Deno.test("budget: natives charge their loops against maxSteps", () => {
  const opts = { budget: { maxSteps: 100_000 } };
  for (
    const src of [
      "std.length(std.range(0, 200000))",
      "std.length(std.makeArray(200000, function(i) i))",
      "std.length(std.repeat([1], 200000))",
      "std.length(std.repeat('ab', 200000))",
      "std.length(std.join('', std.repeat(['x'], 150000)))",
      "std.length(std.map(function(x) x, std.repeat([1], 60000)))",
      "std.length(std.sort(std.repeat([1], 30000)))",
      "std.length(std.flattenArrays(std.repeat([[1, 2]], 60000)))",
      "std.length(std.format('%s', [std.repeat('x', 90000)]) + std.manifestJson(std.repeat([1], 60000)))",
      "std.length([x for x in std.repeat([1], 500) for y in std.repeat([1], 500)])",
    ]
  ) {
    const e = fail(src, opts);
    assertEquals(e.code, "budget_exceeded", src);
    assertEquals(e.line, 1, src);
  }
});

Deno.test("budget: the memory limit caps a single array or string", () => {
  const opts = { budget: { maxMemory: 1000 } };
  for (
    const src of [
      "std.makeArray(1001, function(i) i)",
      "std.repeat('x', 1001)",
      "std.repeat([1, 2], 501)",
      "std.range(1, 1001)",
      "local a = std.range(1, 600); a + a",
      "local s = std.repeat('x', 600); s + s",
      "'%2000d' % [1]",
      "std.join(',', std.repeat(['xx'], 400))",
      "std.manifestJsonEx(std.range(1, 300), '    ')",
    ]
  ) {
    const e = fail(src, opts);
    assertEquals(e.code, "budget_exceeded", src);
    assertEquals(e.file, "b.jsonnet", src);
  }
  assertEquals(new JsonnetVM(opts).evaluate("std.length(std.range(1, 1000))"), 1000);
});

Deno.test("budget: huge format widths and negative repeats are JsonnetErrors", () => {
  for (const src of ["'%1000000000d' % [1]", "'%-1000000000s|' % ['a']", "std.repeat('x', -1)"]) {
    fail(src);
  }
  assertEquals(fail("std.repeat('x', -1)").detail, "makeArray requires size >= 0, got -1");
});

Deno.test("budget: very deep non-tail recursion and deep data are max-stack JsonnetErrors", () => {
  const deep = fail("local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(100000)");
  assertEquals(deep.code, "max_stack");
  // 200k nested arrays built without Jsonnet recursion, then manifested recursively.
  const nested = fail(
    "std.foldl(function(acc, x) [acc], std.range(1, 200000), [])",
    { maxStack: 1_000_000 },
  );
  assertEquals(nested.code, "max_stack");
  const parse = fail("[".repeat(100000) + "]".repeat(100000));
  assertEquals(parse.code, "max_stack");
});

Deno.test("budget: corpus-sized programs stay within the defaults", () => {
  const v = new JsonnetVM(SERVER).evaluate(
    "std.length(std.foldl(function(acc, x) acc + [x], std.range(1, 3000), []))",
  );
  assertEquals(v, 3000);
});

Deno.test("budget: regressions found by probing (empty repeat with huge count, Infinity)", () => {
  // Used to loop 1e300 times appending nothing (a hang).
  assertEquals(fail("std.repeat([], 1e300)").code, "budget_exceeded");
  assertEquals(fail("std.repeat('', 1e300)").code, "budget_exceeded");
  // Used to print `Infinity` (not JSON); the reference fails with "overflow".
  assertEquals(fail("std.parseInt(std.repeat('9', 400))").detail, "overflow");
  assertEquals(fail("std.parseJson('1e400')").detail, "overflow");
  // std.strReplace charges its result before building it.
  const e = fail("std.strReplace(std.repeat('a', 100), 'a', std.repeat('b', 100))", {
    budget: { maxMemory: 5000 },
  });
  assertEquals(e.code, "budget_exceeded");
});
