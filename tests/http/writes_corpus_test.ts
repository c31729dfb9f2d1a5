/**
 * Byte-faithful write-back (assets.md A27–A29) through the HTTP API on copies of real corpus CSVs
 * (public_dns: quoted cells with doubled quotes, a sub-folder, name_template keys), and on CRLF
 * and BOM variants of them: after one change, exactly one line differs. Needs --allow-read.
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";

const CORPUS = new URL("../../../shared/corpus/public_dns/data/", import.meta.url);

function corpusText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(new URL(path, CORPUS));
  } catch {
    return undefined;
  }
}

const caa = corpusText("assets/inventx/caa.csv");
const moduleToml = corpusText("module.toml");
const skip = caa === undefined || moduleToml === undefined;

function changedLines(before: string, after: string): number[] {
  const a = before.split(/(?<=\n)/);
  const b = after.split(/(?<=\n)/);
  assertEquals(a.length, b.length, "line count changed");
  return a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
}

async function appWith(files: Record<string, string>) {
  const workspace = new MemoryWorkspace(files);
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  return { workspace, engine, app: createApp(engine) };
}

for (
  const [variant, transform] of [
    ["LF", (t: string) => t],
    ["CRLF", (t: string) => t.replaceAll("\n", "\r\n")],
    [
      "BOM + CRLF, no final newline",
      (t: string) => "\ufeff" + t.replaceAll("\n", "\r\n").trimEnd(),
    ],
  ] as const
) {
  Deno.test({
    name: `A27–A29 one auto-CRUD change to public_dns caa.csv (${variant}) changes one line`,
    ignore: skip,
    fn: async () => {
      const original = transform(caa!);
      const { workspace, engine, app } = await appWith({
        "module.toml": moduleToml!,
        "assets/inventx/caa.csv": original,
      });
      const key = engine.current.graph.resourcesOf("caa")[3].name;
      const res = await app.fetch(
        new Request(`http://127.0.0.1/api/mutations/caa/${encodeURIComponent(key)}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ttl: 600 }),
        }),
      );
      assertEquals(res.status, 200, await res.clone().text());
      const after = (await workspace.readText("assets/inventx/caa.csv"))!;
      assertEquals(changedLines(original, after).length, 1);
      assertEquals(after.startsWith("\ufeff"), original.startsWith("\ufeff"));
      assertEquals(after.endsWith("\n"), original.endsWith("\n"));
      const changed = after.split(/\r?\n/)[changedLines(original, after)[0] - 1];
      assert(changed.includes(",600,"), changed);
      // Quoted cells with doubled quotes elsewhere in the row keep their exact bytes.
      assert(changed.includes('""'), changed);
    },
  });
}

Deno.test({
  name: "R3 a multipart update of a sub-folder file addressed by base name touches one line",
  ignore: skip,
  fn: async () => {
    const { workspace, app } = await appWith({
      "module.toml": moduleToml!,
      "assets/inventx/caa.csv": caa!,
    });
    const row = caa!.split("\n")[2];
    const body = new FormData();
    const header = caa!.split("\n")[0];
    body.append(
      "update",
      `${header}\n${row.replace('"86400"', '"300"').replace(",86400,", ",300,")}\n`,
    );
    const res = await app.fetch(
      new Request("http://127.0.0.1/api/assets/caa.csv", { method: "POST", body }),
    );
    assertEquals(res.status, 200, await res.clone().text());
    assertEquals((await res.json()).file, "inventx/caa.csv");
    const after = (await workspace.readText("assets/inventx/caa.csv"))!;
    assertEquals(changedLines(caa!, after), [3]);
  },
});
