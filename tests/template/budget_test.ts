/**
 * Hostile templates (issue 16 items 1 and 3; reference templates.md T3): every render runs under
 * a step and size budget, and `is matching` runs in linear time. No timing assertions: a
 * regression would hang or exhaust memory instead of failing.
 */
import { assertEquals, assertThrows } from "./_assert.ts";
import { DEFAULT_LIMITS, TemplateEnvironment, TemplateError } from "../../lib/template/mod.ts";

function budgetError(env: TemplateEnvironment, source: string, ctx = {}): TemplateError {
  const e = assertThrows(() => env.render(source, ctx, "t"), TemplateError);
  assertEquals(e.code, "budget_exceeded", e.message);
  assertEquals(e.kind, "render");
  return e;
}

Deno.test("budget: range(end=100000000) fails before allocating, located at the call", () => {
  const env = new TemplateEnvironment();
  const e = budgetError(env, "ok\n  {% for i in range(end=100000000) %}{{ i }}{% endfor %}");
  assertEquals([e.line, e.column], [2, 15]);
  if (!e.reason.includes("`range`")) throw new Error(e.reason);
});

Deno.test("budget: loop iterations and calls count as steps", () => {
  const env = new TemplateEnvironment({ limits: { maxSteps: 1000 } });
  assertEquals(env.render("{% for i in range(end=300) %}{% endfor %}done", {}), "done");
  const e = budgetError(
    env,
    "{% for i in range(end=100) %}{% for j in range(end=100) %}x{% endfor %}{% endfor %}",
  );
  assertEquals(e.line, 1);
  budgetError(env, "{% for i in xs %}{{ i | upper | lower }}{% endfor %}", {
    xs: Array.from({ length: 600 }, (_, i) => `v${i}`),
  });
});

Deno.test("budget: output length", () => {
  const env = new TemplateEnvironment({ limits: { maxOutput: 100 } });
  assertEquals(env.render("{{ s }}", { s: "x".repeat(100) }), "x".repeat(100));
  budgetError(env, "{% for i in range(end=50) %}abc{% endfor %}");
  budgetError(env, "{{ s }}{{ s }}", { s: "x".repeat(60) });
});

Deno.test("budget: strings and arrays built by set, ~ and concat", () => {
  const env = new TemplateEnvironment({ limits: { maxOutput: 1000, maxItems: 1000 } });
  const doubling = "{% set s = 'ab' %}{% for i in range(end=60) %}{% set_global s = s ~ s %}" +
    "{% endfor %}{{ s | length }}";
  const e = budgetError(env, doubling);
  if (!e.reason.includes("`s`")) throw new Error(e.reason);
  budgetError(
    env,
    "{% set a = [1] %}{% for i in range(end=60) %}{% set_global a = a | concat(with=a) %}{% endfor %}",
  );
  // The default limits stop the same templates too.
  budgetError(new TemplateEnvironment(), doubling);
});

Deno.test("budget: defaults allow ordinary templates; limits are per render", () => {
  const env = new TemplateEnvironment({ limits: { maxSteps: 500 } });
  for (let i = 0; i < 5; i++) {
    assertEquals(env.render("{% for i in range(end=400) %}{% endfor %}{{ 1 }}", {}), "1");
  }
  assertEquals(DEFAULT_LIMITS.maxSteps >= 1_000_000, true);
  const big = new TemplateEnvironment();
  assertEquals(
    big.render("{% for i in range(end=100000) %}{% endfor %}{{ range(end=100000) | length }}", {}),
    "100000",
  );
});

Deno.test("T3 `is matching` runs in linear time and uses Rust regex syntax (issue 16 item 1)", () => {
  const env = new TemplateEnvironment();
  const ctx = { s: "a".repeat(100_000) };
  assertEquals(env.render("{{ s is matching('^(.|.)*Z$') }}", ctx), "false");
  assertEquals(env.render("{{ s is matching('(?x) ^ a+ $ # all a') }}", ctx), "true");
  assertEquals(env.render("{{ d is matching('^\\d+$') }}", { d: "١٢" }), "true");
  const e = assertThrows(() => env.render("{{ s is matching('(?=a)') }}", ctx, "t"), TemplateError);
  if (!e.message.includes('"(?=a)"')) throw new Error(e.message);
});
