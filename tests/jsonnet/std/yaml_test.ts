import { assertEquals } from "./_assert.ts";
import { call, fails } from "./_call.ts";

const y = (s: string) => call("parseYaml", s);

Deno.test("parseYaml: block mappings and sequences", () => {
  assertEquals(
    y("a: 1\nb:\n  c: [1, two, {d: e}]\n  f:\n  - x\n  - y: 2\n    z: 3\ng: null\n"),
    { a: 1, b: { c: [1, "two", { d: "e" }], f: ["x", { y: 2, z: 3 }] }, g: null },
  );
  assertEquals(y("- 1\n- - 2\n  - 3\n-\n  k: v\n"), [1, [2, 3], { k: "v" }]);
  assertEquals(y("list:\n  - a\n\n  - b # comment\n# full line\nother: x"), {
    list: ["a", "b"],
    other: "x",
  });
});

Deno.test("parseYaml: core schema scalars", () => {
  assertEquals(
    y("a: true\nb: False\nc: ~\nd: 012\ne: 0x1F\nf: 0o17\ng: -1.5e3\nh: yes\ni: '007'\nj: \"q\\tw\\u00e9\"\nk:\nl: .5"),
    {
      a: true,
      b: false,
      c: null,
      d: 12,
      e: 31,
      f: 15,
      g: -1500,
      h: "yes",
      i: "007",
      j: "q\twé",
      k: null,
      l: 0.5,
    },
  );
  assertEquals(y("'it''s': 'a # not comment'"), { "it's": "a # not comment" });
  assertEquals(y("url: http://x.y/z#frag"), { url: "http://x.y/z#frag" });
});

Deno.test("parseYaml: block scalars", () => {
  assertEquals(y("a: |\n  l1\n   l2\n\n  l3\nb: x"), { a: "l1\n l2\n\nl3\n", b: "x" });
  assertEquals(y("a: |-\n  l1\n  l2\n"), { a: "l1\nl2" });
  assertEquals(y("a: |+\n  l1\n\nb: 1"), { a: "l1\n\n", b: 1 });
  assertEquals(y("a: >\n  one\n  two\n\n  three\n"), { a: "one two\nthree\n" });
});

Deno.test("parseYaml: documents and flow", () => {
  assertEquals(y("1\n---\n2\n"), [1, 2]);
  assertEquals(y("---\na: 1\n...\n"), { a: 1 });
  assertEquals(y(""), null);
  assertEquals(y("[1, [2], {a: [b, c]}, 'x, y']"), [1, [2], { a: ["b", "c"] }, "x, y"]);
  assertEquals(y("plain multi\n  line"), "plain multi line");
});

Deno.test("parseYaml: errors", () => {
  fails(
    "parseYaml",
    ["a: *ref"],
    "parseYaml: anchors, aliases and tags are not supported (line 1)",
  );
  fails("parseYaml", ["a: 1\na: 2"], 'parseYaml: duplicate key "a" (line 2)');
  fails("parseYaml", ["a: [1, 2"], "parseYaml: expected , or ] in flow sequence (line 1)");
});

Deno.test("parseYaml: __proto__ is an ordinary key", () => {
  const v = y("__proto__: 1\nb: {__proto__: 2}") as Record<string, unknown>;
  assertEquals(Object.keys(v), ["__proto__", "b"]);
  assertEquals(Object.getPrototypeOf(v), Object.prototype);
  assertEquals(Object.keys(v.b as object), ["__proto__"]);
});
