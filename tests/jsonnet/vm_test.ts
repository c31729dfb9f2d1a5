import { assertEquals, assertThrows } from "./_assert.ts";
import { compile } from "../../lib/jsonnet/vm.ts";
import {
  evaluateJsonnet,
  fileImportResolver,
  JsonnetError,
  JsonnetVM,
} from "../../lib/jsonnet/mod.ts";

const files: Record<string, string> = {
  "/app/main.jsonnet": "local l = import 'lib.libsonnet'; l.x",
  "/app/lib.libsonnet": "{ x: (import 'sub/deep.libsonnet').y, file: std.thisFile }",
  "/app/sub/deep.libsonnet": "{ y: importstr 'data.txt' }",
  "/app/sub/data.txt": "hello\n",
  "/vendor/v.libsonnet": "{ vendored: true }",
  "/vendor2/v.libsonnet": "{ vendored: 2 }",
};
const readFile = (p: string) => files[p];

Deno.test("vm: evaluateJsonnet prints like the CLI", () => {
  assertEquals(
    evaluateJsonnet("{ b: [], a: {}, c: [1, 'x'] }"),
    `{
   "a": { },
   "b": [ ],
   "c": [
      1,
      "x"
   ]
}
`,
  );
  assertEquals(evaluateJsonnet("'a\\nb'", { stringOutput: true }), "a\nb\n");
  assertEquals(evaluateJsonnet("'q\"'"), '"q\\""\n');
});

Deno.test("vm: numbers — integers exact, other values shortest round-trip", () => {
  assertEquals(
    evaluateJsonnet("[1e21, -0, 0.1, 1/3, 1e-7, 123456789012345678]"),
    `[
   1000000000000000000000,
   -0,
   0.1,
   0.3333333333333333,
   1e-07,
   123456789012345680
]
`,
  );
});

Deno.test("vm: imports resolve relative to the importing file, then jpath (right-most wins)", () => {
  assertEquals(
    evaluateJsonnet(files["/app/main.jsonnet"], { filename: "/app/main.jsonnet", readFile }),
    '"hello\\n"\n',
  );
  assertEquals(
    evaluateJsonnet("(import 'v.libsonnet').vendored", {
      filename: "/x/m.jsonnet",
      readFile,
      jpath: ["/vendor", "/vendor2"],
    }),
    "2\n",
  );
  const vm = new JsonnetVM({ importResolver: fileImportResolver(readFile) });
  assertEquals(
    vm.evaluate("(import 'lib.libsonnet').file", "/app/main.jsonnet"),
    "/app/lib.libsonnet",
  );
  assertThrows(
    () => vm.evaluate("import 'nope.libsonnet'", "/app/m.jsonnet"),
    JsonnetError,
    /couldn't open import/,
  );
});

Deno.test("vm: importbin yields bytes", () => {
  const vm = new JsonnetVM({
    importResolver: () => ({ foundAt: "b.bin", content: new Uint8Array([0, 255, 7]) }),
  });
  assertEquals(vm.evaluate("importbin 'b.bin'"), [0, 255, 7]);
});

Deno.test("vm: external variables as JSON values, strings and code", () => {
  const vm = new JsonnetVM({
    extVars: { origin: { name: "n1", tags: ["a"], n: null } },
    extStr: { env: "prod" },
    extCode: { num: "20 + 1" },
  });
  assertEquals(
    vm.evaluate("[std.extVar('origin').tags[0], std.extVar('env'), std.extVar('num')]"),
    [
      "a",
      "prod",
      21,
    ],
  );
  assertEquals(vm.evaluate("std.extVar('origin')"), { name: "n1", tags: ["a"], n: null });
  assertThrows(
    () => vm.evaluate("std.extVar('nope')"),
    JsonnetError,
    /undefined external variable/,
  );
});

Deno.test("vm: top-level functions receive TLAs or use defaults", () => {
  assertEquals(new JsonnetVM().evaluate("function(a=1) a + 1"), 2);
  assertEquals(new JsonnetVM({ tlaStr: { a: "x" } }).evaluate("function(a) a + '!'"), "x!");
  assertEquals(
    new JsonnetVM({ tlaCode: { a: "[1]" }, tlaVars: { b: 2 } }).evaluate("function(a, b) a + [b]"),
    [
      1,
      2,
    ],
  );
  assertThrows(() => new JsonnetVM().evaluate("function(a) a"), JsonnetError, /not bound/);
});

Deno.test("vm: compile caches parsed programs by source", () => {
  const src = "{ cached: " + Math.random() + " }";
  assertEquals(compile(src, "c.jsonnet") === compile(src, "c.jsonnet"), true);
  const vm = new JsonnetVM({ extStr: { v: "1" } });
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) {
    vm.evaluate("{ a: std.extVar('v'), b: [x * 2 for x in std.range(1, 10)] }");
  }
  const per = (performance.now() - t0) / 1000;
  assertEquals(per < 5, true, `evaluation took ${per} ms`);
});

Deno.test("vm: std.trace goes to the configured sink and returns its second argument", () => {
  const seen: string[] = [];
  assertEquals(
    new JsonnetVM({ trace: (m) => seen.push(m) }).evaluate("std.trace('hi', 5)", "t.jsonnet"),
    5,
  );
  assertEquals(seen, ["TRACE: t.jsonnet:1 hi"]);
});
