// Writes change only the bytes they must (A11 BOM handling, R10): a CSV that starts with a UTF-8 BOM keeps it when
// the write API rewrites it, though the file-system workspace reads texts without it.
import { assertEquals } from "../_assert.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

const BOM = [0xef, 0xbb, 0xbf];
const bytes = (text: string) => new TextEncoder().encode(text);

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-bom-" });
  try {
    await Deno.mkdir(`${dir}/assets`);
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("R10 A11 a row added through the API keeps the file's BOM and every other byte", async () => {
  await withDir(async (dir) => {
    await Deno.writeFile(
      `${dir}/assets/host.csv`,
      new Uint8Array([...BOM, ...bytes("name,os\nweb-1,linux\n")]),
    );
    const engine = new GraphEngine({
      workspace: new DenoFsWorkspace(dir),
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
    });
    await engine.rebuild();
    const app = createApp(engine);
    const res = await app.fetch(
      new Request("http://x/api/mutations/host", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "web-2", os: "bsd" }),
      }),
    );
    assertEquals(res.status, 201, await res.text());
    assertEquals(
      [...await Deno.readFile(`${dir}/assets/host.csv`)],
      [...BOM, ...bytes("name,os\nweb-1,linux\nweb-2,bsd\n")],
    );
  });
});

Deno.test("atomic writes keep a BOM the file had, add none it had not, never double one", async () => {
  await withDir(async (dir) => {
    const ws = new DenoFsWorkspace(dir);
    await Deno.writeFile(`${dir}/assets/a.csv`, new Uint8Array([...BOM, ...bytes("name\n")]));
    await ws.writeTextAtomic("assets/a.csv", "name\nx\n");
    assertEquals([...await Deno.readFile(`${dir}/assets/a.csv`)], [...BOM, ...bytes("name\nx\n")]);
    await ws.writeTextAtomic("assets/a.csv", "\uFEFFname\ny\n");
    assertEquals([...await Deno.readFile(`${dir}/assets/a.csv`)], [...BOM, ...bytes("name\ny\n")]);
    await ws.writeTextsAtomic([{ path: "assets/a.csv", text: "name\nz\n" }]);
    assertEquals([...await Deno.readFile(`${dir}/assets/a.csv`)], [...BOM, ...bytes("name\nz\n")]);
    await ws.writeTextAtomic("assets/b.csv", "name\nx\n");
    assertEquals([...await Deno.readFile(`${dir}/assets/b.csv`)], [...bytes("name\nx\n")]);
  });
});
