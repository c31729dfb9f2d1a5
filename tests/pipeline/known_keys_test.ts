/**
 * Nothing dropped silently (MP8, C50; issue 19 item 4): keys of module.toml and of compliance
 * target tables that the engine does not read are `unknown_key` warnings naming file, key and
 * line; keys the reference documents but the engine does not implement are `not_implemented`.
 */
import { assert, assertEquals } from "../_assert.ts";
import { buildOutputs } from "./outputs/_support.ts";
import { corpusEntries, loadCorpus, SKIP_CORPUS } from "../corpus/_corpus.ts";
import { buildSources } from "./outputs/_support.ts";
import type { BuildIssue } from "../../lib/pipeline/issues.ts";

const keyIssues = (issues: readonly BuildIssue[]) =>
  issues.filter((i) => i.code === "unknown_key" || i.code === "not_implemented")
    .map((i) => `${i.file}:${i.line ?? "?"} ${i.code} ${i.message}`);

const MANIFEST = `[module]
name = "m"
version = "1.0.0"
author = "me"

[params.region]
required = false
defualt = "zrh"

[assets."host.csv"]
resource_type = "host"
bootstrap = "name\\n"
colour = "red"

[assets."host.csv".columns]
name = { type = "string", requird = true }

[[dependencies.base]]
git = "https://example.invalid/base.git"

[extras]
x = 1
`;

Deno.test("MP8 unknown manifest keys warn with file, key and line; documented ones say not implemented", async () => {
  const r = await buildOutputs({ "module.toml": MANIFEST, "assets/host.csv": "name\nweb\n" });
  const w = keyIssues(r.issues);
  const has = (needle: string) =>
    assert(w.some((x) => x.includes(needle)), `${needle}\n${w.join("\n")}`);
  has("module.toml:4 unknown_key unknown key 'author' in [module]");
  has("module.toml:8 unknown_key unknown key 'defualt' in [params.region]");
  has("module.toml:13 unknown_key unknown key 'colour' in [assets.\"host.csv\"]");
  has("module.toml:16 unknown_key unknown key 'requird' in [assets.\"host.csv\".columns.name]");
  has("module.toml:21 unknown_key unknown key 'extras' in module.toml");
  // `bootstrap` is implemented (MP34): no warning for it.
  assert(!w.some((x) => x.includes("'bootstrap'")), w.join("\n"));
  // `[dependencies]` is implemented (MP14, resolved before the build): no warning for it.
  assertEquals(w.length, 5, w.join("\n"));
  assertEquals(r.issues.filter((i) => i.severity === "error"), []);
});

Deno.test("MP8 an empty [dependencies] table asks for nothing: no warning", async () => {
  const r = await buildOutputs({
    "module.toml": '[module]\nname = "m"\nversion = "1.0.0"\n[dependencies]\n',
    "assets/host.csv": "name\nweb\n",
  });
  assertEquals(keyIssues(r.issues), []);
});

Deno.test("C12-C14/C30/C50 unknown keys of compliance target sub-tables warn", async () => {
  const r = await buildOutputs({
    "assets/service.csv": "name\napi\n",
    "compliance/c.toml": `audit_id = "A1"
[[control]]
id = "C"
name = "Control"
[[control.target]]
origin_resource_types = ["service"]
[control.target.resource]
type = "evidence"
name = "{{ origin_resource.name }}-ev"
nmae = "typo"
[control.target.relation]
type = "HAS_EVIDENCE"
colour = "red"
`,
  });
  const w = r.issues.filter((i) => i.code === "unknown_key").map((i) => i.message);
  assertEquals(w.length, 2, w.join("\n"));
  assert(w[0].includes("'nmae' in [control.target.resource]"), w[0]);
  assert(w[1].includes("'colour' in [control.target.relation]"), w[1]);
  assert(r.issues.every((i) => i.code !== "unknown_key" || i.file === "compliance/c.toml"));
});

Deno.test({
  name: "MP8 corpus modules: no unknown_key warnings for keys the engine implements",
  ignore: SKIP_CORPUS,
  fn: async () => {
    for (const e of corpusEntries()) {
      const r = buildSources(await loadCorpus(e.name));
      assertEquals(r.issues.filter((i) => i.code === "unknown_key"), [], e.name);
    }
  },
});

// Actions (AC1) and contracts (AC40) are implemented: their folders are no longer reported as
// ignored (issue 19 item 4 warned about them while they were not).
Deno.test("AC1/AC40: files under actions/ and contracts/ are not reported as not implemented", async () => {
  const r = await buildOutputs({
    "assets/h.csv": "name\nx\n",
    "actions/deploy.toml": 'name = "deploy"\nexec = [["true"]]\n',
    "contracts/add.toml": 'name = "Add"\n[[write]]\ntarget_asset = "h"\nrecord = { name = "y" }\n',
  });
  assertEquals(keyIssues(r.issues), []);
});
