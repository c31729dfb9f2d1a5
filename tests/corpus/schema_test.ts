/**
 * Every corpus module through `validate` (with and without strict mode) and `generate-schema`
 * (reference SV30–SV52). The reports and generated schemas are pinned in
 * testdata/schemas/pinned/<module>.json, so any change of them shows in a diff; rewrite the pins
 * with `GRAPHSVC_UPDATE_PINS=1` after checking the change is intended. Hand-written schemas of
 * two modules (testdata/schemas/) validate cleanly, and deliberate breaks of their CSVs are
 * reported with file, row and column. Needs --allow-read (and --allow-write to update pins).
 */
import { assert, assertEquals } from "../_assert.ts";
import { corpusEntries, loadCorpus, SKIP_CORPUS } from "./_corpus.ts";
import { buildSources } from "../pipeline/outputs/_support.ts";
import type { SourceSet } from "../../lib/workspace/sources.ts";
import { validateWorkspace } from "../../lib/schema/validate.ts";
import { generateSchema } from "../../lib/schema/generate.ts";
import type { ValidationReport } from "../../lib/schema/types.ts";
import type { BuildResult } from "../../lib/pipeline/build.ts";

const TESTDATA = new URL("../../testdata/schemas/", import.meta.url).pathname;
const UPDATE = (() => {
  try {
    return Deno.env.get("GRAPHSVC_UPDATE_PINS") === "1";
  } catch {
    return false;
  }
})();

function run(
  sources: SourceSet,
  strict: boolean,
  override?: { origin: string; text: string },
  result: BuildResult = buildSources(sources),
) {
  return validateWorkspace({
    sources,
    graph: result.graph,
    manifest: result.manifest,
    assets: result.assets,
    buildIssues: result.issues,
    buildFailed: result.outcome === "failed",
  }, { strict, override });
}

function generated(sources: SourceSet, result: BuildResult, module?: string) {
  return generateSchema(
    { sources, graph: result.graph, manifest: result.manifest, assets: result.assets },
    { today: "20260101", module },
  );
}

/** The sources with some data-directory files replaced. */
function withFiles(sources: SourceSet, files: Record<string, string>): SourceSet {
  return {
    ...sources,
    data: { ...sources.data, files: new Map([...sources.data.files, ...Object.entries(files)]) },
  };
}

for (const { name, layout } of corpusEntries()) {
  Deno.test({
    name: `SV30–SV52 corpus ${name}: validate, validate --strict-schemas, generate-schema (pinned)`,
    ignore: SKIP_CORPUS,
    fn: async () => {
      const sources = await loadCorpus(name);
      const module = layout === "module" ? sources.modules[0]?.id : undefined;
      const built = buildSources(sources);
      const gen = generated(sources, built, module);
      const actual = {
        validate: run(sources, false, undefined, built),
        strict: run(sources, true, undefined, built),
        generated: gen.schema,
        // The generated schema is a consistent starting point: it validates its own module.
        self_check: run(sources, true, { origin: "generated.schema.json", text: gen.text }, built),
      };
      for (const r of [actual.validate, actual.strict, actual.self_check]) {
        assertEquals(r.error_count, r.issues.filter((i) => i.severity === "error").length);
      }
      assertEquals(
        actual.self_check.issues.filter((i) => i.severity === "error" && i.code !== "build_failed"),
        [],
      );
      const pin = `${TESTDATA}pinned/${name}.json`;
      const text = JSON.stringify(actual, null, 2) + "\n";
      if (UPDATE) {
        await Deno.mkdir(`${TESTDATA}pinned`, { recursive: true });
        await Deno.writeTextFile(pin, text);
        return;
      }
      let pinned: string;
      try {
        pinned = await Deno.readTextFile(pin);
      } catch {
        throw new Error(`no pin ${pin}: run with GRAPHSVC_UPDATE_PINS=1 and review it`);
      }
      assertEquals(JSON.parse(text), JSON.parse(pinned), `report of ${name} changed (see ${pin})`);
    },
  });
}

const HAND_WRITTEN: Record<string, string> = {
  vault_example: "vault_example.schema.json",
  "rescile-example-netbox-vm-verification": "netbox-vm-verification.schema.json",
};

for (const [name, file] of Object.entries(HAND_WRITTEN)) {
  Deno.test({
    name: `SV13/SV40 corpus ${name} conforms to its hand-written schema in strict mode`,
    ignore: SKIP_CORPUS,
    fn: async () => {
      const text = await Deno.readTextFile(`${TESTDATA}${file}`);
      const r = run(await loadCorpus(name), true, { origin: file, text });
      assertEquals(r.issues.filter((i) => i.severity !== "info"), []);
      // Dropped into the data directory's schemas/ folder it binds automatically (SV10.5, SV16).
      const dropped = run(withFiles(await loadCorpus(name), { [`schemas/${file}`]: text }), true);
      assertEquals(dropped.error_count, 0);
    },
  });
}

function errors(r: ValidationReport) {
  return r.issues.filter((i) => i.severity === "error").map((i) => ({
    code: i.code,
    file: i.file,
    row: i.row,
    column: i.column,
    resource: i.resource,
  }));
}

Deno.test({
  name: "SV31 deliberate CSV breaks in vault_example are reported with file, row and column",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const text = await Deno.readTextFile(`${TESTDATA}vault_example.schema.json`);
    const sources = await loadCorpus("vault_example");
    const secret = sources.data.files.get("assets/secret.csv")!;
    const client = sources.data.files.get("assets/client.csv")!;
    const broken = withFiles(sources, {
      // Row 3 (api-token): pre_seed is not a boolean, and its vault reference is gone.
      "assets/secret.csv": secret.replace(
        "api-token,enterprise-vault,app-backend,External API token for the backend tier,false",
        "api-token,,app-backend,External API token for the backend tier,maybe",
      ),
      // Row 4 (monitoring-agent-01): a role outside the enum.
      "assets/client.csv": client.replace(",monitor-token,Reader,", ",monitor-token,Auditor,"),
    });
    assert(broken.data.files.get("assets/secret.csv") !== secret, "the break applies");
    const r = run(broken, true, { origin: "vault_example.schema.json", text });
    assertEquals(errors(r), [
      {
        code: "csv_value_invalid",
        file: "assets/client.csv",
        row: 4,
        column: "vault_role",
        resource: undefined,
      },
      {
        code: "csv_value_invalid",
        file: "assets/secret.csv",
        row: 3,
        column: "pre_seed",
        resource: undefined,
      },
      {
        code: "missing_required_relation",
        file: undefined,
        row: undefined,
        column: undefined,
        resource: "api-token",
      },
    ]);
    const message = r.issues.find((i) => i.code === "csv_value_invalid" && i.row === 3)!.message;
    assert(message.includes("assets/secret.csv row 3 column 'pre_seed'"), message);
  },
});

Deno.test({
  name:
    "SV31 deliberate CSV breaks in netbox-vm-verification are reported with file, row and column",
  ignore: SKIP_CORPUS,
  fn: async () => {
    const name = "rescile-example-netbox-vm-verification";
    const text = await Deno.readTextFile(`${TESTDATA}netbox-vm-verification.schema.json`);
    const sources = await loadCorpus(name);
    const networks = sources.data.files.get("assets/netbox_networks.csv")!;
    const broken = withFiles(sources, {
      "assets/netbox_networks.csv": networks.replace("dmz-prod,101,true", "dmz-prod,1o1,yes"),
    });
    const r = run(broken, true, { origin: "netbox.schema.json", text });
    const cells = r.issues.filter((i) => i.code === "csv_value_invalid");
    assertEquals(cells.map((i) => [i.file, i.row, i.column]), [
      ["assets/netbox_networks.csv", 2, "has_internet_access"],
      ["assets/netbox_networks.csv", 2, "vlan_id"],
    ]);
    assertEquals(run(broken, false, { origin: "netbox.schema.json", text }).error_count, 0);
  },
});
