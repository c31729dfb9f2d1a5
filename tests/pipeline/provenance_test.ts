// Provenance side table of a build: which asset file, model rule files (M10, M40, M50) and
// compliance files (C10, C12) created or changed each resource.
import { assertEquals } from "../_assert.ts";
import type { BuildResult } from "../../lib/pipeline/build.ts";
import { buildCompliance } from "./compliance/_support.ts";

function provenanceOf(r: BuildResult, type: string, name: string): string[] {
  const res = r.graph.getResource(type, name);
  if (!res) throw new Error(`no ${type} '${name}'`);
  return r.provenance.entriesOf(res, r.assets).map((e) => `${e.kind} ${e.rule}`);
}

const ASSETS = {
  "assets/host.csv": "name,zone\nweb-1,dmz\ndb-1,core\n",
  "assets/zone.csv": "name,level\ndmz,low\ncore,high\n",
};

Deno.test("provenance A1: an asset resource names its asset file and nothing else", async () => {
  const r = await buildCompliance(ASSETS);
  assertEquals(provenanceOf(r, "host", "web-1"), ["created assets/host.csv"]);
  assertEquals(provenanceOf(r, "zone", "dmz"), ["created assets/zone.csv"]);
  assertEquals(r.provenance.size, 0);
});

Deno.test("provenance M10: create_resource records created (new) and linked (origin)", async () => {
  const r = await buildCompliance({
    ...ASSETS,
    "models/backup.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "backup"
name = "bk-{{ origin_resource.name }}"
relation_type = "backed_up_by"
[create_resource.properties]
schedule = "daily"
`,
  });
  assertEquals(provenanceOf(r, "backup", "bk-web-1"), [
    "created models/backup.toml",
    "changed models/backup.toml",
    "linked models/backup.toml",
  ]);
  assertEquals(provenanceOf(r, "host", "web-1"), [
    "created assets/host.csv",
    "linked models/backup.toml",
  ]);
  // Untouched resources carry no rule entry.
  assertEquals(provenanceOf(r, "zone", "dmz"), ["created assets/zone.csv"]);
});

Deno.test("provenance M40: copy_property records changed on the resources it writes", async () => {
  const r = await buildCompliance({
    ...ASSETS,
    "models/level.toml": `origin_resource = "zone"
[[copy_property]]
to = "host"
properties = [{ from = "level", as = "zone_level" }]
`,
  });
  assertEquals(r.graph.getResource("host", "db-1")!.properties.zone_level, "high");
  assertEquals(provenanceOf(r, "host", "db-1"), [
    "created assets/host.csv",
    "changed models/level.toml",
  ]);
  assertEquals(provenanceOf(r, "zone", "core"), ["created assets/zone.csv"]);
});

Deno.test("provenance M50: link_resources records linked on both ends", async () => {
  const r = await buildCompliance({
    ...ASSETS,
    "assets/team.csv": "name,owns\nops,web-1\n",
    "models/owner.toml": `origin_resource = "team"
[[link_resources]]
with = "host"
join = { local = "owns", remote = "name" }
create_relation = { type = "owns_host" }
`,
  });
  assertEquals(provenanceOf(r, "team", "ops"), [
    "created assets/team.csv",
    "linked models/owner.toml",
  ]);
  assertEquals(provenanceOf(r, "host", "web-1"), [
    "created assets/host.csv",
    "linked models/owner.toml",
  ]);
  assertEquals(provenanceOf(r, "host", "db-1"), ["created assets/host.csv"]);
});

Deno.test("provenance C10/C12: compliance files are recorded on what they wrote or attached", async () => {
  const r = await buildCompliance({
    ...ASSETS,
    "compliance/patch.toml": `audit_id = "A1"
[[control]]
id = "PATCH"
name = "Patching"
[[control.target]]
origin_resource_types = ["host"]
match_on = [{ property = "zone", value = "dmz" }]
[control.target.resource.properties]
patch_level = "current"
`,
  });
  assertEquals(provenanceOf(r, "host", "web-1"), [
    "created assets/host.csv",
    "compliance compliance/patch.toml",
  ]);
  assertEquals(provenanceOf(r, "host", "db-1"), ["created assets/host.csv"]);
});

Deno.test("provenance C15: a finding names the compliance file that attached it", async () => {
  const r = await buildCompliance({
    ...ASSETS,
    "compliance/net.toml": `audit_id = "NET"
[[control]]
id = "NET-07"
name = "No SSH"
[[control.target]]
description = "Exposed."
origin_resource_types = "host"
match_on = [{ property = "zone", value = "dmz" }]
[control.target.resource]
type = "policy_violation"
`,
  });
  assertEquals(provenanceOf(r, "policy_violation", "violation-NET-07-web-1"), [
    "compliance compliance/net.toml",
  ]);
  assertEquals(provenanceOf(r, "host", "web-1"), [
    "created assets/host.csv",
    "compliance compliance/net.toml",
  ]);
});
