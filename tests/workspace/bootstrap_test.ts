/**
 * Bootstrap (modules-and-params.md MP34–MP36, cli.md CL16): starter data is written into the data
 * directory only where nothing is there, first layer in load order wins, one leading newline of
 * a TOML multi-line string is stripped. No permissions needed.
 */
import { assertEquals } from "../_assert.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { bootstrapDataDir } from "../../lib/workspace/bootstrap.ts";

const DATA_MANIFEST = `
[assets."auth.csv"]
bootstrap = '''
type,name
auth,rescile.com
'''
[inputs."vanity.json"]
bootstrap = '''
{"ns1": {"provider": "x"}}
'''
[assets."a.csv"]
bootstrap = '''
type,name
a,www
'''
`;

Deno.test("MP34/MP36 declarations of the data directory create missing files byte for byte", async () => {
  const data = new MemoryWorkspace({
    "module.toml": DATA_MANIFEST,
    "assets/inventx/a.csv": "type,name\na,mail\n",
  });
  const { lines } = await bootstrapDataDir(data);
  assertEquals(lines, [
    { path: "assets/auth.csv", action: "created", from: "data" },
    // A CSV with that base name exists in a sub-folder: the declaration is satisfied.
    { path: "assets/a.csv", action: "kept", from: "data" },
    { path: "input/vanity.json", action: "created", from: "data" },
  ]);
  assertEquals(await data.readText("assets/auth.csv"), "type,name\nauth,rescile.com\n");
  assertEquals(await data.readText("input/vanity.json"), '{"ns1": {"provider": "x"}}\n');
  assertEquals(await data.readText("assets/a.csv"), undefined);
});

Deno.test("MP34 never overwrites; module files are copied; the first module wins (MP36)", async () => {
  const data = new MemoryWorkspace({ "assets/host.csv": "name\nmine\n" });
  const first = new MemoryWorkspace({
    "module.toml": '[module]\nname = "a"\nversion = "1.0.0"\n',
    "assets/host.csv": "name\nfrom-module\n",
    "assets/site.csv": "name\nzrh\n",
    "input/regions.json": "{}",
  });
  const second = new MemoryWorkspace({
    "module.toml": `[assets."site.csv"]\nbootstrap = "name\\ngva\\n"\n`,
  });
  const { lines, warnings } = await bootstrapDataDir(data, [
    { id: "a", workspace: first },
    { id: "b", workspace: second },
  ]);
  assertEquals(lines, [
    { path: "assets/host.csv", action: "kept", from: "a" },
    { path: "assets/site.csv", action: "created", from: "a" },
    { path: "input/regions.json", action: "created", from: "a" },
  ]);
  assertEquals(warnings, ["assets/site.csv: bootstrap data of 'b' ignored; 'a' comes first"]);
  assertEquals(await data.readText("assets/host.csv"), "name\nmine\n");
  assertEquals(await data.readText("assets/site.csv"), "name\nzrh\n");
  // A second run finds everything in place.
  const again = await bootstrapDataDir(data, [{ id: "a", workspace: first }]);
  assertEquals(again.lines.map((l) => l.action), ["kept", "kept", "kept"]);
});

Deno.test("MP34 a declaration naming a path outside its folder is ignored", async () => {
  const data = new MemoryWorkspace({
    "module.toml": `[assets."../evil.csv"]\nbootstrap = "x"\n[assets."a/b.csv"]\nbootstrap = "x"\n`,
  });
  assertEquals((await bootstrapDataDir(data)).lines, []);
  assertEquals(Object.keys(data.entries()), ["module.toml"]);
});
