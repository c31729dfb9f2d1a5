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

Deno.test("M3 a misspelled query key next to json! is not guessed: ignored, warned with file/line", async () => {
  // The original's export of rescile/aws_transit_hub (graph150.json) shows `jamespath` ignored:
  // the whole file is used (issue 27 section 1).
  const r = await buildOutputs({
    "assets/host.csv": "name\nweb\n",
    "models/host.toml": [
      'origin_resource = "host"',
      `regions = { "json!" = "regions.json", jamespath = "zrh" }`,
      "[[create_resource]]",
      'resource_type = "host"',
      'name = "{{ origin_resource.name }}"',
      "[create_resource.properties]",
      'zone = "{{ regions.zrh }}"',
    ].join("\n") + "\n",
    "regions.json": '{"zrh":"eu-central-2"}',
  });
  assertEquals(r.issues.filter((i) => i.severity === "error"), []);
  assertEquals(zone(r), "eu-central-2");
  const w = r.issues.filter((i) => i.code === "unknown_key");
  assertEquals(w.length, 1);
  assertEquals(w[0].severity, "warning");
  assertEquals(w[0].file, "models/host.toml");
  assertEquals(w[0].line, 2);
});
