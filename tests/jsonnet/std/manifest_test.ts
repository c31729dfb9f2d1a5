import type { JsonValue } from "../../../lib/jsonnet/json_value.ts";
import { check, fails } from "./_call.ts";

// Expected texts were produced by the reference jsonnet binary (v0.18.0, `-S`).

Deno.test("manifestJson / manifestJsonMinified", () => {
  check(
    "manifestJson",
    [{ a: [], b: {}, c: [1, { d: "x" }] }],
    '{\n    "a": [\n\n    ],\n    "b": {\n\n    },\n    "c": [\n        1,\n        {\n            "d": "x"\n        }\n    ]\n}',
  );
  check(
    "manifestJsonMinified",
    [{ a: [], b: {}, c: [1, { d: "x" }] }],
    '{"a":[],"b":{},"c":[1,{"d":"x"}]}',
  );
});

Deno.test("manifestYamlDoc", () => {
  const v: JsonValue = {
    a: [1, [2, 3], { b: "x\ny\n" }, [], {}],
    "c d": { e: null, f: "", g: [[]] },
    h: true,
  };
  check(
    "manifestYamlDoc",
    [v, true, false],
    'a:\n  - 1\n  -\n    - 2\n    - 3\n  - b: |\n      x\n      y\n  - []\n  - {}\n"c d":\n  e: null\n  f: ""\n  g:\n    - []\nh: true',
  );
  check(
    "manifestYamlDoc",
    [[{ a: 1, b: [1] }, [[1]], "s\n"]],
    '- "a": 1\n  "b":\n  - 1\n-\n  -\n    - 1\n- |\n  s',
  );
  check("manifestYamlDoc", ["x"], '"x"');
});

Deno.test("manifestYamlDoc quote_keys=false only quotes unsafe keys", () => {
  check(
    "manifestYamlDoc",
    [
      {
        plain: 1,
        "with space": 2,
        true: 3,
        "123": 4,
        "1.5": 5,
        "0x1f": 6,
        "2020-01-01": 7,
        "a/b": 8,
      },
      false,
      false,
    ],
    '"0x1f": 6\n"1.5": 5\n"123": 4\n"2020-01-01": 7\na/b: 8\nplain: 1\n"true": 3\n"with space": 2',
  );
});

Deno.test("manifestYamlStream", () => {
  check("manifestYamlStream", [[1, { a: 2 }]], '---\n1\n---\n"a": 2\n...\n');
  check("manifestYamlStream", [[1, { a: 2 }], undefined as never, false], '---\n1\n---\n"a": 2\n');
  fails("manifestYamlStream", [{ a: 1 }], "manifestYamlStream only takes arrays, got object");
});

Deno.test("manifestIni / manifestPython / manifestPythonVars / manifestXmlJsonml", () => {
  check(
    "manifestIni",
    [{ main: { a: 1, b: [1, 2] }, sections: { s1: { x: "y" }, s0: {} } }],
    "a = 1\nb = 1\nb = 2\n[s0]\n[s1]\nx = y\n",
  );
  check(
    "manifestPython",
    [{ a: [true, false, null, 1.5, "x\u0001"] }],
    '{"a": [True, False, None, 1.5, "x\\u0001"]}',
  );
  check("manifestPythonVars", [{ b: [1], a: "s" }], 'a = "s"\nb = [1]\n');
  check(
    "manifestXmlJsonml",
    [["svg", { h: 1, a: "b" }, ["g", "t"], "x"]],
    '<svg a="b" h="1"><g>t</g>x</svg>',
  );
  fails("manifestXmlJsonml", ["x"], "Expected a JSONML value (an array), got string");
});

Deno.test("manifestToml / manifestTomlEx", () => {
  check(
    "manifestToml",
    [{
      a: 1,
      b: "x",
      c: [1, [2, 3], { d: 4 }],
      t: { x: {}, y: [{ z: 1 }, {}], "k.q": true },
      e: {},
    }],
    'a = 1\nb = "x"\nc = [\n  1,\n  [ 2, 3 ],\n  { d = 4 }\n]\n\n[e]\n\n[t]\n  "k.q" = true\n\n  [t.x]\n\n  [[t.y]]\n    z = 1\n\n  [[t.y]]',
  );
  check(
    "manifestTomlEx",
    [{ a: { b: { c: 1 } } }, "    "],
    "\n\n[a]\n\n\n    [a.b]\n        c = 1",
  );
  fails("manifestToml", [{ a: null }], 'Tried to manifest "null" at ["a"]');
  fails("manifestToml", [[]], "TOML body must be an object. Got array");
});
