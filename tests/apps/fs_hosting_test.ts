import { assertEquals } from "../_assert.ts";

// Needs --allow-read --allow-write (a temporary directory).
Deno.test("AP1 a binary app file is served byte for byte from a file-system workspace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/app`);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0, 1]);
    await Deno.writeFile(`${dir}/app/logo.png`, png);
    const { DenoFsWorkspace } = await import("../../lib/workspace/deno_fs.ts");
    const { GraphEngine } = await import("../../lib/engine.ts");
    const { createTemplateRenderer } = await import("../../lib/pipeline/templates.ts");
    const { createApp } = await import("../../lib/api/app.ts");
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(dir),
      createTemplates: createTemplateRenderer,
    });
    await engine.rebuild();
    const app = createApp(engine);
    const res = await app.fetch(new Request("http://test/apps/data/logo.png"));
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "image/png");
    assertEquals(new Uint8Array(await res.arrayBuffer()), png);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
