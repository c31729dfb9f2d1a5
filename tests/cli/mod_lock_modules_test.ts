/**
 * `--module` sources in `module.lock` and `mod check` of archives through the real CLI
 * (modules-and-params.md MP18–MP20, cli.md CL14): a remote `--module` is pinned under its
 * location like a dependency under its key; `mod check` downloads archives again and reports a
 * new checksum.
 */
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";
import { moduleToml, testRepo } from "../workspace/_git.ts";
import { makeZip } from "../workspace/_archives.ts";

const boxModel = (name: string) =>
  `origin_resource = "host"\n[[create_resource]]\nresource_type = "box"\nname = "${name}"\n`;

const boxes = (graphJson: string) =>
  (JSON.parse(graphJson).nodes ?? JSON.parse(graphJson).resources ?? [])
    .filter((n: { type?: string; label?: string }) => (n.type ?? n.label) === "box")
    .map((n: { name?: string; id?: string }) => n.name ?? n.id).sort();

Deno.test("MP18/MP19/MP20 a remote --module is locked, builds keep to the pin, check/update move it", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-modlock-" });
  try {
    const repo = await testRepo(root, "net");
    const c1 = await repo.commit(
      { "module.toml": moduleToml("Net"), "models/box.toml": boxModel("box-1") },
      "v1.0.0",
    );
    // The data directory has no module.toml: the lock of the --module goes there all the same.
    const data = await tempWorkspace({ "assets/host.csv": "name\nweb\n" });
    const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache` };
    const url = `file://${repo.bare}`;
    const mod = ["--data-dir", data, "--module", `${url}#main`];

    const lock = await cli([...mod, "mod", "lock"], env);
    assertEquals(lock.code, 0, lock.stderr);
    assert(lock.stdout.includes(`locked ${url} ${url} main ${c1.slice(0, 12)}`), lock.stdout);
    const text = await Deno.readTextFile(`${data}/module.lock`);
    assert(text.includes(`key = "${url}"`) && text.includes(`resolved = "${c1}"`), text);
    assert(text.includes('requested = "main"') && text.includes('kind = "git"'), text);

    const c2 = await repo.commit({ "models/box.toml": boxModel("box-2") });
    // MP19: the build uses the pinned commit, not the branch head.
    const built = await cli([...mod, "build", "--graph-json", "-"], env);
    assertEquals(built.code, 0, built.stderr);
    assertEquals(boxes(built.stdout), ["box-1"]);
    assert(!built.stderr.includes("lock_missing"), built.stderr);

    const check = await cli([...mod, "mod", "check"], env);
    assertEquals(check.code, 0, check.stderr);
    assertEquals(check.stdout, `${url} ${c1.slice(0, 12)} → ${c2.slice(0, 12)}\n`);

    // Another remote --module than the lock pins: reported, resolved fresh (MP19).
    const tagged = ["--data-dir", data, "--module", `${url}:v1.0.0`];
    const fresh = await cli([...tagged, "build"], env);
    assertEquals(fresh.code, 0, fresh.stderr);
    assert(fresh.stderr.includes(`lock_missing: --module ${url}`), fresh.stderr);
    const drift = await cli([...tagged, "mod", "check"], env);
    assertEquals(drift.code, 0);
    assert(drift.stdout.includes(`${url}: not pinned in module.lock (new --module`), drift.stdout);
    assert(drift.stdout.includes("but not given as --module"), drift.stdout);

    const up = await cli([...mod, "mod", "update", url], env);
    assertEquals(up.code, 0, up.stderr);
    assert(up.stdout.includes(`main ${c1.slice(0, 12)} → main ${c2.slice(0, 12)}`), up.stdout);
    const after = await cli([...mod, "build", "--graph-json", "-"], env);
    assertEquals(boxes(after.stdout), ["box-2"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("MP18/MP20 archives: a --module archive is locked by checksum; mod check sees new content", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-modlock-" });
  let served = makeZip({
    "dns-1/module.toml": moduleToml("Dns"),
    "dns-1/models/box.toml": boxModel("zip-1"),
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(served as Uint8Array<ArrayBuffer>),
  );
  try {
    const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache` };
    const base = `http://127.0.0.1:${server.addr.port}`;
    const data = await tempWorkspace({
      "module.toml": moduleToml("P", "1.0.0", `[dependencies]\ndns = "${base}/dns-1.zip"\n`),
      "assets/host.csv": "name\nweb\n",
    });
    const zipUrl = `${base}/extra-1.zip`;
    const mod = ["--data-dir", data, "--module", zipUrl];
    const lock = await cli([...mod, "mod", "lock"], env);
    assertEquals(lock.code, 0, lock.stderr);
    const text = await Deno.readTextFile(`${data}/module.lock`);
    assert(text.includes(`key = "${zipUrl}"`) && text.includes('kind = "archive"'), text);
    assertEquals(text.match(/checksum = "sha256-[0-9a-f]{64}"/g)?.length, 2, text);
    const check1 = await cli([...mod, "mod", "check"], env);
    assertEquals([check1.code, check1.stdout], [0, "all dependencies are up to date\n"]);

    served = makeZip({
      "dns-1/module.toml": moduleToml("Dns"),
      "dns-1/models/box.toml": boxModel("zip-2"),
    });
    const check2 = await cli([...mod, "mod", "check"], env);
    assertEquals(check2.code, 0, check2.stderr);
    const lines = check2.stdout.trim().split("\n").sort();
    assertEquals(lines.length, 2, check2.stdout);
    assert(/^dns sha256-[0-9a-f]{12} → sha256-[0-9a-f]{12} \(same URL/.test(lines[0]), lines[0]);
    assert(lines[1].startsWith(`${zipUrl} sha256-`), lines[1]);
    // The build keeps to the checksums in the lock (the unpacked archives in the cache).
    const built = await cli([...mod, "build", "--graph-json", "-"], env);
    assertEquals(built.code, 0, built.stderr);
    assertEquals(boxes(built.stdout), ["zip-1"]);
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});
