import { assertEquals, assertThrows } from "./_assert.ts";
import { parse } from "../../lib/jsonnet/parser.ts";
import { JsonnetError } from "../../lib/jsonnet/errors.ts";
import type { Node } from "../../lib/jsonnet/ast.ts";

/** Compact S-expression rendering of an AST for assertions. */
function sx(n: Node): string {
  switch (n.k) {
    case "lit":
      return JSON.stringify(n.v);
    case "var":
      return n.name;
    case "bin":
      return `(${n.op} ${sx(n.l)} ${sx(n.r)})`;
    case "un":
      return `(${n.op}u ${sx(n.e)})`;
    case "index":
      return `(idx ${sx(n.target)} ${sx(n.index)})`;
    case "apply":
      return `(call ${sx(n.fn)}${n.args.map((a) => " " + sx(a)).join("")}${
        n.named.map(([k, v]) => ` ${k}=${sx(v)}`).join("")
      }${n.tailstrict ? " tailstrict" : ""})`;
    case "local":
      return `(local ${n.binds.map((b) => b.name + "=" + sx(b.body)).join(",")} ${sx(n.body)})`;
    case "func":
      return `(fn ${n.name} [${
        n.params.map((p) => p.name + (p.def ? "=" + sx(p.def) : "")).join(",")
      }] ${sx(n.body)})`;
    case "if":
      return `(if ${sx(n.cond)} ${sx(n.then)}${n.else ? " " + sx(n.else) : ""})`;
    case "slice":
      return `(slice ${sx(n.target)} ${n.start ? sx(n.start) : "_"} ${n.end ? sx(n.end) : "_"} ${
        n.step ? sx(n.step) : "_"
      })`;
    default:
      return n.k;
  }
}
const p = (src: string) => sx(parse(src, "t.jsonnet"));

Deno.test("parser: precedence and associativity", () => {
  assertEquals(p("1 + 2 * 3"), "(+ 1 (* 2 3))");
  assertEquals(p("10 - 4 - 3"), "(- (- 10 4) 3)");
  assertEquals(p("a || b && c == d"), "(|| a (&& b (== c d)))");
  assertEquals(p("1 << 2 + 3"), "(<< 1 (+ 2 3))");
  assertEquals(p("-a.b"), '(-u (idx a "b"))');
  assertEquals(p("x in y && z"), "(&& (in x y) z)");
  assertEquals(p("a & b ^ c | d"), "(| (^ (& a b) c) d)");
});

Deno.test("parser: keyword expressions extend to the right, even as operands", () => {
  assertEquals(p("1 + if c then 2 else 3 + 4"), "(+ 1 (if c 2 (+ 3 4)))");
  assertEquals(p("local f(a, b=1) = a; f(2)"), "(local f=(fn f [a,b=1] a) (call f 2))");
  assertEquals(p("function(x) x * 2"), "(fn anonymous [x] (* x 2))");
});

Deno.test("parser: calls with named arguments, tailstrict and postfix chains", () => {
  assertEquals(p("f(1, b=2) tailstrict"), "(call f 1 b=2 tailstrict)");
  assertEquals(p("a.b[c](d)"), '(call (idx (idx a "b") c) d)');
  assertEquals(p("a { b: 1 }"), "(+ a obj)");
});

Deno.test("parser: slices", () => {
  assertEquals(p("a[1:2]"), "(slice a 1 2 _)");
  assertEquals(p("a[::2]"), "(slice a _ _ 2)");
  assertEquals(p("a[:3]"), "(slice a _ 3 _)");
  assertEquals(p("a[1:]"), "(slice a 1 _ _)");
});

Deno.test("parser: objects split into fields, locals, asserts; comprehensions", () => {
  const o = parse("{ local x = 1, a: x, b:: 2, c+: [3], assert a > 0, m(v):: v }", "t");
  if (o.k !== "obj") throw new Error("expected obj");
  assertEquals(o.fields.map((f) => [sx(f.name), f.hide, f.plus]), [
    ['"a"', 0, false],
    ['"b"', 1, false],
    ['"c"', 0, true],
    ['"m"', 1, false],
  ]);
  assertEquals([o.locals.length, o.asserts.length, o.dollar], [1, 1, true]);
  assertEquals(parse("{ [k]: 1 for k in ks }", "t").k, "objcomp");
  assertEquals(parse("[x for x in xs if x]", "t").k, "arrcomp");
});

Deno.test("parser: locations span the whole expression", () => {
  const n = parse("local x = 1;\n  x + 10", "f.jsonnet");
  if (n.k !== "local") throw new Error("expected local");
  assertEquals(n.body.loc, { file: "f.jsonnet", line: 2, col: 3, endLine: 2, endCol: 9 });
});

Deno.test("parser: syntax errors are static errors with locations", () => {
  for (
    const src of [
      "(1",
      "{ a: 1 ]",
      "1 2",
      "local x = 1 x",
      "{ a }",
      "f(a=1, 2)",
      "self",
      "$",
      "super.x",
    ]
  ) {
    const e = assertThrows(() => parse(src, "t"), JsonnetError) as JsonnetError;
    assertEquals(e.kind, "STATIC ERROR", src);
    assertEquals(e.line > 0, true, src);
  }
  assertThrows(() => parse("{ a: 1, a: 2 }", "t"), /duplicate field: a/);
  assertThrows(() => parse("{ a: 1, [k]: 2 for k in [] }", "t"), /one field/);
});
