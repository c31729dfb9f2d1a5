// AC15 `[[mount]]`: an expanded action receives its own origin's output artifact; a missing or
// ambiguous artifact is a located bundle error, never a silent skip or another origin's file.
import { assert, assertEquals, assertRejects, assertThrows } from "../_assert.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import type { Artifact } from "../../lib/pipeline/context.ts";
import { ActionService } from "../../lib/actions/service.ts";
import { mountedArtifact } from "../../lib/actions/mounts.ts";
import { ActionBundleError } from "../../lib/actions/errors.ts";
import { unpackBundle } from "../../lib/actions/bundle.ts";

const perHost: Artifact[] = ["web-1", "web-2"].map((h) => ({
  type: "cfg",
  name: `cfg-${h}`,
  filename: "nginx.conf",
  body: `server ${h}`,
  origin: { type: "host", name: h },
}));
const global: Artifact = { type: "inventory", name: "all", filename: "hosts.txt", body: "all" };
const mount = { resourceType: "cfg", filename: "nginx.conf", mountPath: "etc/nginx.conf" };

Deno.test("AC15 a mount of an expanded action takes its origin's own artifact, not the first match", () => {
  for (const h of ["web-1", "web-2"]) {
    const action = { file: "actions/a.toml", origin: { type: "host", name: h } };
    assertEquals(mountedArtifact(action, mount, 0, perHost).body, `server ${h}`);
    const typed = { ...mount, originResource: "host" };
    assertEquals(mountedArtifact(action, typed, 0, perHost).body, `server ${h}`);
  }
});

Deno.test("AC15 a missing artifact of the origin is an error naming the file, the mount and the origin", () => {
  const action = { file: "actions/a.toml", origin: { type: "host", name: "web-3" } };
  const e = assertThrows(() => mountedArtifact(action, mount, 1, perHost), ActionBundleError);
  assertEquals(
    e.message,
    "actions/a.toml: mount[1]: no artifact 'nginx.conf' of output 'cfg' for host 'web-3' in this build",
  );
  const none = assertThrows(
    () => mountedArtifact({ file: "actions/g.toml" }, { ...mount, filename: "x" }, 0, perHost),
    ActionBundleError,
  );
  assert(none.message.startsWith("actions/g.toml: mount[0]: no artifact 'x'"), none.message);
});

Deno.test("AC15 a mount not tied to the origin must match exactly one artifact", () => {
  const onHost = { file: "actions/a.toml", origin: { type: "host", name: "web-1" } };
  const inv = { resourceType: "inventory", filename: "hosts.txt", mountPath: "hosts.txt" };
  assertEquals(mountedArtifact(onHost, inv, 0, [...perHost, global]).body, "all");
  // A global action mounting per-host artifacts: which one is ambiguous.
  const e = assertThrows(() => mountedArtifact({ file: "actions/g.toml" }, mount, 0, perHost));
  assert(e.message.includes("2 outputs match") && e.message.includes("'cfg-web-1'"), e.message);
  // An origin type other than the action's: the one artifact of that origin type.
  const zones: Artifact[] = [{ ...global, type: "cfg", origin: { type: "zone", name: "dmz" } }];
  const byZone = { ...mount, filename: "hosts.txt", originResource: "zone" };
  assertEquals(mountedArtifact(onHost, byZone, 0, zones).body, "all");
});

Deno.test("AC15 bundles of web-1 and web-2 carry their own artifact; a missing one refuses the bundle", async () => {
  const g = new Graph();
  for (const h of ["web-1", "web-2", "web-3"]) g.upsertResource("host", h);
  const s = new ActionService({});
  await s.refresh([{
    id: "data",
    files: [{
      path: "actions/a.toml",
      displayPath: "actions/a.toml",
      text: 'name = "deploy"\norigin_resource = "host"\nexec = [["true"]]\n' +
        '[[mount]]\nresource_type = "cfg"\nfilename = "nginx.conf"\nmount_path = "etc/nginx.conf"\n',
    }],
    readFile: () => Promise.resolve(undefined),
    runtimeFiles: () => Promise.resolve([]),
  }], {
    generation: 1,
    graph: g,
    params: {},
    artifacts: perHost,
    templates: createTemplateRenderer(),
  });
  for (const h of ["web-1", "web-2"]) {
    const b = unpackBundle((await s.bundle("data", `deploy-${h}`, {})).bytes);
    const file = b.entries.find((e) => e.path === "files/etc/nginx.conf")!;
    assertEquals(new TextDecoder().decode(file.bytes), `server ${h}`);
  }
  const e = await assertRejects(() => s.bundle("data", "deploy-web-3", {}), ActionBundleError);
  assert(e.message.includes("for host 'web-3'"), e.message);
  await assertRejects(() => s.trigger("data", "deploy-web-3", {}), ActionBundleError);
  assertEquals(s.runs(), [], "nothing queued");
});
