/**
 * `json!` resolution (reference A25; issue 19 item 7): `input/` first, then the referencing TOML
 * file's directory, then the data directory root (also `data/x.json` and for module rules).
 */
import { assertEquals } from "../_assert.ts";
import { buildOutputs } from "./outputs/_support.ts";

const model = (ref: string) =>
  [
    'origin_resource = "host"',
    `regions = { "json!" = "${ref}" }`,
    "[[create_resource]]",
    'resource_type = "host"',
    'name = "{{ origin_resource.name }}"',
    "[create_resource.properties]",
    'zone = "{{ regions.zrh }}"',
  ].join("\n") + "\n";

function zone(r: Awaited<ReturnType<typeof buildOutputs>>): unknown {
  return [...r.graph.resources()].find((x) => x.type === "host")?.properties.zone;
}

Deno.test("A25 a json! file at the data directory root resolves", async () => {
  const r = await buildOutputs({
    "assets/host.csv": "name\nweb\n",
    "models/host.toml": model("regions.json"),
    "regions.json": '{"zrh":"eu-central-2"}',
  });
  assertEquals(r.issues.filter((i) => i.severity === "error"), []);
  assertEquals(zone(r), "eu-central-2");
});

Deno.test("A25 'data/x.json' resolves at the data directory root; input/ wins over the root", async () => {
  const r = await buildOutputs({
    "assets/host.csv": "name\nweb\n",
    "models/host.toml": model("data/regions.json"),
    "regions.json": '{"zrh":"root"}',
  });
  assertEquals(zone(r), "root");
  const r2 = await buildOutputs({
    "assets/host.csv": "name\nweb\n",
    "models/host.toml": model("regions.json"),
    "regions.json": '{"zrh":"root"}',
    "input/regions.json": '{"zrh":"input"}',
  });
  assertEquals(zone(r2), "input");
});

Deno.test("A25 a module's rule finds a json! file at the data directory root", async () => {
  const r = await buildOutputs(
    { "assets/host.csv": "name\nweb\n", "regions.json": '{"zrh":"data-root"}' },
    [{ id: "m", files: { "models/host.toml": model("regions.json") } }],
  );
  assertEquals(r.issues.filter((i) => i.severity === "error"), []);
  assertEquals(zone(r), "data-root");
});
