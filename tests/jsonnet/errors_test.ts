import { assertEquals, assertThrows } from "./_assert.ts";
import { evaluateJsonnet, JsonnetError, JsonnetVM } from "../../lib/jsonnet/mod.ts";

function err(src: string, opts: ConstructorParameters<typeof JsonnetVM>[0] = {}): JsonnetError {
  return assertThrows(
    () => new JsonnetVM(opts).evaluate(src, "e.jsonnet"),
    JsonnetError,
  ) as JsonnetError;
}

Deno.test("errors: runtime errors carry file, line, column and a binary-like message", () => {
  const e = err("local x = 1;\nlocal y = x + 'a' - 1;\ny");
  assertEquals([e.kind, e.file, e.line, e.column], ["RUNTIME ERROR", "e.jsonnet", 2, 11]);
  assertEquals(
    e.message.split("\n")[0],
    "RUNTIME ERROR: binary operator - requires matching types, got string and number.",
  );
  assertEquals(e.message.split("\n")[1], "\te.jsonnet:2:11-22\t");
});

Deno.test("errors: stack trace lists call sites with function names", () => {
  const e = err("local inner(x) = error 'boom ' + x;\nlocal outer(y) = inner(y);\nouter('z')");
  assertEquals(e.detail, "boom z");
  assertEquals(e.message.split("\n"), [
    "RUNTIME ERROR: boom z",
    "\te.jsonnet:1:18-35\tfunction <inner>",
    "\te.jsonnet:2:18-26\tfunction <outer>",
    "\te.jsonnet:3:1-11\t",
  ]);
});

Deno.test("errors: static errors have locations and no trace", () => {
  const e = err("local a = 1;\n  b");
  assertEquals(e.message, "STATIC ERROR: e.jsonnet:2:3: Unknown variable: b");
  assertEquals(e.frames, []);
});

Deno.test("errors: infinite recursion is 'max stack frames exceeded', never a RangeError", () => {
  for (
    const src of [
      "local f(x) = f(x) + 1; f(1)",
      "{ a: self.b, b: self.a }.a",
      "local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(100000)",
      "local x = x + 1; x",
    ]
  ) {
    const e = err(src);
    assertEquals(e.detail, "max stack frames exceeded.", src);
  }
});

Deno.test("errors: the stack limit is configurable and counts Jsonnet frames", () => {
  const src = "local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(300)";
  assertEquals(new JsonnetVM().evaluate(src), 300);
  assertEquals(err(src, { maxStack: 100 }).detail, "max stack frames exceeded.");
  assertEquals(new JsonnetVM({ maxStack: 2000 }).evaluate(src.replace("300", "600")), 600);
});

Deno.test("errors: the evaluation budget stops runaway programs", () => {
  const spin = "local f(n) = if n == 0 then 0 else f(n - 1) tailstrict; f(1e9)";
  assertEquals(
    err(spin, { budget: { maxSteps: 100000 } }).detail,
    "evaluation budget exceeded (max steps)",
  );
  assertEquals(
    err(spin, { budget: { timeoutMs: 50 } }).detail,
    "evaluation budget exceeded (deadline)",
  );
  assertEquals(
    new JsonnetVM({ budget: { maxSteps: 100000 } }).evaluate("std.length(std.range(1, 10))"),
    10,
  );
});

Deno.test("errors: std functions report the call site", () => {
  const e = err("\n  std.length(5)");
  assertEquals([e.line, e.column], [2, 3]);
  assertEquals(e.detail, "length operates on strings, objects, and arrays, got number");
});

Deno.test("errors: -S with a non-string result", () => {
  assertThrows(
    () => evaluateJsonnet("{}", { stringOutput: true }),
    JsonnetError,
    /expected string result/,
  );
});

Deno.test("errors: manifesting a function fails", () => {
  assertThrows(() => evaluateJsonnet("{ f(x): x }"), JsonnetError, /manifest function/);
});
