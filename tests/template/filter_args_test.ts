/**
 * Filter call arguments (issue 15 item 4: literal arguments are evaluated once per call site and
 * shared): a user filter sees a fresh argument object on every call, with floats unwrapped, so
 * changing it cannot leak into the next call (reference T-rules on filter arguments).
 */
import { assertEquals } from "./_assert.ts";
import { TemplateEnvironment } from "../../lib/template/mod.ts";

Deno.test("literal filter arguments: a user filter mutating its args does not affect the next call", () => {
  const env = new TemplateEnvironment({
    filters: {
      tag: (v, a) => {
        const out = `${v}:${a.n}:${typeof a.x}`;
        a.n = "changed";
        delete a.x;
        return out;
      },
    },
  });
  const out = env.render('{% for i in [1, 2] %}{{ i | tag(n="k", x=1.0) }} {% endfor %}', {});
  assertEquals(out, "1:k:number 2:k:number ");
});

Deno.test("literal and computed filter arguments render alike across calls", () => {
  const env = new TemplateEnvironment();
  const tpl =
    "{% for w in ws %}{{ w | truncate(length=2) }}{{ w | truncate(length=n) }}|{% endfor %}";
  assertEquals(env.render(tpl, { ws: ["abcd", "xyz"], n: 2 }), "ab…ab…|xy…xy…|");
  assertEquals(env.render(tpl, { ws: ["q"], n: 0 }), "q…|");
});

Deno.test("a filter missing from the registry fails at the call, every time", () => {
  const env = new TemplateEnvironment();
  for (let i = 0; i < 2; i++) {
    let msg = "";
    try {
      env.render("{{ 1 | nosuch(a=1) }}", {});
    } catch (e) {
      msg = (e as Error).message;
    }
    assertEquals(msg.includes("Filter 'nosuch' not found"), true);
  }
});
