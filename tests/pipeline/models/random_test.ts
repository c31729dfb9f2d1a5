/**
 * `get_random()` in a model does not prevent convergence (T21, M4; issue 19 item 6): one seed
 * per build, restarted every model pass like `counter()`.
 */
import { assert, assertEquals } from "../../_assert.ts";
import { buildOutputs } from "../outputs/_support.ts";
import { BuildRandom } from "../../../lib/pipeline/models/random.ts";
import { createTemplateRenderer } from "../../../lib/pipeline/templates.ts";

const files = {
  "assets/host.csv": "name\nweb-1\nweb-2\n",
  "models/host.toml": [
    'origin_resource = "host"',
    "[[create_resource]]",
    'resource_type = "disk"',
    'name = "{{ origin_resource.name }}-disk"',
    "[create_resource.properties]",
    'slot = "{{ get_random(start=10, end=1000000) }}"',
    "[[create_resource]]",
    'resource_type = "host"',
    'name = "{{ origin_resource.name }}"',
    "[create_resource.properties]",
    'token = "{{ get_random(end=1000000) }}"',
  ].join("\n") + "\n",
};

Deno.test("T21/M4 get_random in a model converges in two passes without a warning", async () => {
  const r = await buildOutputs(files);
  assertEquals(r.stats.modelPasses, 2);
  assertEquals(r.issues.filter((i) => i.severity !== "info"), []);
  for (const res of r.graph.resources()) {
    const v = Number(res.properties.slot ?? res.properties.token);
    assert(Number.isInteger(v) && v >= 0 && v < 1000000, String(v));
  }
});

Deno.test("T21 get_random: a sequence per build, restarted each pass; argument checks", () => {
  const r = new BuildRandom(42);
  const first = [r.getRandom({ end: 10 }), r.getRandom({ start: 5, end: 6 })];
  assertEquals(first[1], 5);
  r.reset();
  assertEquals([r.getRandom({ end: 10 }), r.getRandom({ start: 5, end: 6 })], first);
  const t = createTemplateRenderer({}, { seed: 1 });
  const a = t.render("{{ get_random(end=1000000) }}", {}, "t");
  t.resetCounters!();
  assertEquals(t.render("{{ get_random(end=1000000) }}", {}, "t"), a);
  let message = "";
  try {
    t.render("{{ get_random(start=3, end=3) }}", {}, "t");
  } catch (e) {
    message = String(e);
  }
  assert(message.includes("`start` must be lower than `end`"), message);
});
