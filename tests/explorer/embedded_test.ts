// The explorer's embedded modules (lib/explorer/assets/*.gen.ts) are generated from
// lib/explorer/src/ and cytoscape's dist file by scripts/embed-explorer.ts: they must be current.
import { assertEquals } from "../_assert.ts";
import { generatedModules } from "../../scripts/embed-explorer.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("the embedded explorer files equal their sources (run scripts/embed-explorer.ts)", async () => {
  const stale: string[] = [];
  for (const [path, text] of await generatedModules()) {
    const old = await Deno.readTextFile(new URL(path, ROOT)).catch(() => undefined);
    if (old !== text) stale.push(path);
  }
  assertEquals(stale, [], "deno run --allow-read --allow-write scripts/embed-explorer.ts");
});
