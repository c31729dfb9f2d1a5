/** Unit tests of the template engine (no permissions needed). */
import { assertEquals, assertThrows } from "./_assert.ts";
import {
  renderTemplate,
  TemplateEnvironment,
  TemplateError,
  TeraFloat,
} from "../../lib/template/mod.ts";
import { displayF64, ryuF64 } from "../../lib/template/value.ts";
import { Cursor, FAIL } from "../../lib/template/lexer.ts";
import { parseTemplate } from "../../lib/template/parser.ts";

Deno.test("lexer: paths with dots and brackets", () => {
  const c = new Cursor('a.b[0]["x y"][k.j] rest');
  const p = c.path();
  if (p === FAIL) throw new Error("no path");
  assertEquals(p.root, "a");
  assertEquals(p.segs.slice(0, 3), ["b", "0", "x y"]);
  assertEquals(c.src.slice(c.pos), " rest");
});

Deno.test("parser: whitespace control trims adjacent text", () => {
  assertEquals(parseTemplate("a  {{- x -}}  b").map((n) => n.t), ["text", "var", "text"]);
  assertEquals(renderTemplate("a  {{- x -}}  b", { x: 1 }), "a1b");
});

Deno.test("number display: Rust Display vs serde/ryu", () => {
  assertEquals(displayF64(2), "2");
  assertEquals(displayF64(1e21), "1000000000000000000000");
  assertEquals(displayF64(1e-7), "0.0000001");
  assertEquals(ryuF64(2), "2.0");
  assertEquals(ryuF64(1e20), "1e20");
  assertEquals(ryuF64(1.5e-7), "1.5e-7");
  assertEquals(renderTemplate("{{ x | json_encode }}|{{ x }}", { x: new TeraFloat(1) }), "1.0|1");
});

Deno.test("errors carry template name, line, column and a caret excerpt", () => {
  const env = new TemplateEnvironment();
  const e = assertThrows(() => env.render("line1\n  {{ nope }}", {}, "my.toml"), TemplateError);
  assertEquals([e.templateName, e.line, e.column, e.kind], ["my.toml", 2, 6, "render"]);
  if (!e.message.includes("^")) throw new Error("no caret in message");
  const s = assertThrows(() => env.render("{% if %}", {}), TemplateError);
  assertEquals(s.kind, "syntax");
});

Deno.test("lazy getters: only touched properties are read; cycles are fine", () => {
  let reads = 0;
  const node: Record<string, unknown> = { name: "n1" };
  Object.defineProperty(node, "self", {
    enumerable: true,
    get() {
      reads++;
      return [node];
    },
  });
  assertEquals(renderTemplate("{{ r.self[0].self[0].name }}", { r: node }), "n1");
  assertEquals(reads, 2);
  assertThrows(() => renderTemplate("{{ r | json_encode }}", { r: node }), TemplateError);
});

Deno.test("custom filters, tests, functions and get_env without permissions", () => {
  const env = new TemplateEnvironment({
    filters: { twice: (v) => String(v) + String(v) },
    tests: { short: (v) => typeof v === "string" && v.length < 3 },
    functions: { answer: () => 42 },
    env: { HOME_X: "/h" },
  });
  assertEquals(
    env.render(
      "{{ 'ab' | twice }} {{ v is short }} {{ answer() }} {{ get_env(name='HOME_X') }}",
      { v: "ab" },
    ),
    "abab true 42 /h",
  );
  assertThrows(() => env.render("{{ get_env(name='PATH') }}", {}), TemplateError);
});

Deno.test("compile cache returns the same compiled template", () => {
  const env = new TemplateEnvironment({ cacheSize: 2 });
  const a = env.compile("{{ x }}");
  assertEquals(env.compile("{{ x }}") === a, true);
  env.compile("1");
  env.compile("2");
  assertEquals(env.compile("{{ x }}") === a, false);
});
