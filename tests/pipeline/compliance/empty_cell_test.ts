/**
 * C40 with A12: an empty CSV cell is an empty value, so aggregating into it does not produce
 * `["", "pci"]` (issue 19 item 7).
 */
import { assertEquals } from "../../_assert.ts";
import { aggregate } from "../../../lib/pipeline/compliance/mod.ts";
import { buildOutputs } from "../outputs/_support.ts";

Deno.test("C40/A12 aggregate drops empty strings next to other values", () => {
  assertEquals(aggregate("", "pci"), "pci");
  assertEquals(aggregate(["pci", ""], "gdpr"), ["pci", "gdpr"]);
  assertEquals(aggregate("", ""), "");
});

Deno.test("C40/A12 a compliance target writing into an empty CSV cell", async () => {
  const r = await buildOutputs({
    "assets/service.csv": "name,tags\napi,\nweb,pci\n",
    "compliance/c.toml": `audit_id = "A1"
[[control]]
id = "TAG"
name = "Tagging"
[[control.target]]
description = "tagged"
origin_resource_types = ["service"]
[control.target.resource.properties]
tags = "gdpr"
`,
  });
  const tags = (n: string) =>
    [...r.graph.resources()].find((x) => x.type === "service" && x.name === n)?.properties.tags;
  assertEquals([tags("api"), tags("web")], ["gdpr", ["pci", "gdpr"]]);
});
