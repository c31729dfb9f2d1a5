/**
 * `json_encode` (serde_json output: keys in code point order, ints plain, floats in ryu form)
 * must print the same whether it takes the native JSON.stringify path or the general writer
 * (issue 15 item 4; reference T-rules on built-in filters).
 */
import { assertEquals } from "./_assert.ts";
import { renderTemplate, TeraFloat } from "../../lib/template/mod.ts";
import fc from "fast-check";
import { toJson, writeCompact } from "../../lib/template/value.ts";

const enc = (x: unknown) => renderTemplate("{{ x | json_encode }}", { x });

Deno.test("json_encode sorts keys of every object by code point", () => {
  const users = [{ name: "a", age: 1, "10": 1, "9": 2, "é": 3, "z": [{ b: 1, a: 2 }] }];
  assertEquals(enc(users), '[{"10":1,"9":2,"age":1,"name":"a","z":[{"a":2,"b":1}],"é":3}]');
  assertEquals(enc({ b: undefined, a: null }), '{"a":null}');
  assertEquals(enc({ "\u{1F600}": 1, "\uffff": 2 }), '{"\uffff":2,"\u{1F600}":1}');
});

Deno.test("json_encode: floats, Object.prototype names and class instances", () => {
  assertEquals(
    enc({ f: new TeraFloat(2), g: 0.5, h: new TeraFloat(1e16), i: 1e-7, j: 1e16 }),
    '{"f":2.0,"g":0.5,"h":1e16,"i":1e-7,"j":10000000000000000}',
  );
  assertEquals(enc([{ constructor: 1 }, {}]), '[{"constructor":1},{}]');
  assertEquals(enc([{ toString: "x" }, { a: 1 }]), '[{"toString":"x"},{"a":1}]');
  class P {
    b = 1;
    a = 2;
    toJSON() {
      return "no";
    }
  }
  assertEquals(enc(new P()), '{"a":2,"b":1}');
  const proto = JSON.parse('{"__proto__": {"x": 1}, "a": 1}');
  assertEquals(toJson([proto, { a: 2 }]), '[{"__proto__":{"x":1},"a":1},{"a":2}]');
  assertEquals(enc([1, undefined, "s"]), '[1,null,"s"]');
});

Deno.test("json_encode: the native path prints what the general writer prints (property)", () => {
  const key = fc.oneof(
    fc.constantFrom("a", "b", "10", "9", "0", "01", "", "__proto__", "toString", "é", "\u{1F600}"),
    fc.string({ maxLength: 4 }),
  );
  const num = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.constantFrom(2 ** 63, -(2 ** 63), 2 ** 64, 1e16, 1e-7, -0, 2 ** 53 + 2),
    fc.double().map((x) => new TeraFloat(Math.trunc(x))),
  );
  const leaf = fc.oneof(num, fc.string(), fc.boolean(), fc.constant(null), fc.constant(undefined));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
    array: fc.array(tie("value"), { maxLength: 4 }),
    object: fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map((entries) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of entries) {
        Object.defineProperty(o, k, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return o;
    }),
  }));
  fc.assert(fc.property(value, (v) => assertEquals(toJson(v), writeCompact(v, 0))), {
    numRuns: 3000,
  });
  // objects sharing a shape (the sorted-key cache) and arrays mixing shapes
  const rows = [{ b: 1, a: 2 }, { b: 3, a: 4 }, { a: 5, b: 6 }, {
    b: 7,
    a: 8,
    c: [new TeraFloat(1)],
  }];
  assertEquals(toJson(rows), writeCompact(rows, 0));
  assertEquals(toJson(undefined), "null");
});
