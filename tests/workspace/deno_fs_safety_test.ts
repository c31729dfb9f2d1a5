/**
 * The file-system workspace never leaves its root, symbolic links included (issue: live service,
 * security of the write surface; rest-api.md R6–R7), and its writes are durable and atomic.
 * Needs --allow-read --allow-write.
 */
import { assert, assertEquals } from "../_assert.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { UnsafePathError } from "../../lib/workspace/workspace.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

async function tree() {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-fs-" });
  const outside = await Deno.makeTempDir({ prefix: "graphsvc-outside-" });
  await Deno.mkdir(`${root}/data/assets/sub`, { recursive: true });
  await Deno.writeTextFile(`${outside}/secret.csv`, "name\nroot-password\n");
  await Deno.writeTextFile(`${root}/data/assets/host.csv`, "name\nweb-1\n");
  await Deno.symlink(`${outside}/secret.csv`, `${root}/data/assets/evil.csv`);
  await Deno.symlink(outside, `${root}/data/assets/linkdir`);
  await Deno.symlink(`${root}/data/assets/host.csv`, `${root}/data/assets/alias.csv`);
  const cleanup = async () => {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  };
  return { root, outside, data: `${root}/data`, cleanup };
}

async function throwsUnsafe(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    assert(e instanceof UnsafePathError, String(e));
    return;
  }
  throw new Error("expected UnsafePathError");
}

Deno.test("symlinks out of the data directory are not listed, read or written through", async () => {
  const t = await tree();
  try {
    const ws = new DenoFsWorkspace(t.data);
    assertEquals(await ws.listFiles("assets"), ["assets/alias.csv", "assets/host.csv"]);
    await throwsUnsafe(() => ws.readText("assets/evil.csv"));
    await throwsUnsafe(() => ws.writeTextAtomic("assets/evil.csv", "name\nx\n"));
    await throwsUnsafe(() => ws.writeTextAtomic("assets/linkdir/new.csv", "name\nx\n"));
    assertEquals(await Deno.readTextFile(`${t.outside}/secret.csv`), "name\nroot-password\n");
    assertEquals([...Deno.readDirSync(t.outside)].map((e) => e.name), ["secret.csv"]);
  } finally {
    await t.cleanup();
  }
});

Deno.test("a symlink inside the data directory is followed: the write changes its target", async () => {
  const t = await tree();
  try {
    const ws = new DenoFsWorkspace(t.data);
    assertEquals(await ws.readText("assets/alias.csv"), "name\nweb-1\n");
    await ws.writeTextAtomic("assets/alias.csv", "name\nweb-2\n");
    assertEquals(await Deno.readTextFile(`${t.data}/assets/host.csv`), "name\nweb-2\n");
    assert((await Deno.lstat(`${t.data}/assets/alias.csv`)).isSymlink);
  } finally {
    await t.cleanup();
  }
});

Deno.test("atomic writes leave no temp files and create missing folders inside the root", async () => {
  const t = await tree();
  try {
    const ws = new DenoFsWorkspace(t.data);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => ws.writeTextAtomic("assets/sub/x.csv", `name\n${i}\n`)),
    );
    assertEquals((await ws.readText("assets/sub/x.csv"))!.startsWith("name\n"), true);
    assertEquals([...Deno.readDirSync(`${t.data}/assets/sub`)].map((e) => e.name), ["x.csv"]);
    await ws.writeTextAtomic(".graphsvc/module-params.json", "{}\n");
    assertEquals(await ws.readText(".graphsvc/module-params.json"), "{}\n");
  } finally {
    await t.cleanup();
  }
});

Deno.test("HTTP: GET of a symlink leading out is 404, a write through it is 403 and changes nothing", async () => {
  const t = await tree();
  try {
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(t.data),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
    });
    await engine.rebuild();
    const app = createApp(engine);
    const get = await app.fetch(new Request("http://127.0.0.1/api/assets/evil.csv"));
    assertEquals(get.status, 404);
    assert(!(await get.text()).includes("root-password"));
    const body = new FormData();
    body.append("data", "name\npwned\n");
    const post = await app.fetch(
      new Request("http://127.0.0.1/api/assets/evil.csv", { method: "POST", body }),
    );
    assertEquals(post.status, 403);
    assertEquals(await Deno.readTextFile(`${t.outside}/secret.csv`), "name\nroot-password\n");
    assert(!engine.current.graph.resourcesOf("evil").length);
  } finally {
    await t.cleanup();
  }
});
