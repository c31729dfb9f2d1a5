// deno-lint-ignore-file no-explicit-any
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import { Graph } from "../../../lib/graph/graph.ts";
import {
  checkExpression,
  compileConditions,
  evaluateCondition,
  interpretBlockOutput,
  resourceView,
  RuleError,
  valueEquals,
} from "../../../lib/pipeline/rules/mod.ts";
import { testRenderer } from "../models/_support.ts";

const renderer = testRenderer();

function check(conds: unknown, props: Record<string, unknown>, g = new Graph()): boolean {
  const r = g.upsertResource("t", "r1", props as never);
  const c = compileConditions(conds as never, "match_on");
  return evaluateCondition(c, r, {
    graph: g,
    render: (s) => renderer.render(s, { origin_resource: resourceView(g, r), x: "dev" }, "t"),
  });
}

function ruleError(fn: () => unknown): RuleError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleError) return e;
    throw e;
  }
  throw new Error("expected a RuleError");
}

Deno.test("M71/M73 condition 'value': booleans, numbers, strings, arrays", () => {
  ok(check([{ property: "logging", value: true }], { logging: "True" }));
  ok(check([{ property: "logging", value: true }], { logging: true }));
  ok(!check([{ property: "logging", value: true }], { logging: "false" }));
  ok(check([{ property: "n", value: 1 }], { n: "1.0" }));
  ok(check([{ property: "tags", value: "b" }], { tags: ["a", "b"] }));
  ok(!check([{ property: "missing", value: "" }], {}));
  ok(check([{ property: "env", value: "{{ x }}" }], { env: "dev" }), "value is rendered");
  ok(valueEquals("abc", "abc") && !valueEquals("abc", "abd"));
});

Deno.test("M71 condition 'not': absent or different", () => {
  ok(check([{ property: "function", not: "internet" }], { function: "cloud" }));
  ok(check([{ property: "function", not: "internet" }], {}));
  ok(!check([{ property: "function", not: "internet" }], { function: "internet" }));
});

Deno.test("M71 condition 'contains' and 'excludes'", () => {
  ok(check([{ property: "d", contains: "ell" }], { d: "hello" }));
  ok(check([{ property: "d", contains: "b" }], { d: ["a", "b"] }));
  ok(!check([{ property: "d", contains: "z" }], { d: ["a", "b"] }));
  ok(check([{ property: "d", excludes: "z" }], { d: "hello" }));
  ok(check([{ property: "missing", excludes: "z" }], {}), "absent property -> excludes holds");
  ok(!check([{ property: "d", excludes: "ell" }], { d: "hello" }));
});

Deno.test("M71 conditions 'exists' and 'empty'", () => {
  ok(check([{ property: "a", exists: true }], { a: "x" }));
  ok(!check([{ property: "a", exists: true }], { a: "" }));
  ok(check([{ property: "a", exists: false }], {}));
  ok(check([{ property: "a", empty: true }], { a: [] }));
  ok(check([{ property: "a", empty: true }], { a: null }));
  ok(check([{ property: "a", empty: false }], { a: "x" }));
});

Deno.test("M71/M74 'greater' and 'lower' are numeric; non-numeric is false", () => {
  ok(check([{ property: "n", greater: 3 }], { n: "10" }));
  ok(!check([{ property: "n", greater: 30 }], { n: 10 }));
  ok(check([{ property: "n", lower: "20" }], { n: 10 }));
  ok(!check([{ property: "n", greater: 1 }], { n: "abc" }));
  ok(!check([{ property: "n", lower: 1 }], {}));
});

Deno.test("M71 'regexp' is an unanchored search; invalid patterns are errors", () => {
  ok(check([{ property: "h", regexp: "^web-\\d+" }], { h: "web-12" }));
  ok(check([{ property: "h", regexp: "\\d" }], { h: "a1b" }));
  ok(!check([{ property: "h", regexp: "^x" }], { h: "web" }));
  const e = ruleError(() => compileConditions([{ property: "h", regexp: "(" }], "match_on"));
  equal(e.key, "match_on[0].regexp");
});

Deno.test("M71 'regexp' uses Rust syntax on a linear-time engine (issue 16 item 1)", () => {
  // A backtracking engine would hang here.
  ok(!check([{ property: "h", regexp: "^(.|.)*Z$" }], { h: "a".repeat(100_000) }));
  ok(check([{ property: "h", regexp: "^\\d+$" }], { h: "١٢" })); // Rust \d is Unicode
  ok(check([{ property: "h", regexp: "(?x) ^ web # comment" }], { h: "web-1" }));
  const e = ruleError(() => compileConditions([{ property: "h", regexp: "(?=a)" }], "match_on"));
  equal(e.key, "match_on[0].regexp");
  ok(e.message.includes(`"(?=a)"`), e.message);
});

Deno.test("M71 'expression' renders to exactly true; raw expressions are wrapped", () => {
  ok(check([{ expression: "{% if origin_resource.a == 'x' %}true{% endif %}" }], { a: "x" }));
  ok(!check([{ expression: "{% if origin_resource.a == 'x' %}true{% endif %}" }], { a: "y" }));
  ok(check([{ expression: "origin_resource.fqdn is ending_with('.ch')" }], { fqdn: "a.b.ch" }));
  ok(
    !check([{
      expression: "origin_resource.fqdn is ending_with('.ch')",
      property: "fqdn",
      value: "zzz",
    }], {
      fqdn: "a.ch",
    }),
    "combined with property keys by AND",
  );
});

Deno.test("M54 the 'in' operator is refused in expressions, 'for x in' loops are not", () => {
  const e = ruleError(() =>
    compileConditions([{
      expression: "{% if target_resource.name in origin_resource.list %}true{% endif %}",
    }], "match_with")
  );
  equal(e.key, "match_with[0].expression");
  ok(e.message.includes("is containing"));
  checkExpression("{% for x in list %}{% if x == 'in' %}true{% endif %}{% endfor %}", "k");
});

Deno.test("M72/M76 'or' groups, nested 'and', DNF lists and unknown keys", () => {
  const or = [{
    or: [{ property: "name", value: "@" }, { property: "name", empty: true }, {
      and: [{ property: "a", value: "1" }, { property: "b", value: "2" }],
    }],
  }];
  ok(check(or, { a: "1", b: "2" }));
  ok(!check(or, { a: "1", b: "3" }));
  const dnf = [[{ property: "a", value: "1" }], [{ property: "b", value: "2" }]];
  ok(check(dnf, { b: "2" }));
  ok(!check(dnf, { b: "3" }));
  ok(check({ or: [{ property: "a", value: "1" }] }, { a: 1 }), "a table with 'or'");
  equal(
    ruleError(() => compileConditions([{ property: "a", equals: "1" }], "match_on")).key,
    "match_on[0].equals",
  );
  equal(ruleError(() => compileConditions([{ value: "1" }], "match_on")).code, "rule_condition");
});

Deno.test("M75 dotted property paths follow relations (outgoing first, then incoming)", () => {
  const g = new Graph();
  const rec = g.upsertResource("record", "r1");
  const zone = g.upsertResource("zone", "z1", { owner: "ops" });
  g.upsertRelation(rec, "zone", zone);
  const c = compileConditions([{ property: "zone.owner", value: "ops" }], "m");
  ok(evaluateCondition(c, rec, { graph: g, render: (s) => s }));
  const back = compileConditions([{ property: "record.name", value: "r1" }], "m");
  ok(evaluateCondition(back, zone, { graph: g, render: (s) => s }), "incoming from type record");
});

Deno.test("T12-T15 resource view: properties, relation fields, compat keys, cycles", () => {
  const g = new Graph();
  const client = g.upsertResource("client", "c1", { secret: "s1", env: "prod" });
  const secret = g.upsertResource("secret", "s1");
  const vault = g.upsertResource("vault", "v1", { url: "https://v" });
  g.upsertRelation(client, "secret", secret, { since: "2024" });
  g.upsertRelation(secret, "vault", vault);
  g.upsertRelation(vault, "USES", client); // a cycle
  const v = resourceView(g, client) as Record<string, any>;
  equal(v.env, "prod");
  equal(v.secret[0].name, "s1", "relation wins over the property");
  equal(v.secret__value, "s1", "raw property kept as <key>__value");
  equal(v.secret[0].vault[0].url, "https://v");
  equal(v.secret[0].node.name, "s1");
  assertEquals(v.secret[0].properties, { since: "2024", relation: "secret" });
  equal(v.secret[0].vault[0].USES[0].secret[0].name, "s1", "cycles are traversed lazily");
  equal(resourceView(g, secret).client && (resourceView(g, secret) as any).client[0].name, "c1");
  equal(v._type, "client");
  ok(!Object.keys(v).includes("_type"), "_type is not enumerable");
  equal(
    renderer.render("{{ r.secret[0].vault[0].url }}|{{ r.env }}", { r: v }, "t"),
    "https://v|prod",
  );
  const json = JSON.parse(JSON.stringify(v));
  equal(json.secret[0].vault[0].name, "v1", "toJSON expands relations two levels deep");
});

Deno.test("M3/M5 template! output: JSON, Tera-displayed list, trimmed string", () => {
  assertEquals(interpretBlockOutput(' ["a","b"] '), ["a", "b"]);
  assertEquals(interpretBlockOutput("[a, b ,c]"), ["a", "b", "c"]);
  assertEquals(interpretBlockOutput("[]"), []);
  assertEquals(interpretBlockOutput("\n  gateway \n"), "gateway");
  assertEquals(interpretBlockOutput("True"), "True");
  assertEquals(interpretBlockOutput('{"a":1}'), { a: 1 });
});
