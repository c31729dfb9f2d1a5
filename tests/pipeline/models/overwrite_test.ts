/**
 * M80: every overwrite of a property by another rule is warned, not only the first; re-running
 * the rules in later passes does not repeat them (issue 19 item 7).
 */
import { assertEquals } from "../../_assert.ts";
import { buildModels, get, warnings } from "./_support.ts";

const writer = (owner: string) =>
  `origin_resource = "a"
[[create_resource]]
resource_type = "t"
name = "shared"
[create_resource.properties]
owner = "${owner}"
`;

Deno.test("M80 three rules writing one property: two overwrite warnings, each once", async () => {
  const r = await buildModels({
    "assets/a.csv": "name\nx\n",
    "models/one.toml": writer("one"),
    "models/three.toml": writer("three"),
    "models/two.toml": writer("two"),
  });
  assertEquals(get(r.graph, "t", "shared").properties.owner, "two");
  const w = warnings(r).filter((x) => x.startsWith("model_property_overwritten"));
  assertEquals(w.length, 2, w.join("\n"));
  assertEquals([w[0].includes('"one" -> "three"'), w[1].includes('"three" -> "two"')], [
    true,
    true,
  ]);
});
