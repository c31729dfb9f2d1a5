// Output results are computed again only when what they read changed (issue 25,
// outputs/output_memo.ts; OU7, OU8): Jsonnet bodies by their noted reads, Tera outputs by the
// origin fields their templates name (outputs/template_reads.ts). Builds after CSV edits equal
// full builds, artifacts included, and the build log says how many were evaluated.
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

/** Moves on before every step (see {@link STEPPING}). */
let clockSecond = 0;

/**
 * Build options whose clock moves on between steps (both builds of a step see the same time):
 * a `now()` stamp differs in every build.
 */
const STEPPING: BuildOptions = {
  ...OPTIONS,
  createTemplates: (params) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, clockSecond));
    return createTemplateRenderer(params, { clock: () => at, seed: 7 });
  },
};

/**
 * Builds incrementally and from scratch, asserts they agree, returns the memo's log line
 * (`kind`: "Jsonnet" or "template").
 */
function step(
  builder: IncrementalBuilder,
  sources: SourceSet,
  options: BuildOptions,
  kind = "Jsonnet",
): string {
  clockSecond++;
  let line = "";
  const log = (_level: string, message: string) => {
    if (message.startsWith("outputs: ") && message.includes(kind)) line = message;
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
    assertEquals(step(builder, sources, STEPPING), `outputs: ${line} from the last build`);
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

// Hosts with a Tera card each; a second rule reads the host's relation field `envgroup`, a third
// stamps the time, a fourth renders the whole origin: only the first is kept.
const HOST_FILES = {
  "assets/envgroup.csv": "name,zone\ne1,z1\ne2,z2\n",
  "assets/host.csv": "name,env,tier,envgroup\nh1,e1,web,e1\nh2,e2,db,e2\nh3,e1,db,e1\n",
  "output/card.toml": `origin_resource = "host"
[[output]]
resource_type = "card"
name = "card-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.txt"
mimetype = "text/plain"
template = "{{ origin_resource.name }} {{ origin_resource.env | upper }}/{{ origin_resource.tier }}"

[[output]]
resource_type = "group_card"
name = "group-{{ origin_resource.name }}"
mimetype = "text/plain"
template = "{{ origin_resource.envgroup | map(attribute='zone') | join(sep=',') }}"

[[output]]
resource_type = "stamp_card"
name = "stamp-{{ origin_resource.name }}"
mimetype = "text/plain"
template = "{{ origin_resource.name }} at {{ now() }}"

[[output]]
resource_type = "dump_card"
name = "dump-{{ origin_resource.name }}"
mimetype = "application/json"
template = "{{ origin_resource | json_encode }}"
`,
};

Deno.test("OU7 Tera outputs whose origin fields are unchanged are not rendered again; builds equal full builds", () => {
  const builder = new IncrementalBuilder();
  let sources = memorySources(HOST_FILES);
  const steps: [
    path: keyof typeof HOST_FILES | undefined,
    from: string,
    to: string,
    line: string,
  ][] = [
    // Only the cards are kept; the other three rules are rendered every time.
    [undefined, "", "", "3 template output(s) rendered, 0 unchanged"],
    // h2's tier: its card again.
    ["assets/host.csv", "h2,e2,db", "h2,e2,web", "1 template output(s) rendered, 2 unchanged"],
    // A field the card does not read.
    ["assets/envgroup.csv", "e1,z1", "e1,z9", "0 template output(s) rendered, 3 unchanged"],
    // Every host's env.
    ["assets/host.csv", ",e1,", ",e2,", "2 template output(s) rendered, 1 unchanged"],
    // A rule file: nothing is kept.
    [
      "output/card.toml",
      "[[output]]",
      "\n[[output]]",
      "3 template output(s) rendered, 0 unchanged",
    ],
  ];
  for (const [path, from, to, line] of steps) {
    if (path) sources = withFile(sources, path, sources.data.files.get(path)!.replaceAll(from, to));
    assertEquals(
      step(builder, sources, STEPPING, "template"),
      `outputs: ${line} from the last build`,
    );
  }
});
