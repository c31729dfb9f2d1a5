/**
 * `json_encode` (serde_json output: keys in code point order, ints plain, floats in ryu form)
 * must print the same whether it takes the native JSON.stringify path or the general writer
 * (issue 15 item 4; reference T-rules on built-in filters).
 */
import { assertEquals } from "./_assert.ts";
import { renderTemplate, TeraFloat } from "../../lib/template/mod.ts";
import { toJson } from "../../lib/template/value.ts";

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
