// Jsonnet output bodies are evaluated again only when what they read changed (issue 25,
// outputs/jsonnet_memo.ts; OU8): builds after CSV edits equal full builds, artifacts included,
// and the build log says how many bodies were evaluated.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { buildGraph, type BuildOptions } from "../../lib/pipeline/build.ts";
import { IncrementalBuilder } from "../../lib/pipeline/incremental/builder.ts";
import type { Layer, SourceSet } from "../../lib/workspace/sources.ts";
import { dump, memorySources, OPTIONS } from "./_incremental.ts";
import { loadCorpus, SKIP_CORPUS } from "../corpus/_corpus.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";

function withFile(sources: SourceSet, path: string, text: string): SourceSet {
  const data: Layer = { ...sources.data, files: new Map(sources.data.files).set(path, text) };
  return { modules: sources.modules, data };
}

/** Moves on before every step (see the first test's clock). */
let clockSecond = 0;

/** Builds incrementally and from scratch, asserts they agree, returns the memo's log line. */
function step(builder: IncrementalBuilder, sources: SourceSet, options: BuildOptions): string {
  clockSecond++;
  let line = "";
  const log = (_level: string, message: string) => {
    if (message.startsWith("outputs: ") && message.includes("Jsonnet")) line = message;
  };
  const inc = builder.build(sources, { ...options, log });
  assertEquals(dump(inc.result), dump(buildGraph(sources, options)), inc.reason);
  return line;
}

// A model stamps every zone with a time the outputs never read; one output reads the zone's
// records (relations), one only the zone's ttl, one the whole zone (manifested).
const FILES = {
  "assets/zone.csv": "name,ttl\na.org,60\nb.org,300\nc.org,60\n",
  "assets/record.csv": "name,zone,address\nr1,a.org,1.1.1.1\nr2,b.org,2.2.2.2\nr3,a.org,3.3.3.3\n",
  "models/stamp.toml": `origin_resource = "zone"
[[create_resource]]
resource_type = "stamp"
name = "stamp-{{ origin_resource.name }}"
relation_type = "STAMPED"
[create_resource.properties]
at = "{{ now() }}"
`,
  "output/zone.toml": `origin_resource = "zone"
[[output]]
resource_type = "zone_file"
name = "zone-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.zone"
mimetype = "text/plain"
jsonnet = '''
local z = std.extVar("origin_resource");
std.join("\\n", [r.name + " " + r.address for r in std.get(z, "record", [])]) + "\\n"
'''

[[output]]
resource_type = "zone_ttl"
name = "ttl-{{ origin_resource.name }}"
jsonnet = '''{ ttl: std.extVar("origin_resource").ttl }'''

[[output]]
resource_type = "zone_dump"
name = "dump-{{ origin_resource.name }}"
jsonnet = '''{ text: std.manifestJsonEx(std.extVar("origin_resource"), " ") }'''
`,
};

Deno.test("OU8 Jsonnet bodies whose reads are unchanged are not evaluated again; builds equal full builds", () => {
  // The clock moves on between steps (both builds of a step see the same time): the stamp
  // differs in every build.
  const options: BuildOptions = {
    ...OPTIONS,
    createTemplates: (params) => {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, clockSecond));
      return createTemplateRenderer(params, { clock: () => at, seed: 7 });
    },
  };
  const builder = new IncrementalBuilder();
  let sources = memorySources(FILES);
  const steps: [path: keyof typeof FILES | undefined, from: string, to: string, line: string][] = [
    [undefined, "", "", "9 Jsonnet bodies evaluated, 0 unchanged"],
    // A record of a.org: a.org's zone file and every dump (they show the stamp) again.
    ["assets/record.csv", "3.3.3.3", "3.3.3.4", "4 Jsonnet bodies evaluated, 5 unchanged"],
    // b.org's ttl: its ttl output and the dumps.
    ["assets/zone.csv", "b.org,300", "b.org,301", "4 Jsonnet bodies evaluated, 5 unchanged"],
    // A rule file: nothing is kept (imports and programs are not part of the reads).
    ["output/zone.toml", "[[output]]", "\n[[output]]", "9 Jsonnet bodies evaluated, 0 unchanged"],
  ];
  for (const [path, from, to, line] of steps) {
    if (path) sources = withFile(sources, path, sources.data.files.get(path)!.replace(from, to));
    assertEquals(step(builder, sources, options), `outputs: ${line} from the last build`);
  }
});

Deno.test({
  name:
    "corpus public_dns: a record edit evaluates only its zone's Jsonnet outputs; equal to a full build",
  ignore: SKIP_CORPUS,
  fn: async () => {
    let sources = await loadCorpus("public_dns");
    const builder = new IncrementalBuilder();
    step(builder, sources, OPTIONS);
    const path = "assets/inventx/a.csv";
    for (const address of ["149.126.4.74", "149.126.4.75"]) {
      const text = sources.data.files.get(path)!;
      const edited = text.replace(/,149\.126\.4\.\d+,14400,/, `,${address},14400,`);
      ok(edited !== text, "the record to edit is in the corpus");
      sources = withFile(sources, path, edited);
      const line = step(builder, sources, OPTIONS);
      const [, evaluated, kept] = /(\d+) Jsonnet bod(?:y|ies) evaluated, (\d+) unchanged/.exec(
        line,
      )!;
      ok(Number(evaluated) <= 5 && Number(kept) > 250, line);
    }
  },
});
