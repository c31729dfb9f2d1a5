// Fuzz tests of the Tera engine (issue 16; reference T1–T3 template syntax and rendering): parse
// and compile arbitrary and grammar-shaped text, render random templates with random contexts
// under a small render budget. The only error that may escape is a TemplateError with a line and
// a column inside the source. Fixed seed; FC_RUNS=… for long local runs (see tests/fuzz/_fuzz.ts).
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { TemplateEnvironment, TemplateError } from "../../lib/template/mod.ts";
import { fuzzParams } from "./_fuzz.ts";

const env = new TemplateEnvironment({
  limits: { maxSteps: 20_000, maxOutput: 200_000, maxItems: 20_000 },
  cacheSize: 64,
});

function checkTemplateError(e: unknown, src: string): TemplateError {
  if (!(e instanceof TemplateError)) {
    throw new Error(`${(e as Error)?.name} escaped: ${(e as Error)?.message}`, { cause: e });
  }
  const lines = src.split("\n").length;
  assert(e.line >= 1 && e.line <= lines, `line ${e.line} outside the source: ${e.message}`);
  assert(e.column >= 1, `column ${e.column}: ${e.message}`);
  return e;
}

/** Compiles (and renders, when it compiles) `src`; only located TemplateErrors may escape. */
function check(src: string, context: Record<string, unknown> = {}): void {
  let compiled;
  try {
    compiled = env.compile(src, "fuzz.tera");
  } catch (e) {
    assertEquals(checkTemplateError(e, src).kind, "syntax");
    return;
  }
  try {
    compiled.render(context);
  } catch (e) {
    assertEquals(checkTemplateError(e, src).kind, "render");
  }
}

// ---- arbitrary strings and token soup ------------------------------------------------------

const TOKENS = [
  "{{",
  "}}",
  "{%",
  "%}",
  "{{-",
  "-}}",
  "{%-",
  "-%}",
  "{#",
  "#}",
  "(",
  ")",
  "[",
  "]",
  ",",
  "|",
  "=",
  "==",
  "!=",
  "<",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "~",
  ".",
  "::",
  " ",
  "\n",
  "'",
  '"',
  "`",
  "if",
  "elif",
  "else",
  "endif",
  "for",
  "in",
  "endfor",
  "set",
  "set_global",
  "macro",
  "endmacro",
  "block",
  "endblock",
  "filter",
  "endfilter",
  "raw",
  "endraw",
  "break",
  "continue",
  "include",
  "import",
  "extends",
  "super()",
  "not",
  "and",
  "or",
  "is",
  "loop",
  "self",
  "true",
  "x",
  "xs",
  "0",
  "-1",
  "1.5",
  "9999999999999999999",
  "upper",
  "length",
  "range(end=3)",
  "'s'",
  "\u0000",
];

Deno.test("fuzz T1: arbitrary strings compile or give a located syntax error", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 120 }),
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join("")),
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((t) => `{{ ${t.join(" ")} }}`),
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((t) => `{% ${t.join(" ")} %}`),
      ),
      (src) => check(src, { x: 1, xs: [1, 2] }),
    ),
    fuzzParams(800),
  );
});

// ---- well-formed templates with random contexts --------------------------------------------

const FILTERS = [
  "upper",
  "lower",
  "trim",
  "truncate(length=3)",
  "wordcount",
  "replace(from='a', to='bb')",
  "capitalize",
  "title",
  "striptags",
  "urlencode",
  "escape",
  "slugify",
  "split(pat=',')",
  "indent(width=2)",
  "length",
  "reverse",
  "first",
  "last",
  "nth(n=1)",
  "join(sep='-')",
  "sort",
  "unique",
  "slice(start=1)",
  "group_by(attribute='a')",
  "filter(attribute='a', value=1)",
  "map(attribute='a')",
  "concat(with=x)",
  "get(key='a')",
  "json_encode",
  "as_str",
  "pluralize",
  "round(precision=2)",
  "abs",
  "filesizeformat",
  "int",
  "float",
  "date(format='%Y')",
  "default(value=0)",
];
const TESTS = [
  "defined",
  "undefined",
  "string",
  "number",
  "odd",
  "even",
  "iterable",
  "object",
  "divisibleby(2)",
  "starting_with('a')",
  "containing(1)",
  "matching('(a+)+$')",
];
const VARS = ["x", "xs", "m", "m.a", "xs[0]", "m['a']", "loop.index", "missing", "i"];

const { expr } = fc.letrec((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("1", "-2", "0.5", "'s'", '"a,b"', "true", "[1, 'a', [2]]", ...VARS),
    fc.tuple(tie("expr"), fc.constantFrom("+", "-", "*", "/", "%", "~", "==", "<", "and", "or"))
      .chain(([a, op]) => tie("expr").map((b) => `${a} ${op} ${b}`)),
    tie("expr").map((e) => `(${e})`),
    tie("expr").map((e) => `not ${e}`),
    fc.tuple(tie("expr"), fc.constantFrom(...FILTERS)).map(([e, f]) => `${e} | ${f}`),
    fc.tuple(fc.constantFrom(...VARS), fc.constantFrom(...TESTS))
      .map(([v, t]) => `${v} is ${t}`),
    fc.tuple(tie("expr"), fc.constantFrom(...VARS)).map(([e, v]) => `${e} in ${v}`),
    fc.nat(5).map((n) => `range(end=${n})`),
    tie("expr").map((e) => `self::m1(a=${e})`),
  ),
}));

const { body } = fc.letrec((tie) => ({
  body: fc.array(
    fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("text ", "\n", "{# c #}", "{% raw %}{{ x }}{% endraw %}"),
      expr.map((e) => `{{ ${e} }}`),
      fc.tuple(expr, tie("body"), tie("body")).map(([c, a, b]) =>
        `{% if ${c} %}${a}{% else %}${b}{% endif %}`
      ),
      fc.tuple(expr, tie("body")).map(([c, a]) => `{% for i in ${c} %}${a}{% endfor %}`),
      fc.tuple(fc.constantFrom("x", "y"), expr).map(([k, e]) => `{% set ${k} = ${e} %}`),
      fc.tuple(fc.constantFrom(...FILTERS.slice(0, 8)), tie("body"))
        .map(([f, a]) => `{% filter ${f} %}${a}{% endfilter %}`),
    ),
    { maxLength: 4 },
  ).map((parts) => parts.join("")),
}));

const template = fc.tuple(body, fc.boolean()).map(([b, withMacro]) =>
  withMacro
    ? `{% macro m1(a) %}[{{ a }}]{% if a is number and a > 0 and a < 50 %}{{ self::m1(a=a - 1) }}{% endif %}{% endmacro m1 %}${b}`
    : b
);

const contextValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(NaN, Infinity, -0, 2 ** 60, "😀", "a".repeat(1000), null, undefined),
);
const context = fc.record({
  x: contextValue,
  xs: fc.array(contextValue, { maxLength: 5 }),
  m: fc.dictionary(fc.constantFrom("a", "b", "__proto__", "constructor"), contextValue),
});

Deno.test("fuzz T2/T3: random well-formed templates render or give a located error", () => {
  fc.assert(
    fc.property(template, context, (src, ctx) => check(src, ctx)),
    fuzzParams(500),
  );
});

// ---- deep nesting (regressions of issue 16) ------------------------------------------------

function syntaxError(src: string): TemplateError {
  try {
    env.compile(src, "deep.tera");
  } catch (e) {
    return checkTemplateError(e, src);
  }
  throw new Error("expected a syntax error");
}

Deno.test("issue 16 regression: 10 000 nested {% if %} / `(` / for / filter are located syntax errors", () => {
  const n = 10_000;
  for (
    const src of [
      "{% if a %}".repeat(n) + "x" + "{% endif %}".repeat(n),
      "{% if a %}".repeat(n),
      "{{ " + "(".repeat(n) + "1" + ")".repeat(n) + " }}",
      "{% set v = " + "(".repeat(n) + "1" + ")".repeat(n) + " %}",
      "{% for a in b %}".repeat(n) + "{% endfor %}".repeat(n),
      "{% filter upper %}".repeat(n) + "{% endfilter %}".repeat(n),
      "{{ a" + "[a".repeat(n) + "]".repeat(n) + " }}",
      "{{ " + "f(a=".repeat(n) + "1" + ")".repeat(n) + " }}",
    ]
  ) {
    const e = syntaxError(src);
    assert(/nested too deeply/.test(e.reason), e.reason);
    assert(e.column > 1, `located at the construct, not at 1:1: ${e.message.slice(0, 120)}`);
  }
});

Deno.test("issue 16 regression: 10 000-operand chains (`1 + 1 + …`, `a and a …`) are located", () => {
  for (const op of ["+", "and", "*", "or"]) {
    const src = "{{ " + Array(10_000).fill("a").join(` ${op} `) + " }}";
    const e = syntaxError(src);
    assert(/nested too deeply/.test(e.reason), e.reason);
    assert(e.column > 1, e.message.slice(0, 120));
  }
  // a chain of a few hundred operators is still fine
  assertEquals(env.render("{{ " + Array(300).fill("1").join(" + ") + " }}", {}), "300");
});

Deno.test("issue 16 regression: nested calls f(a=f(a=…)) parse in linear time (was exponential)", () => {
  // depth 12 took 45 s before the parser memoised calls; depth 150 is within the nesting bound
  const src = "{{ " + "range(end=".repeat(150) + "1" + ")".repeat(150) + " }}";
  try {
    env.render(src, {});
  } catch (e) {
    checkTemplateError(e, src); // `end` must be a number: a render error, located
  }
  const tests = "{{ " + "x is containing(".repeat(100) + "1" + ")".repeat(100) + " }}";
  try {
    env.render(tests, { x: [1] });
  } catch (e) {
    checkTemplateError(e, tests);
  }
});

Deno.test("issue 16 regression: runaway macro recursion is a render error at the call", () => {
  const src = "{% macro f(n) %}{{ self::f(n=n+1) }}{% endmacro f %}\n{{ self::f(n=0) }}";
  try {
    env.render(src, {});
    throw new Error("expected a render error");
  } catch (e) {
    const err = checkTemplateError(e, src);
    assertEquals(err.kind, "render");
    assert(/nested deeper than/.test(err.reason), err.reason);
    assertEquals([err.line, err.column], [1, 20]);
  }
  // bounded recursion within the limit still renders
  const ok = "{% macro f(n) %}{% if n > 0 %}.{{ self::f(n=n-1) }}{% endif %}{% endmacro f %}" +
    "{{ self::f(n=300) }}";
  assertEquals(env.render(ok, {}).length, 300);
});

Deno.test("fuzz issue 16: random deep nesting is a template or a located syntax error", () => {
  const opener = fc.constantFrom(
    ["{% if a %}", "{% endif %}"],
    ["{% for a in b %}", "{% endfor %}"],
    ["{{ (", ") }}"],
    ["{{ f(a=", ") }}"],
    ["{{ [", "] }}"],
    ["{{ a[", "] }}"],
    ["{{ not (", ") }}"],
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(opener, fc.nat(400)), { minLength: 1, maxLength: 3 }),
      (parts) => {
        let src = "";
        for (const [[open, close], n] of parts) {
          const inner = open.startsWith("{{") ? open.slice(3) : open;
          const end = close.endsWith("}}") ? close.slice(0, -3) : close;
          src = open.startsWith("{{")
            ? `{{ ${inner.repeat(n)}1${end.repeat(n)} }}`
            : `${open.repeat(n)}${src || "x"}${close.repeat(n)}`;
        }
        check(src, { a: true, b: [1] });
      },
    ),
    fuzzParams(60),
  );
});
