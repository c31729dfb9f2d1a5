import { assertEquals, assertThrows } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { parseActionFile } from "../../lib/actions/declarations.ts";
import { expandActions, renderAction } from "../../lib/actions/expand.ts";
import { ActionConfigError } from "../../lib/actions/errors.ts";
import { CORPUS_DIR, SKIP_CORPUS } from "../corpus/_corpus.ts";

function graph(): Graph {
  const g = new Graph();
  const web1 = g.upsertResource("host", "web-1", { env: "prod", ip: "10.0.0.1" });
  g.upsertResource("host", "web-2", { env: "dev", ip: "10.0.0.2" });
  g.upsertResource("host", "db-1", { env: "prod", ip: "10.0.0.3" });
  const zone = g.upsertResource("zone", "dmz", { cidr: "10.0.0.0/24" });
  g.upsertRelation(web1, "IN_ZONE", zone);
  return g;
}

const scope = (g: Graph) => ({
  graph: g,
  params: { stage: "DEV" },
  templates: createTemplateRenderer(),
});

Deno.test("AC4 a template expands once per matching origin resource, named <template>-<name>", () => {
  const t = parseActionFile(
    'name = "do-thing"\norigin_resource = "host"\nmatch_on = [{ property = "env", value = "prod" }]\nexec = [["true"]]\n',
    "actions/a.toml",
    "data",
  );
  const out = expandActions([t], scope(graph()));
  assertEquals(out.map((a) => [a.name, a.origin]), [
    ["do-thing-db-1", { type: "host", name: "db-1" }],
    ["do-thing-web-1", { type: "host", name: "web-1" }],
  ]);
});

Deno.test("AC4 a file without origin_resource is one global action named as written", () => {
  const t = parseActionFile('name = "sync"\nexec = [["true"]]\n', "actions/s.toml", "m1");
  const [a] = expandActions([t], scope(graph()));
  assertEquals([a.module, a.name, a.origin], ["m1", "sync", undefined]);
});

Deno.test("AC5 expansion follows the graph: a new resource gives a new action", () => {
  const t = parseActionFile(
    'name = "x"\norigin_resource = "zone"\nexec = [["true"]]\n',
    "a.toml",
    "d",
  );
  const g = graph();
  assertEquals(expandActions([t], scope(g)).length, 1);
  const g2 = graph();
  g2.upsertResource("zone", "core");
  assertEquals(expandActions([t], scope(g2)).map((a) => a.name), ["x-core", "x-dmz"]);
});

Deno.test("AC5 two expansions with the same concrete name in one module name both files", () => {
  const a = parseActionFile('name = "x-web"\nexec = [["true"]]\n', "actions/a.toml", "d");
  const b = parseActionFile(
    'name = "x"\norigin_resource = "zone"\nexec = [["true"]]\n',
    "actions/b.toml",
    "d",
  );
  const g = new Graph();
  g.upsertResource("zone", "web");
  const e = assertThrows(() => expandActions([a, b], scope(g)), ActionConfigError);
  assertEquals(e.message.includes("actions/a.toml") && e.message.includes("actions/b.toml"), true);
});

Deno.test("AC3 exec, env and file templates see input, origin_resource (with relations), params, action, secrets placeholders", () => {
  const t = parseActionFile(
    `name = "deploy"
origin_resource = "host"
exec = [["sh", "-c", "deploy {{ input.zone }} {{ origin_resource.ip }} {{ origin_resource.IN_ZONE[0].cidr }}"]]
[env]
STAGE = "{{ params.stage }}-{{ stage }}"
WHO = "{{ action.name }}/{{ action.template }}/{{ action.module }}"
PW = "{{ secrets.DB }}"
[[file]]
path = "a.txt"
template = "{{ origin_resource.name }}"
[vault_secrets]
DB = { collection = "c", secret = "s" }
`,
    "actions/d.toml",
    "data",
  );
  const g = graph();
  const [a] = expandActions([t], scope(g)).filter((x) => x.name === "deploy-web-1");
  const r = renderAction(a, { zone: "dmz" }, scope(g));
  assertEquals(r.exec, [["sh", "-c", "deploy dmz 10.0.0.1 10.0.0.0/24"]]);
  assertEquals(r.env, [
    ["STAGE", "DEV-DEV"],
    ["WHO", "deploy-web-1/deploy/data"],
    ["PW", "{{ secrets.DB }}"],
  ]);
  assertEquals(r.files, [{ path: "a.txt", text: "web-1" }]);
});

Deno.test({
  name: "AC1 AC4 the corpus action files expand",
  ignore: SKIP_CORPUS,
  fn() {
    const dir = `${CORPUS_DIR}aws-region-module__actions-branch/data/actions`;
    const text = Deno.readTextFileSync(`${dir}/deploy.toml`);
    const t = parseActionFile(text, "actions/deploy.toml", "aws");
    const [a] = expandActions([t], scope(new Graph()));
    assertEquals(a.name, "deploy_aws_hub");
    const r = renderAction(a, { dry_run: true }, scope(new Graph()));
    assertEquals(r.exec[0][2].startsWith("if [ 'true' = 'true' ]"), true);
  },
});
