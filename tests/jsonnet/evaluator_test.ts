import { assertEquals, assertThrows } from "./_assert.ts";
import { JsonnetError, JsonnetVM } from "../../lib/jsonnet/mod.ts";
import type { JsonValue } from "../../lib/jsonnet/mod.ts";

const vm = new JsonnetVM();
const ev = (src: string): JsonValue => vm.evaluate(src, "t.jsonnet");

Deno.test("evaluator: laziness — unused errors are never evaluated", () => {
  assertEquals(ev("local x = error 'no'; 1"), 1);
  assertEquals(ev("[1, error 'no'][0]"), 1);
  assertEquals(ev("{ a: 1, b:: error 'no' }"), { a: 1 });
  assertEquals(ev("(function(a, b) a)(1, error 'no')"), 1);
  assertEquals(ev("std.length([error 'a', error 'b'])"), 2);
});

Deno.test("evaluator: object inheritance — self is late bound, super walks the chain", () => {
  assertEquals(ev("({ a: 1, b: self.a } + { a: 2 }).b"), 2);
  assertEquals(ev("({ x: 1 } + { x: super.x * 2 } + { x: super.x + 3 }).x"), 5);
  assertEquals(ev("{ a: [1] } + { a+: [2] }"), { a: [1, 2] });
  assertEquals(ev("{ a: { b: 1 } } + { a+: { c: 2 } }"), { a: { b: 1, c: 2 } });
  assertEquals(ev("{} + { a+: 'x' }"), { a: "x" });
  assertEquals(ev("{ a: 1 } + { has: 'a' in super, not: 'b' in super }"), {
    a: 1,
    has: true,
    not: false,
  });
});

Deno.test("evaluator: field visibility rules", () => {
  assertEquals(ev("{ a:: 1 } + { a: 2 }"), {});
  assertEquals(ev("{ a:: 1 } + { a::: 2 }"), { a: 2 });
  assertEquals(ev("{ a: 1 } + { a:: 2 }"), {});
  assertEquals(ev("std.objectFieldsAll({ b:: 1, a: 2 })"), ["a", "b"]);
  assertEquals(ev("{ b: 1, a: 2, B: 3 }"), { B: 3, a: 2, b: 1 });
});

Deno.test("evaluator: $ refers to the outermost object, also after extension", () => {
  assertEquals(ev("{ v: 1, n: { r: $.v } }"), { v: 1, n: { r: 1 } });
  assertEquals(ev("local o = { v: 1, n: { r: $.v } }; (o + { v: 2 }).n.r"), 2);
});

Deno.test("evaluator: object locals see self and each other", () => {
  assertEquals(ev("{ local a = self.n * 2, local b = a + 1, n: 5, r: b } + { n: 10 }"), {
    n: 10,
    r: 21,
  });
});

Deno.test("evaluator: comprehensions", () => {
  assertEquals(ev("[x * y for x in [1, 2] for y in [10, 20] if x * y != 20]"), [10, 40]);
  assertEquals(ev("{ [k]: std.length(k) for k in ['a', 'bb'] }"), { a: 1, bb: 2 });
  assertEquals(ev("{ local d = x * 2, ['k' + x]: d for x in [1, 2] }"), { k1: 2, k2: 4 });
  assertEquals(ev("{ [k]: 1 for k in [null, 'a'] }"), { a: 1 });
});

Deno.test("evaluator: functions — defaults, named args, closures, recursion", () => {
  assertEquals(ev("local f(a, b=a + 1) = [a, b]; [f(1), f(1, 5), f(b=0, a=9)]"), [
    [1, 2],
    [1, 5],
    [9, 0],
  ]);
  assertEquals(ev("local mk(n) = function(x) x + n; mk(3)(4)"), 7);
  assertEquals(ev("local f(n) = if n <= 1 then 1 else n * f(n - 1); f(10)"), 3628800);
});

Deno.test("evaluator: tailstrict calls run in constant stack", () => {
  assertEquals(
    ev("local f(n, acc) = if n == 0 then acc else f(n - 1, acc + 1) tailstrict; f(100000, 0)"),
    100000,
  );
});

Deno.test("evaluator: strings are code point sequences", () => {
  assertEquals(ev("std.length('a😀b')"), 3);
  assertEquals(ev("'a😀b'[1]"), "😀");
  assertEquals(ev("'a😀bc'[1:3]"), "😀b");
  assertEquals(ev("std.map(function(c) c, 'x😀')"), ["x", "😀"]);
});

Deno.test("evaluator: equality is deep and ignores hidden fields", () => {
  assertEquals(ev("{ a: [1, { b: 2 }], h:: 1 } == { a: [1, { b: 2 }] }"), true);
  assertEquals(ev("[1, '1', null] == [1, '1', null]"), true);
  assertEquals(ev("1 == '1'"), false);
  assertThrows(() => ev("(function() 1) == (function() 1)"), JsonnetError, /functions/);
});

Deno.test("evaluator: arithmetic, bitwise, comparison", () => {
  assertEquals(ev("[7 % 3, -7 % 3, 5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 4, -16 >> 2]"), [
    1,
    -1,
    1,
    7,
    6,
    -6,
    16,
    -4,
  ]);
  assertEquals(ev("[[1, 2] < [1, 3], 'a' < 'b', 'é' > 'z']"), [true, true, true]);
  assertThrows(() => ev("1 / 0"), JsonnetError, /division by zero/);
  assertThrows(() => ev("1e308 * 10"), JsonnetError, /overflow/);
});

Deno.test("evaluator: % formatting delegates to std.format", () => {
  assertEquals(ev("'%s=%d' % ['a', 3]"), "a=3");
  assertEquals(ev("'%(k)s' % { k: 'v' }"), "v");
  assertEquals(ev("'%05d' % 42"), "00042");
});

Deno.test("evaluator: higher-order std functions", () => {
  assertEquals(ev("std.foldl(function(a, x) a + x, [1, 2, 3], 0)"), 6);
  assertEquals(ev("std.foldr(function(x, a) a + [x], [1, 2, 3], [])"), [3, 2, 1]);
  assertEquals(ev("std.sort([{ n: 2 }, { n: 1 }], function(o) o.n)"), [{ n: 1 }, { n: 2 }]);
  assertEquals(ev("std.set([3, 1, 3, 2])"), [1, 2, 3]);
  assertEquals(ev("std.setInter([1, 2, 3], [2, 3, 4])"), [2, 3]);
  assertEquals(ev("std.mapWithKey(function(k, v) k + v, { a: 'x' })"), { a: "ax" });
  assertEquals(ev("std.prune({ a: null, b: [], c: { d: {} }, e: 0 })"), { e: 0 });
  assertEquals(ev("std.mergePatch({ a: 1, b: { c: 1 } }, { a: null, b: { d: 2 } })"), {
    b: { c: 1, d: 2 },
  });
  assertEquals(ev("std.get({ a:: 1 }, 'a')"), 1);
  assertEquals(ev("std.get({ a:: 1 }, 'a', 'd', false)"), "d");
  assertEquals(ev("std.objectRemoveKey({ a: 1, b: 2 }, 'a')"), { b: 2 });
  assertEquals(ev("std.minArray([3, 1, 2])"), 1);
  assertEquals(ev("std.maxArray([], onEmpty='none')"), "none");
});

Deno.test("evaluator: object assertions run when the object is used", () => {
  assertEquals(ev("{ assert self.a > 0, a: 1 }"), { a: 1 });
  assertThrows(() => ev("{ assert self.a > 0 : 'bad a', a: -1 }"), JsonnetError, /bad a/);
  assertThrows(
    () => ev("local o = { assert false }; o + { x: 1 }"),
    JsonnetError,
    /Object assertion failed/,
  );
});
