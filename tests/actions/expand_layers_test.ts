// AC5: each action file expands on its own; a file that does not parse, whose `match_on` fails
// (a template error) or that repeats a concrete name is left out and reported, located, while the
// other files — of the same module and of other modules — still expand.
import { assert, assertEquals } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { expandLayers } from "../../lib/actions/expand_layers.ts";
import { ActionService } from "../../lib/actions/service.ts";

const OK = 'name = "ping"\norigin_resource = "host"\nexec = [["true"]]\n';
const BAD_MATCH = 'name = "bad"\norigin_resource = "host"\nexec = [["true"]]\n' +
  'match_on = [{ property = "env", value = "{{ nope | no_such_filter }}" }]\n';
const NO_EXEC = 'name = "broken"\n';
const DUP = 'name = "ping"\norigin_resource = "host"\nexec = [["false"]]\n';

function scope() {
  const graph = new Graph();
  graph.upsertResource("host", "h1", { env: "prod" });
  return { graph, params: {}, templates: createTemplateRenderer() };
}

const files = (entries: Record<string, string>, prefix = "") =>
  Object.entries(entries).map(([path, text]) => ({ displayPath: `${prefix}${path}`, text }));

Deno.test("AC5 a template error in one match_on leaves that file out, located; the others expand", () => {
  const { actions, errors } = expandLayers([
    { id: "mod", files: files({ "actions/bad.toml": BAD_MATCH, "actions/ok.toml": OK }, "mod/") },
    { id: "data", files: files({ "actions/ok.toml": OK, "actions/x.toml": NO_EXEC }) },
  ], scope());
  assertEquals(actions.map((a) => [a.module, a.name]), [["mod", "ping-h1"], ["data", "ping-h1"]]);
  assertEquals(errors.map((e) => [e.code, e.file, e.line, e.column]), [
    ["action_expand", "mod/actions/bad.toml", 4, 1],
    ["action_invalid", "actions/x.toml", 1, 1],
  ]);
  assert(errors[0].message.startsWith("mod/actions/bad.toml:4:1: match_on cannot be evaluated"));
});

Deno.test("AC5 a concrete name produced twice in one module: the later file is left out, naming both", () => {
  const { actions, errors } = expandLayers([
    { id: "data", files: files({ "actions/a.toml": OK, "actions/b.toml": DUP }) },
  ], scope());
  assertEquals(actions.map((a) => a.template.file), ["actions/a.toml"]);
  assertEquals(errors.length, 1);
  assertEquals([errors[0].code, errors[0].file], ["action_duplicate", "actions/b.toml"]);
  assert(errors[0].message.includes("also produced by actions/a.toml"), errors[0].message);
});

Deno.test("AC5 the service keeps serving the good files and reports the errors of the last refresh", async () => {
  const s = new ActionService({});
  const layer = (entries: Record<string, string>) => ({
    id: "data",
    files: Object.entries(entries).map(([path, text]) => ({ path, displayPath: path, text })),
    readFile: () => Promise.resolve(undefined),
    runtimeFiles: () => Promise.resolve([]),
  });
  const build = { ...scope(), generation: 1, artifacts: [] };
  await s.refresh([layer({ "actions/bad.toml": BAD_MATCH, "actions/ok.toml": OK })], build);
  assertEquals(s.list().map((a) => a.name), ["ping-h1"]);
  assertEquals(s.errors.map((e) => e.file), ["actions/bad.toml"]);
  await s.refresh([layer({ "actions/ok.toml": OK })], { ...build, generation: 2 });
  assertEquals(s.errors, []);
});
