/**
 * The `bootstrap` command and automatic bootstrap before every build (cli.md CL16, CL20;
 * modules-and-params.md MP34–MP35): `created`/`kept` lines on stdout, exit 0, and a build of a
 * data directory that has only a manifest with starter data builds that data.
 */
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";

const MANIFEST = `[assets."site.csv"]\nbootstrap = '''\nname,city\nzrh,Zurich\n'''\n`;

Deno.test("CL16 bootstrap prints created, then kept; never overwrites", async () => {
  const dir = await tempWorkspace({ "module.toml": MANIFEST, "assets/.keep": "" });
  try {
    const first = await cli(["--data-dir", dir, "bootstrap"]);
    assertEquals([first.code, first.stdout], [0, "created assets/site.csv\n"]);
    assertEquals(await Deno.readTextFile(`${dir}/assets/site.csv`), "name,city\nzrh,Zurich\n");
    await Deno.writeTextFile(`${dir}/assets/site.csv`, "name,city\ngva,Geneva\n");
    const second = await cli(["--data-dir", dir, "bootstrap"]);
    assertEquals([second.code, second.stdout], [0, "kept assets/site.csv\n"]);
    assertEquals(await Deno.readTextFile(`${dir}/assets/site.csv`), "name,city\ngva,Geneva\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("MP35 build bootstraps missing starter data before loading assets", async () => {
  const dir = await tempWorkspace({ "module.toml": MANIFEST, "assets/.keep": "" });
  try {
    const r = await cli(["--data-dir", dir, "build", "--graph-json", "-"]);
    assertEquals(r.code, 0, r.stderr);
    const graph = JSON.parse(r.stdout);
    assert(
      graph.nodes.some((n: { type: string; name: string }) =>
        n.type === "site" && n.name === "zrh"
      ),
    );
    assert(r.stderr.includes("bootstrap: created assets/site.csv"), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
