/**
 * One list rule for create_from and auto-linking (reference M21, M5, M60, A17; issue 19 item 5):
 * JSON-array text yields its elements, not `"a"`-quoted or bracket-stuck fragments.
 */
import { assertEquals } from "../../_assert.ts";
import { listItems, nameItems, renderedList } from "../../../lib/pipeline/rules/list_values.ts";
import { splitNames } from "../../../lib/pipeline/linking.ts";
import { itemsOf } from "../../../lib/pipeline/models/create_resource.ts";
import { joinKeys } from "../../../lib/pipeline/models/link_resources.ts";
import { buildOutputs } from "../outputs/_support.ts";

Deno.test("M21/M5/A17 list rule: JSON array text, Tera list, comma list, scalars", () => {
  assertEquals(listItems('["a","b"]'), ["a", "b"]);
  assertEquals(listItems(' [ "a" , "b" ] '), ["a", "b"]);
  assertEquals(listItems("[]"), []);
  assertEquals(listItems("[a, b]"), ["a", "b"]);
  assertEquals(listItems("email, sms,"), ["email", "sms"]);
  assertEquals(listItems("solo"), ["solo"]);
  assertEquals(listItems(3), [3]);
  assertEquals(listItems(null), []);
  assertEquals(listItems([{ a: 1 }]), [{ a: 1 }]);
  assertEquals(nameItems('["Salesforce"]'), ["Salesforce"]);
  assertEquals(nameItems(["x", 2, '["y","z"]']), ["x", "2", "y", "z"]);
});

Deno.test("M21/M60 create_from and auto-linking split the same value the same way", () => {
  for (const v of ['["a","b"]', "[a, b]", "a, b", ["a", "b"]]) {
    assertEquals(splitNames(v), ["a", "b"], JSON.stringify(v));
    assertEquals(itemsOf(v), ["a", "b"], JSON.stringify(v));
  }
  assertEquals(joinKeys('["a","b"]'), ['["a","b"]', "a", "b"]);
});

Deno.test("M21/M60 a property holding json_encode text: create_from names and links are unquoted", async () => {
  const r = await buildOutputs({
    "assets/net.csv": "name\ntransit\n",
    "models/net.toml": [
      'origin_resource = "net"',
      "subnets = { \"template!\" = '''{{ [\"a\", \"b\"] | json_encode }}''' }",
      "[[create_resource]]",
      'resource_type = "net"',
      'name = "{{ origin_resource.name }}"',
      "[create_resource.properties]",
      'subnet = "{{ subnets }}"',
      "[[create_resource]]",
      'create_from = { property = "subnet" }',
      'name = "{{ property.value }}"',
      'relation_type = "HAS"',
    ].join("\n") + "\n",
  });
  const subnets = [...r.graph.resources()].filter((x) => x.type === "subnet").map((x) => x.name);
  assertEquals(subnets.sort(), ["a", "b"]);
  const links = [...r.graph.relations()].filter((x) => x.type === "subnet");
  assertEquals(links.map((x) => x.target.name).sort(), ["a", "b"]);
  assertEquals(r.issues.filter((i) => i.code === "relation_target_missing"), []);
});

Deno.test("M13 renderedList: Tera's printing of a flat sequence or an object is that list", () => {
  assertEquals(renderedList("[object]"), ["object"]);
  assertEquals(renderedList("[eu-west-1, us-east-1]"), ["eu-west-1", "us-east-1"]);
  // JSON text, empty lists, quotes, nesting and plain text stay strings.
  assertEquals(renderedList('["a","b"]'), undefined);
  assertEquals(renderedList("[1, 2]"), undefined);
  assertEquals(renderedList("[]"), undefined);
  assertEquals(renderedList("[a, [b]]"), undefined);
  assertEquals(renderedList("[a,,b]"), undefined);
  assertEquals(renderedList("plain"), undefined);
  assertEquals(renderedList("[a] b"), undefined);
});
